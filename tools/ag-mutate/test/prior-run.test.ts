import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { passedEnvSha256 } from '@adversary-gate/core';
import { RunArtefact, sha256 } from '@adversary-gate/schemas';
import type { Site } from '../src/engines/site.js';
import { execute } from '../src/exec/execute.js';
import { priorRunUse, type OwnBaseline, type PriorRunUse } from '../src/prior-run.js';

const DIFF = sha256('a diff');
const TREE = 'a'.repeat(40);
const OWN: OwnBaseline = {
  diffSha256: DIFF,
  patchTree: TREE,
  command: 'node --test',
  sandbox: 'none',
  passEnvSha256: passedEnvSha256([]),
};

const execution = (outcome: 'PASS' | 'FAIL', side: 'baseline' | 'patch' = 'patch', round = 1) => ({
  command: 'node --test',
  side,
  round,
  exit_code: outcome === 'PASS' ? 0 : 1,
  signal: null,
  timed_out: false,
  outcome,
  kind: outcome === 'PASS' ? 'passed' : 'failed',
  tests: null,
  stdout_tail: '',
  stderr_tail: '',
  stdout_bytes: 0,
  stderr_bytes: 0,
  truncated: false,
  leftover_processes: 0,
});

/** A run.json of exactly OWN's work whose full suite passed on the patch; `over` changes it. */
function run(over: Record<string, unknown> = {}, fullSuite: Record<string, unknown> = {}): RunArtefact {
  return v.parse(RunArtefact, {
    schema: 'adversary-gate/run',
    schema_version: 1,
    tool: { name: 'ag-run', version: '0.1.0' },
    subject: { diff_sha256: DIFF, baseline_tree: 'b'.repeat(40), patch_tree: TREE },
    inputs: [],
    faults: [],
    sandbox: 'none',
    rounds: 1,
    seed: null,
    runner: 'auto',
    claims: [],
    full_suite: {
      command: 'node --test',
      baseline: execution('PASS', 'baseline'),
      patch: execution('PASS'),
      ...fullSuite,
    },
    test_deltas: null,
    criteria: [],
    pass_env_sha256: passedEnvSha256([]),
    limits: { timeout_seconds: 60, output_cap_bytes: 1024 },
    ...over,
  });
}

test("ag-run's full-suite run on the patch stands for the second baseline run only when bound to the same work", (t) => {
  t.deepEqual(priorRunUse(run(), OWN), { used: true });
  const refused: [string, RunArtefact, OwnBaseline?][] = [
    ['another diff', run({ subject: { diff_sha256: sha256('other'), patch_tree: TREE } })],
    ['no patch tree', run({ subject: { diff_sha256: DIFF } })],
    ['another patch tree', run({ subject: { diff_sha256: DIFF, patch_tree: 'c'.repeat(40) } })],
    ["the patch tree's git id is unknown", run(), { ...OWN, patchTree: undefined }],
    ['another command', run({}, { command: 'node --test test/one.test.js' })],
    ['another sandbox', run({ sandbox: 'bwrap' })],
    ['a seed', run({ seed: 7 })],
    ['no environment digest', run({ pass_env_sha256: undefined })],
    ['other passed variables', run(), { ...OWN, passEnvSha256: passedEnvSha256(['HOME']) }],
    ['a fault', run({ faults: [{ code: 'TREE_ID', message: 'x' }] })],
    ['no patch execution', run({}, { patch: null })],
    ['a failed patch execution', run({}, { patch: execution('FAIL') })],
    ['a failed patch rerun', run({}, { reruns: [execution('FAIL', 'patch', 2)] })],
  ];
  for (const [what, r, own] of refused) {
    const use = priorRunUse(r, own ?? OWN);
    t.false(use.used, what);
    if (!use.used) t.true(use.why.length > 0, what);
  }
  // Control: a failure on the baseline side says nothing about the patch tree.
  t.deepEqual(priorRunUse(run({}, { reruns: [execution('FAIL', 'baseline', 2)] }), OWN), { used: true });
});

