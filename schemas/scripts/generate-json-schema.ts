// Writes schemas/json/*.schema.json from the valibot schemas. Run: npm run generate -w schemas
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateJsonSchemas } from '../src/json-schema.js';

const outDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'json');
await fs.mkdir(outDir, { recursive: true });
for (const [name, text] of Object.entries(generateJsonSchemas())) {
  await fs.writeFile(path.join(outDir, name), text);
  console.error(`wrote json/${name}`);
}
