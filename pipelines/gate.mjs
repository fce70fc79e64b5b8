#!/usr/bin/env node
// adversary-gate from node: the whole pipeline in one command, for teams without make.
//
//   node pipelines/gate.mjs [--base REF] [--head REF] [--out DIR] [any ag-gate flag]
//
// A wrapper of ag-gate (tools/ag-gate), the one implementation of the pipeline: the same
// flags (`ag-gate --help`), the same AG_* variables, the same exit codes (0 ACCEPT, 1 REJECT,
// 2 HOLD, 3 bad usage). To compose the five tools by hand instead, read gate.mk.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// In this repository, tools/ag-gate; installed as @adversary-gate/gate, its sibling package.
const cli = ['../tools/ag-gate/bin/ag-gate.js', '../ag-gate/bin/ag-gate.js']
  .map((p) => fileURLToPath(new URL(p, import.meta.url)))
  .find((p) => existsSync(p));
if (cli === undefined) {
  console.error('gate.mjs: ag-gate is not installed beside it');
  process.exit(3);
}
const r = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, AG_GATE_WHO: process.env.AG_GATE_WHO || 'gate.mjs' },
});
process.exitCode = r.status ?? 2;