test('the passed-environment digest tells values and names apart, not their order or repeats', (t) => {
  const from = { A: '1', B: '2' };
  t.is(passedEnvSha256(['A', 'B'], from), passedEnvSha256(['B', 'A', 'A'], from));
  t.not(passedEnvSha256(['A'], from), passedEnvSha256(['A'], { A: '2' }));
  t.not(passedEnvSha256(['A'], {}), passedEnvSha256(['A'], { A: '' }));
  t.not(passedEnvSha256(['A'], from), passedEnvSha256(['A', 'C'], from));
});

function tree() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-prior-'));
  const root = path.join(dir, 'tree');
  mkdirSync(root);
  writeFileSync(path.join(root, 'a.txt'), 'good\n');
  chmodSync(dir, 0o755);
  const shared = path.join(dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  return { root, shared, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const SITE: Site = {
  file: 'a.txt',
  line: 1,
  column: 1,
  start: 0,
  end: 4,
  operator: 'op',
  rank: 1,
  original: 'good',
  replacement: 'evil',
  parses: true,
};
const OPTS = { timeoutFactor: 2, baselineTimeoutMs: 30_000, passEnv: [] };
const USED: Promise<PriorRunUse> = Promise.resolve({ used: true });
const texts = new Map([['a.txt', 'good\n']]);

for (const jobs of [1, 2]) {
  test(`--jobs ${jobs}: with ag-run's bound run the baseline is one run, carrying the neutral edit, and the mutants are judged`, async (t) => {
    const f = tree();
    t.teardown(f.cleanup);
    const log = path.join(f.shared, 'runs');
    // Each run logs whether it saw the neutral edit (a second line in a.txt).
    const command = `wc -l < a.txt >> ${log}; grep -q good a.txt`;
    const r = await execute([SITE], texts, { ...OPTS, jobs, tree: f.root, command, priorGreen: USED });
    t.is(r.baseline.status, 'green');
    t.deepEqual(
      r.baseline.runs.map((x) => x.kind),
      ['neutral'],
    );
    t.deepEqual(r.secondGreenRun, { source: 'run_json', note: null });
    t.deepEqual(r.statuses, ['killed']);
    t.is(readFileSync(log, 'utf8').trim().split('\n')[0]!.trim(), '2', 'the one baseline run saw the neutral edit');
  });

  test(`--jobs ${jobs}: a bound run.json does not excuse a suite that fails on the neutral edit`, async (t) => {
    const f = tree();
    t.teardown(f.cleanup);
    // Passes only on the patch's exact bytes: any mutant "fails" it.
    const r = await execute([SITE], texts, {
      ...OPTS,
      jobs,
      tree: f.root,
      command: '[ "$(cat a.txt)" = good ]',
      priorGreen: USED,
    });
    t.is(r.baseline.status, 'green');
    t.true(r.neutralEditFailed);
    t.deepEqual(r.statuses, []);
  });

  test(`--jobs ${jobs}: our run failing where ag-run's passed is a flaky baseline, never red, never measured`, async (t) => {
    const f = tree();
    t.teardown(f.cleanup);
    const r = await execute([SITE], texts, { ...OPTS, jobs, tree: f.root, command: 'exit 1', priorGreen: USED });
    t.is(r.baseline.status, 'flaky');
    t.deepEqual(r.statuses, []);
  });

  test(`--jobs ${jobs}: control: a run.json not bound to this work leaves the second run to ag-mutate, saying why`, async (t) => {
    const f = tree();
    t.teardown(f.cleanup);
    const priorGreen = Promise.resolve<PriorRunUse>({ used: false, why: 'it measured another patch tree' });
    const r = await execute([SITE], texts, { ...OPTS, jobs, tree: f.root, command: 'grep -q good a.txt', priorGreen });
    t.is(r.baseline.status, 'green');
    t.deepEqual(r.baseline.runs.map((x) => x.kind).sort(), ['neutral', 'plain']);
    t.deepEqual(r.secondGreenRun, { source: 'own', note: 'it measured another patch tree' });
    t.deepEqual(r.statuses, ['killed']);
  });
}
