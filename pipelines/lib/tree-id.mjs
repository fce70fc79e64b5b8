#!/usr/bin/env node
// tree-id.mjs DIR: prints the git tree id of the exported tree DIR (ag-core's gitTreeId, a
// top-level node_modules link left out), the id every tool that ran on DIR records. A
// pipeline computes it right after `git archive`, before any of the patch's code runs, and
// gives it to ag-decide: an export shaped by .gitattributes (export-ignore) differs from the
// commit's own tree, and the evidence must match the tree the tools were given.
// Exit: 0, or 3 when DIR cannot be read.
import { gitTreeId } from '@adversary-gate/core';

const [dir, ...rest] = process.argv.slice(2);
if (dir === undefined || rest.length > 0) {
  console.error('tree-id.mjs: usage: tree-id.mjs DIR');
  process.exit(3);
}
try {
  process.stdout.write(`${await gitTreeId(dir, ['node_modules'])}\n`);
} catch (e) {
  console.error(`tree-id.mjs: ${dir}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(3);
}
