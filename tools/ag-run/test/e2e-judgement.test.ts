/**
 * End to end, per-test judgement across rounds: flaky suites, renamed tests, collection errors,
 * node's JUnit reporter, a red baseline, a hang. Real node:test projects, the real binary.
 * Flakiness comes from a counter outside the tree copies (an exclusive-create file per
 * execution), never from timing.
 */
import test from 'ava';
import path from 'node:path';
import type { RunArtefact } from '@adversary-gate/schemas';
import {
  agRun as agRunRaw,
  calcProject,
  makeRepo,
  nodeTest,
  removeTemporaries,
  sharedCounter,
  type Repo,
} from './helpers/repo.js';

test.after.always(removeTemporaries);

/** The artefact, or a failure that says why there is none. */
async function agRun(repo: Repo, args: readonly string[]): Promise<{ run: RunArtefact | null }> {
  const r = await agRunRaw(repo, args);
  if (r.status !== 0 || r.run === null) throw new Error(`ag-run exited ${r.status}: ${r.stderr}`);
  return r;
}

const NODE3 = ['--test-command', 'node --test test/', '--rounds', '3', '--jobs', '2', '--timeout', '30'];
const NODE1 = ['--test-command', 'node --test test/', '--rounds', '1', '--jobs', '2', '--timeout', '30'];

/** A suite whose execution number n (0, 1, 2… across every execution of one ag-run) fails `case n % 4`. */
async function flakySuite(extra = ''): Promise<Record<string, string>> {
  const counter = await sharedCounter();
  return {
    'test/flaky.test.js': nodeTest(`const fs = require('node:fs');
let n = 0;
for (;; n++) { try { fs.writeFileSync(${JSON.stringify(counter)} + '/' + n, '', { flag: 'wx', mode: 0o666 }); break; } catch (e) { if (e.code !== 'EEXIST') throw e; } }
for (const k of [0, 1, 2, 3]) test('case ' + k, () => assert.notEqual(n % 4, k));
${extra}`),
  };
}

test('a suite failing a different test in every run: the README-only patch is never a regression, the flaky tests are named', async (t) => {
  const files = await flakySuite(`test('stable', () => assert.equal(1, 1));`);
  const repo = await makeRepo(files, { 'README.md': '# docs\n' });
  const run = (await agRun(repo, NODE3)).run!;
  const claim = run.claims[0]!;
  t.true(
    [claim.baseline!, ...claim.patch].every((e) => e.outcome === 'FAIL'),
    'every execution failed one test',
  );
  t.deepEqual([claim.status, claim.class], ['UNVERIFIED', 'flaky']);
  t.deepEqual(
    claim.reruns?.map((e) => `${e.side} ${e.round}`),
    ['baseline 2'],
    'the failure was run again on the baseline',
  );
  t.false(run.full_suite.collateral_regression);
  t.deepEqual(run.test_deltas?.tests_pass_to_fail, []);
  t.deepEqual(run.test_deltas?.tests_lost, []);
  const flaky = run.tests_flaky!;
  t.true(flaky.length >= 3, JSON.stringify(flaky));
  t.true(
    flaky.every(
      (f) =>
        /^case [0-3]$/.test(f.id) &&
        f.runs.some((r) => r.outcome === 'passed') &&
        f.runs.some((r) => r.outcome === 'failed'),
    ),
  );
  t.false(flaky.some((f) => f.id === 'stable'));
});

test('the next cheat of the kind: a test broken for good inside a flaky suite is still a regression', async (t) => {
  const files = await flakySuite(`test('stable', () => assert.equal(require('../calc.js').add(1, 2), 3));`);
  const repo = await makeRepo(
    { ...files, 'calc.js': calcProject['calc.js'] },
    { 'calc.js': 'exports.add = (a, b) => a - b;\n' },
  );
  const run = (await agRun(repo, NODE3)).run!;
  t.deepEqual([run.claims[0]!.status, run.claims[0]!.class], ['REFUTED', 'regression']);
  t.deepEqual(run.test_deltas?.tests_pass_to_fail, ['stable']);
});

