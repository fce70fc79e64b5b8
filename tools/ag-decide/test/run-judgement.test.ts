// The real ag-run binary on small node:test repositories, its run.json read through the real
// strict schema and judged by ag-decide's run rules and consistency checks: a README-only patch
// on a flaky suite holds naming the flaky tests (never a REJECT); a renamed test holds as a
// rename pair (never TEST_LOST). Flakiness comes from a counter outside the tree copies.
import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArtefact, type RunArtefact } from '@adversary-gate/schemas';
import { isReject, runReasons } from '../src/index.js';
import { runProblem } from '../src/consistency/run.js';
import { scratch } from './helpers/scratch.js';
import { commitPair } from '../../ag-core/test/support/git-repo.js';

const AG_RUN = fileURLToPath(new URL('../../ag-run/bin/ag-run.js', import.meta.url));
const nodeTest = (body: string) =>
  `const test = require('node:test');\nconst assert = require('node:assert');\n${body}\n`;

function repo(files: Record<string, string>, changes: Record<string, string>) {
  const dir = mkdtempSync(path.join(scratch, 'repo-'));
  const baseline = path.join(dir, 'baseline');
  const patch = path.join(dir, 'patch');
  const pair = commitPair(patch, files, changes, {
    between: () => cpSync(patch, baseline, { recursive: true }),
  });
  const diff = path.join(dir, 'change.diff');
  writeFileSync(diff, pair.diff);
  return { dir, baseline, patch, diff };
}

/** Run the real ag-run (async: the other test's run goes on meanwhile) and read its run.json strictly. */
async function agRun(r: ReturnType<typeof repo>, rounds: number, command = 'node --test test/'): Promise<RunArtefact> {
  const out = path.join(r.dir, 'run.json');
  await promisify(execFile)(process.execPath, [
    AG_RUN,
    '--baseline',
    r.baseline,
    '--patch',
    r.patch,
    '--diff',
    r.diff,
    '--out',
    out,
    '--test-command',
    command,
    '--rounds',
    String(rounds),
    '--jobs',
    '2',
    '--timeout',
    '60',
    '--quiet',
  ]);
  return parseArtefact(out, readFileSync(out)).value as RunArtefact;
}

