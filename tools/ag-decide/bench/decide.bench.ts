// Times ag-decide on the golden evidence set (run, diffcov, mutation, oracle + policy):
// whole-process wall time against a bare `node -e ''` start, and the in-process decision.
// Run: npx tsx bench/decide.bench.ts [runs] [--no-record]
// Appends the figures and the machine to bench/RESULTS.md (bench/lib/results.mjs at the
// repository root); --no-record only prints them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { canonicalJson, sha256 } from '@adversary-gate/schemas';
import { benchRecorder, markdownTable } from '../../../bench/lib/results.mjs';
import { decide, readEvidenceFiles } from '../src/index.js';
import { DIFF, DIFF_TEXT, defaultPolicy, golden } from '../test/helpers/golden.js';

const recorder = benchRecorder(import.meta.url);
const runs = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 21);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const policyText = JSON.stringify({ schema_version: 1 });
const set = golden();
set.oracle.policy.sha256 = sha256(policyText);
// The test helpers' scratch folder belongs to ava; the bench keeps its own and removes it at the end.
const BIN = fileURLToPath(new URL('../bin/ag-decide.js', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-decide-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
writeFileSync(path.join(dir, 'changes.diff'), DIFF_TEXT);
const evidence: string[] = [];
for (const [name, value] of Object.entries(set)) {
  writeFileSync(path.join(dir, `${name}.json`), canonicalJson(value));
  evidence.push('--evidence', `${name}.json`);
}
writeFileSync(path.join(dir, 'policy.json'), policyText);
const args = ['--diff', 'changes.diff', ...evidence, '--policy', 'policy.json', '--out', 'verdict.json', '--quiet'];
const check = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });
if (check.status !== 0) throw new Error(`golden set did not ACCEPT (exit ${check.status}): ${check.stderr}`);

const time = (argv: string[]) => {
  const t0 = performance.now();
  spawnSync(process.execPath, argv, { cwd: dir });
  return performance.now() - t0;
};
const bare: number[] = [];
const full: number[] = [];
for (let i = 0; i < runs; i++) {
  bare.push(time(['-e', '']));
  full.push(time([BIN, ...args]));
}
const files = evidence.filter((_, i) => i % 2 === 1).map((f) => path.join(dir, f));
const inproc: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  decide({
    diff: DIFF,
    evidence: await readEvidenceFiles(files),
    policy: defaultPolicy(),
    tool: { name: 'ag-decide', version: '0' },
  });
  inproc.push(performance.now() - t0);
}
console.log(`runs: ${runs}, median wall ms`);
console.log(`node -e ''            ${median(bare).toFixed(1)}`);
console.log(`ag-decide (5 inputs)  ${median(full).toFixed(1)}`);
console.log(`ag-decide own time    ${(median(full) - median(bare)).toFixed(1)}  (process minus bare node start-up)`);
console.log(`decide() in-process   ${median(inproc).toFixed(2)}  (read 4 evidence files + decide)`);
recorder.record(
  markdownTable(
    [`figure (median of ${runs})`, 'ms'],
    [
      ["`node -e ''`", median(bare).toFixed(1)],
      ['`ag-decide` on 5 inputs, whole process', median(full).toFixed(1)],
      ["**ag-decide's own time** (process minus bare start-up)", `**${(median(full) - median(bare)).toFixed(1)}**`],
      ['`decide()` in-process (read 4 evidence files + decide)', median(inproc).toFixed(1)],
    ],
  ),
);
