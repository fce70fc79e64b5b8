#!/usr/bin/env node
/**
 * Bundle a tool's compiled CLI (dist/cli.js and everything it imports) into one ESM file,
 * dist/<name>.bundle.mjs, which the tool's bin shim loads: one file parses and links faster
 * than some fifty modules, which is most of a small run's time.
 *
 *   node ../ag-core/scripts/bundle-cli.mjs <name> [--lean]     (run from the tool's package directory)
 *
 * --lean: what is only imported dynamically (`await import(...)`) goes to chunk files in
 * dist/<name>.chunks/, loaded when first used, so a run that never needs them does not parse
 * them; comments and whitespace are left out (less source to scan; names are kept, so stack
 * traces under --verbose still name functions).
 *
 * A tool that reads files shipped with it at run time finds them from its package folder
 * (`packageDir` in ag-core), never by a path relative to one module: the bundle is not
 * where tsc put that module.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const [name, ...flags] = process.argv.slice(2);
const unknown = flags.filter((f) => f !== '--lean');
if (!name || name.startsWith('-') || unknown.length > 0) {
  console.error('usage: bundle-cli.mjs <tool-name> [--lean]');
  process.exit(3);
}
const lean = flags.includes('--lean');
const dist = path.resolve('dist');
const chunks = `${name}.chunks`;
rmSync(path.join(dist, chunks), { recursive: true, force: true });
await build({
  entryPoints: { [`${name}.bundle`]: path.join(dist, 'cli.js') },
  outdir: dist,
  outExtension: { '.js': '.mjs' },
  ...(lean ? { splitting: true, chunkNames: `${chunks}/[name]-[hash]`, minifyWhitespace: true } : {}),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  // CommonJS dependencies call require() on node built-ins.
  banner: {
    js: "import { createRequire as __agCreateRequire } from 'node:module'; const require = __agCreateRequire(import.meta.url);",
  },
});
