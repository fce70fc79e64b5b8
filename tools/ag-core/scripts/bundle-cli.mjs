#!/usr/bin/env node
/**
 * Bundle a tool's compiled CLI (dist/cli.js and everything it imports) into one ESM file,
 * dist/<name>.bundle.mjs, which the tool's bin shim loads: one file parses and links faster
 * than some fifty modules, which is most of a small run's time.
 *
 *   node ../ag-core/scripts/bundle-cli.mjs <name>     (run from the tool's package directory)
 *
 * Only for tools that do not read files shipped beside their modules at run time.
 */
import path from 'node:path';
import { build } from 'esbuild';

const name = process.argv[2];
if (!name) {
  console.error('usage: bundle-cli.mjs <tool-name>');
  process.exit(3);
}
const dist = path.resolve('dist');
await build({
  entryPoints: [path.join(dist, 'cli.js')],
  outfile: path.join(dist, `${name}.bundle.mjs`),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  // CommonJS dependencies call require() on node built-ins.
  banner: { js: "import { createRequire as __agCreateRequire } from 'node:module'; const require = __agCreateRequire(import.meta.url);" },
});
