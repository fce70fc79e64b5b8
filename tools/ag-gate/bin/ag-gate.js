#!/usr/bin/env node
// The CLI is an esbuild bundle made by `npm run build`. Without it (or with a broken one),
// say so in one line and exit 3: node's own "module not found" would exit 1, REJECT's code.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/ag-gate.bundle.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write('ag-gate is not built: run npm run build\n');
  process.exitCode = 3;
} else {
  try {
    await import(bundle.href);
  } catch (error) {
    const line = String(error instanceof Error ? error.message : error).split('\n')[0];
    process.stderr.write(`ag-gate: its build cannot be loaded (${line}): run npm run build\n`);
    process.exitCode = 3;
  }
}