test('a flaky suite that fails the same test in every patch run so far: more patch runs show it flaky, not a regression', async (t) => {
  // One counter per side. 'drifts' fails in the patch's first two executions only (the first
  // wave and its rerun), 'wobbles' in the baseline's first only: by chance, as a flaky suite
  // may, the patch's sightings all failed one test that every baseline sighting passed.
  const counter = await sharedCounter();
  const suite = nodeTest(`const fs = require('node:fs');
const path = require('node:path');
const side = fs.existsSync(path.join(__dirname, '..', 'PATCH.md')) ? 'patch' : 'baseline';
let n = 0;
for (;; n++) { try { fs.writeFileSync(${JSON.stringify(counter)} + '/' + side + '-' + n, '', { flag: 'wx', mode: 0o666 }); break; } catch (e) { if (e.code !== 'EEXIST') throw e; } }
test('drifts', () => assert.ok(side === 'baseline' || n >= 2));
test('wobbles', () => assert.ok(side === 'patch' || n >= 1));
test('stable', () => assert.equal(1, 1));`);
  const repo = await makeRepo({ 'test/suite.test.js': suite }, { 'PATCH.md': '# notes\n' });
  const run = (await agRun(repo, NODE1)).run!;
  const claim = run.claims[0]!;
  t.deepEqual([claim.status, claim.class], ['UNVERIFIED', 'flaky']);
  t.deepEqual(
    claim.reruns?.filter((e) => e.side === 'patch').map((e) => `${e.round} ${e.outcome}`),
    ['2 FAIL', '3 PASS', '4 PASS'],
    'the rerun failed again; the two confirmations passed',
  );
  t.false(run.full_suite.collateral_regression);
  t.deepEqual(run.test_deltas?.tests_pass_to_fail, []);
  t.deepEqual(
    run.tests_flaky?.map((f) => f.id),
    ['drifts', 'wobbles'],
  );
});

test('honest control: a deterministic regression with one round is run again on both sides and stays a regression', async (t) => {
  const repo = await makeRepo(calcProject, { 'calc.js': 'exports.add = (a, b) => a - b;\n' });
  const run = (await agRun(repo, NODE1)).run!;
  t.deepEqual([run.claims[0]!.status, run.claims[0]!.class], ['REFUTED', 'regression']);
  t.deepEqual(
    run.claims[0]!.reruns?.map((e) => `${e.side} ${e.round} ${e.outcome}`),
    ['baseline 2 PASS', 'patch 2 FAIL'],
  );
  t.deepEqual(
    run.full_suite.reruns?.map((e) => `${e.side} ${e.round}`),
    ['baseline 2', 'patch 2'],
  );
  t.true(run.full_suite.collateral_regression);
  t.deepEqual(run.test_deltas?.tests_pass_to_fail, ['adds']);
  t.deepEqual(run.tests_flaky, []);
});

test('a red baseline with the same failure on the patch and no new one: UNVERIFIED still_failing, no regression', async (t) => {
  const red = { ...calcProject, 'test/red.test.js': nodeTest(`test('red', () => assert.equal(1, 2));`) };
  const repo = await makeRepo(red, { 'README.md': 'docs\n' });
  const run = (await agRun(repo, NODE1)).run!;
  t.deepEqual([run.claims[0]!.status, run.claims[0]!.class], ['UNVERIFIED', 'still_failing']);
  t.true(run.full_suite.baseline_red);
  t.false(run.full_suite.collateral_regression);
  t.deepEqual(run.test_deltas?.tests_pass_to_fail, []);
  // the next cheat of the kind: a new breakage beside the old failure is a regression
  const worse = await makeRepo(red, { 'calc.js': 'exports.add = (a, b) => a - b;\n' });
  const w = (await agRun(worse, NODE1)).run!;
  t.deepEqual([w.claims[0]!.status, w.claims[0]!.class], ['REFUTED', 'regression']);
  t.deepEqual(w.test_deltas?.tests_pass_to_fail, ['adds']);
});

test('a test renamed in its file is a rename pair; a describe block renamed too; neither is lost', async (t) => {
  const repo = await makeRepo(calcProject, {
    'test/calc.test.js': nodeTest(
      `const { add } = require('../calc.js');\ntest('adds two numbers', () => assert.equal(add(1, 2), 3));\ntest('adds zero', () => assert.equal(add(0, 0), 0));`,
    ),
  });
  const run = (await agRun(repo, NODE1)).run!;
  t.deepEqual(run.test_deltas?.tests_lost, []);
  t.deepEqual(run.test_deltas?.tests_renamed, [{ from: 'adds', to: 'adds two numbers', file: 'test/calc.test.js' }]);
  const grouped = (name: string) => ({
    'calc.js': calcProject['calc.js'],
    'test/calc.test.js': nodeTest(
      `const { add } = require('../calc.js');\ntest.describe('${name}', () => { test.it('adds', () => assert.equal(add(1, 2), 3)); });`,
    ),
  });
  const d = await makeRepo(grouped('ParseError'), grouped('PathError'));
  const dr = (await agRun(d, NODE1)).run!;
  t.deepEqual(dr.test_deltas?.tests_lost, []);
  // node reports the suite as an entry of its own: it is renamed too
  t.deepEqual(
    dr.test_deltas?.tests_renamed?.map((r) => [r.from, r.to]),
    [
      ['ParseError', 'PathError'],
      ['ParseError > adds', 'PathError > adds'],
    ],
  );
});