test('a README-only patch on a suite that fails a different test in every run: HOLD with TEST_FLAKY, no REJECT', async (t) => {
  // Outside the scratch folder (0700): the tests may run as a fresh uid, which must reach it.
  // Open to every execution's uid, inside a folder of the test's own that they cannot write in:
  // the sweep after each execution removes what a uid left where it could have written.
  const holder = mkdtempSync(path.join(os.tmpdir(), 'ag-test-counter-'));
  t.teardown(() => rmSync(holder, { recursive: true, force: true }));
  chmodSync(holder, 0o755);
  const counter = path.join(holder, 'counter');
  mkdirSync(counter);
  chmodSync(counter, 0o777);
  const suite = nodeTest(`const fs = require('node:fs');
let n = 0;
for (;; n++) { try { fs.writeFileSync(${JSON.stringify(counter)} + '/' + n, '', { flag: 'wx', mode: 0o666 }); break; } catch (e) { if (e.code !== 'EEXIST') throw e; } }
for (const k of [0, 1, 2, 3]) test('case ' + k, () => assert.notEqual(n % 4, k));`);
  const run = await agRun(repo({ 'test/flaky.test.js': suite }, { 'README.md': '# docs\n' }), 3);
  t.is(runProblem(run), null);
  const reasons = runReasons(run);
  const codes = [...new Set(reasons.map((r) => r.code))].sort();
  t.false(
    reasons.some((r) => isReject(r.code)),
    JSON.stringify(reasons),
  );
  t.true(codes.includes('TEST_FLAKY'), JSON.stringify(reasons));
  t.regex(reasons.find((r) => r.code === 'TEST_FLAKY')!.message, /case [0-3] \(baseline .*patch /);
});

test('a test red in every run on both sides (odd file and title) is failing, not flaky: HOLD with BASELINE_RED naming it, no TEST_FLAKY, no REJECT', async (t) => {
  // pytest's ids carry their file (node:test's do not): the file rule applies to them.
  const file = 'tests/dir ü/test_red %2F*.py';
  const suite =
    "import pytest\n\n\n@pytest.mark.parametrize('case', ['100% / every * time ✓ 日本'])\ndef test_red(case):\n    assert case == 'never'\n\n\ndef test_steady():\n    assert True\n";
  const run = await agRun(
    repo({ [file]: suite }, { 'README.md': '# docs\n' }),
    2,
    '/usr/bin/python3 -m pytest -q -p no:cacheprovider',
  );
  t.is(runProblem(run), null);
  const red = run.full_suite.baseline!.tests!.find((x) => x.id.includes('::test_red['));
  t.truthy(red, JSON.stringify(run.full_suite.baseline?.tests));
  t.true(red!.id.startsWith(`${file}::test_red[100% / every * time `), red!.id);
  // Every run the rule counted: the baseline's (its rerun too) and the patch's, red in each.
  const counted = [
    run.full_suite.baseline!,
    ...run.claims.flatMap((c) => [...c.patch, ...(c.reruns ?? [])]),
    ...(run.full_suite.reruns ?? []),
  ].filter((e) => e.tests?.some((x) => x.id === red!.id));
  const rounds = (side: string) => new Set(counted.filter((e) => e.side === side).map((e) => e.round)).size;
  t.true(rounds('baseline') >= 2, 'a command failing on the patch runs again on the baseline');
  t.true(rounds('patch') >= 2);
  for (const e of counted) t.is(e.tests!.find((x) => x.id === red!.id)!.outcome, 'failed');
  t.deepEqual(run.tests_flaky, [], 'nothing flaky: a test that fails every time is failing');
  t.is(run.claims[0]!.class, 'still_failing');
  const reasons = runReasons(run);
  t.deepEqual([...new Set(reasons.map((r) => r.code))], ['BASELINE_RED'], JSON.stringify(reasons));
  t.true(
    reasons.some(
      (r) =>
        r.message ===
        `the full suite is FAIL on the baseline (${run.full_suite.baseline!.kind}); red in every run on both sides, failing before the patch (not flaky): ${red!.id}`,
    ),
    JSON.stringify(reasons),
  );
});

test('a test renamed in its file: HOLD with TEST_RENAMED naming both ids, no TEST_LOST', async (t) => {
  const calc = 'exports.add = (a, b) => a + b;\n';
  const before = nodeTest(`const { add } = require('../calc.js');\ntest('adds', () => assert.equal(add(1, 2), 3));`);
  const after = nodeTest(
    `const { add } = require('../calc.js');\ntest('adds two numbers', () => assert.equal(add(1, 2), 3));`,
  );
  const run = await agRun(repo({ 'calc.js': calc, 'test/calc.test.js': before }, { 'test/calc.test.js': after }), 1);
  t.is(runProblem(run), null);
  const reasons = runReasons(run);
  t.deepEqual(
    reasons.map((r) => r.code),
    ['TEST_RENAMED'],
  );
  t.regex(reasons[0]!.message, /adds → adds two numbers/);
});

test('a test renamed and its expectation inverted with the fix (a real upstream pattern): HOLD naming the rename as one whose expectation changed', async (t) => {
  const before = nodeTest(
    `const { fresh } = require('../fresh.js');\ntest('rejects a weak etag', () => assert.equal(fresh('W/"a"'), false));\ntest('accepts a strong etag', () => assert.equal(fresh('"a"'), true));`,
  );
  const after = nodeTest(
    `const { fresh } = require('../fresh.js');\ntest('accepts a weak etag', () => assert.equal(fresh('W/"a"'), true));\ntest('accepts a strong etag', () => assert.equal(fresh('"a"'), true));`,
  );
  const run = await agRun(
    repo(
      { 'fresh.js': "exports.fresh = (tag) => !tag.startsWith('W/');\n", 'test/fresh.test.js': before },
      { 'fresh.js': 'exports.fresh = (tag) => tag.length > 0;\n', 'test/fresh.test.js': after },
    ),
    1,
  );
  t.is(runProblem(run), null);
  const reasons = runReasons(run);
  t.false(
    reasons.some((r) => isReject(r.code)),
    JSON.stringify(reasons),
  );
  t.deepEqual(reasons.map((r) => r.code).sort(), ['TEST_RENAMED', 'TRUSTED_TEST_FAILED']);
  t.regex(
    reasons.find((r) => r.code === 'TEST_RENAMED')!.message,
    /rejects a weak etag → .*accepts a weak etag \(renamed with its expectation changed/,
  );
});

test("the peer's case: sub broken and its expected value edited to match (== 2 → == 8): HOLD with TRUSTED_TEST_FAILED, never ACCEPT", async (t) => {
  const tests = (expected: number) =>
    nodeTest(`const { sub } = require('../calc.js');\ntest('subtracts', () => assert.equal(sub(5, 3), ${expected}));`);
  const run = await agRun(
    repo(
      { 'calc.js': 'exports.sub = (a, b) => a - b;\n', 'test/calc.test.js': tests(2) },
      { 'calc.js': 'exports.sub = (a, b) => a + b;\n', 'test/calc.test.js': tests(8) },
    ),
    1,
  );
  t.is(runProblem(run), null);
  const reasons = runReasons(run);
  t.deepEqual(
    reasons.map((r) => r.code),
    ['TRUSTED_TEST_FAILED'],
  );
  t.regex(reasons[0]!.message, /subtracts \(failed\)/);
});
