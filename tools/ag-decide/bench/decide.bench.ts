// Times ag-decide on the golden evidence set (run, diffcov, mutation, oracle + policy):
// whole-process wall time against a bare `node -e ''` start, and the in-process decision.
// Run: npx tsx bench/decide.bench.ts [runs]
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sha256 } from '@adversary-gate/schemas';
import { decide, readEvidenceFiles } from '../src/index.js';
import { DIFF, defaultPolicy, golden } from '../test/helpers/golden.js';
import { agDecide, BIN, workdir } from '../test/helpers/spawn.js';

const runs = Number(process.argv[2] ?? 21);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const policyText = JSON.stringify({ schema_version: 1 });
const set = golden();
set.oracle.policy.sha256 = sha256(policyText);
const { dir, evidence } = workdir(set);
writeFileSync(path.join(dir, 'policy.json'), policyText);
const args = ['--diff', 'changes.diff', ...evidence, '--policy', 'policy.json', '--out', 'verdict.json', '--quiet'];
if (agDecide(args, dir).code !== 0) throw new Error('golden set did not ACCEPT');

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
