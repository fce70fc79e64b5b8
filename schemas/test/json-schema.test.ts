import test from 'ava';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateJsonSchemas } from '../src/json-schema.js';

const jsonDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'json');

test('the committed JSON Schema files equal what the valibot schemas generate', async (t) => {
  const generated = generateJsonSchemas();
  const committed = (await fs.readdir(jsonDir)).filter((f) => f.endsWith('.schema.json')).sort();
  t.deepEqual(committed, Object.keys(generated).sort(), 'run `npm run generate -w schemas`');
  for (const [name, text] of Object.entries(generated)) {
    t.is(
      await fs.readFile(path.join(jsonDir, name), 'utf8'),
      text,
      `json/${name} is stale: run \`npm run generate -w schemas\``,
    );
  }
});

test('every generated schema is draft 2020-12 with an $id and closed objects', (t) => {
  for (const [name, text] of Object.entries(generateJsonSchemas())) {
    const json = JSON.parse(text);
    t.is(json.$schema, 'https://json-schema.org/draft/2020-12/schema', name);
    t.true(String(json.$id).endsWith(`/${name}`), name);
    t.is(json.additionalProperties, false, name);
  }
});