test('the next cheat of the kind: a biting test deleted and a stand-in added in another file is lost; in the same file it is a rename pair', async (t) => {
  const only = nodeTest(`const { add } = require('../calc.js');\ntest('adds zero', () => assert.equal(add(0, 0), 0));`);
  const elsewhere = await makeRepo(calcProject, {
    'test/calc.test.js': only,
    'test/extra.test.js': nodeTest(`test('stand-in', () => assert.ok(true));`),
  });
  const e = (await agRun(elsewhere, NODE1)).run!;
  t.deepEqual(e.test_deltas?.tests_lost, ['adds']);
  t.deepEqual(e.test_deltas?.tests_renamed, []);
  const same = await makeRepo(calcProject, {
    'test/calc.test.js': `${only}test('stand-in', () => assert.ok(true));\n`,
  });
  const s = (await agRun(same, NODE1)).run!;
  t.deepEqual(s.test_deltas?.tests_lost, []);
  t.deepEqual(
    s.test_deltas?.tests_renamed?.map((r) => [r.from, r.to]),
    [['adds', 'stand-in']],
  );
});

test('a test file that fails to load on the patch: its tests are not collected, not lost', async (t) => {
  const repo = await makeRepo(calcProject, { 'calc.js': 'throw new Error("broken at load");\n' });
  const run = (await agRun(repo, NODE1)).run!;
  t.is(run.full_suite.patch?.kind, 'file_crashed');
  t.deepEqual(run.test_deltas?.tests_lost, []);
  t.deepEqual(run.test_deltas?.tests_not_collected, ['adds', 'adds zero']);
  t.deepEqual(run.test_deltas?.tests_renamed, []);
});

test("node's JUnit reporter: a helper module in test/ gets the same id on both sides (the copy's root stripped)", async (t) => {
  const files = { ...calcProject, 'test/helper.js': 'module.exports = { two: 2 };\n' };
  const repo = await makeRepo(files, { 'README.md': 'docs\n' });
  const junit = [
    '--test-command',
    'node --test --test-reporter=junit --test-reporter-destination=report.xml test/',
    '--junit',
    'report.xml',
    '--rounds',
    '1',
    '--jobs',
    '2',
    '--timeout',
    '30',
  ];
  const run = (await agRun(repo, junit)).run!;
  t.is(run.full_suite.patch?.report, 'junit');
  const ids = run.full_suite.patch!.tests!.map((x) => x.id);
  t.true(
    ids.some((id) => id.endsWith('test/helper.js')),
    JSON.stringify(ids),
  );
  t.false(
    ids.some((id) => id.includes(path.sep + 'tmp' + path.sep) || id.includes('/tree/')),
    JSON.stringify(ids),
  );
  t.deepEqual(run.test_deltas?.tests_lost, []);
  t.deepEqual([run.claims[0]!.status, run.claims[0]!.class], ['VERIFIED', 'still_passing']);
});

test('a clean baseline and a patch that hangs in every round: REFUTED hang', async (t) => {
  const repo = await makeRepo(calcProject, { 'calc.js': 'exports.add = (a, b) => { for (;;) {} };\n' });
  // The baseline must pass within half the limit, so the limit leaves room for a loaded machine
  // (a tiny node:test run took over 6 s at load average 30).
  const run = (
    await agRun(repo, ['--test-command', 'node --test test/', '--rounds', '1', '--jobs', '2', '--timeout', '40'])
  ).run!;
  const claim = run.claims[0]!;
  t.is(claim.baseline?.outcome, 'PASS');
  t.true(claim.patch.every((e) => e.outcome === 'TIMED_OUT'));
  t.deepEqual([claim.status, claim.class], ['REFUTED', 'hang']);
});
