/**
 * End to end on pytest projects (Debian's /usr/bin/python3 with python3-pytest).
 */
import test from 'ava';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { agRun, makeRepo, removeTemporaries } from './helpers/repo.js';

test.after.always(removeTemporaries);

const PY = '/usr/bin/python3 -m pytest -q -p no:cacheprovider';
const ARGS = ['--test-command', PY, '--rounds', '1', '--jobs', '2', '--timeout', '60'];

const project = {
  'calc.py': 'def add(a, b):\n    return a + b\n',
  'tests/__init__.py': '',
  'tests/test_calc.py':
    'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\nclass TestZero:\n    def test_zero(self):\n        assert add(0, 0) == 0\n',
};

test('pytest: per-test identity as node ids from the JUnit report ag-run asks pytest for', async (t) => {
  const repo = await makeRepo(project, { 'calc.py': 'def add(a, b):\n    return b + a\n' });
  const r = await agRun(repo, ARGS);
  t.is(r.status, 0, r.stderr);
  const run = r.run!;
  t.deepEqual(
    run.claims.map((c) => [c.status, c.class]),
    [['VERIFIED', 'still_passing']],
  );
  t.deepEqual(run.full_suite.patch?.tests, [
    { id: 'tests/test_calc.py::TestZero::test_zero', outcome: 'passed' },
    { id: 'tests/test_calc.py::test_add', outcome: 'passed' },
  ]);
  t.is(run.full_suite.patch?.report, 'junit');
  t.is(run.full_suite.patch?.runner, 'pytest');
});

test('pytest: os._exit(0) in the code under test leaves no report: UNRUNNABLE report_missing, never PASS', async (t) => {
  const repo = await makeRepo(project, { 'calc.py': 'import os\n\n\ndef add(a, b):\n    os._exit(0)\n' });
  const run = (await agRun(repo, ARGS)).run!;
  const round = run.claims[0]!.patch[0]!;
  t.is(round.exit_code, 0);
  t.is(round.outcome, 'UNRUNNABLE');
  t.is(round.kind, 'report_missing');
  t.is(run.claims[0]!.status, 'UNVERIFIED');
  t.is(run.test_deltas, null);
});

test('pytest: a declared --junit report that disagrees with the exit code is UNRUNNABLE report_inconsistent', async (t) => {
  const forged =
    '<testsuites><testsuite name="pytest" tests="2" failures="0" errors="0" skipped="0"><testcase classname="tests.test_calc" name="test_add"/><testcase classname="tests.test_calc.TestZero" name="test_zero"/></testsuite></testsuites>';
  const repo = await makeRepo(
    { ...project, 'forged.xml': forged },
    { 'calc.py': 'def add(a, b):\n    return a - b\n' },
  );
  const cmd = `${PY} --junitxml=out/j.xml; s=$?; cp forged.xml out/j.xml; exit $s`;
  const run = (
    await agRun(repo, ['--test-command', cmd, '--junit', 'out/j.xml', '--runner', 'pytest', '--rounds', '1'])
  ).run!;
  t.is(run.full_suite.baseline?.outcome, 'PASS');
  const round = run.claims[0]!.patch[0]!;
  t.is(round.outcome, 'UNRUNNABLE');
  t.is(round.kind, 'report_inconsistent');
});

test('pytest: a declared --junit report that is never written is UNRUNNABLE report_missing', async (t) => {
  const repo = await makeRepo(project, {});
  const run = (await agRun(repo, ['--test-command', PY, '--junit', 'nowhere/j.xml', '--rounds', '1'])).run!;
  t.is(run.claims[0]!.patch[0]!.kind, 'report_missing');
});

test('pytest: a test newly skipped with a marker is listed; xfail too', async (t) => {
  const repo = await makeRepo(project, {
    'tests/test_calc.py':
      'import pytest\nfrom calc import add\n\n\n@pytest.mark.skip(reason="later")\ndef test_add():\n    assert add(1, 2) == 3\n\n\nclass TestZero:\n    @pytest.mark.xfail\n    def test_zero(self):\n        assert add(0, 0) == 1\n',
  });
  const run = (await agRun(repo, ARGS)).run!;
  t.deepEqual(run.test_deltas?.tests_newly_skipped, [
    'tests/test_calc.py::TestZero::test_zero',
    'tests/test_calc.py::test_add',
  ]);
});

test('pytest: a collection error on the patch is UNRUNNABLE collection_error (exit 2), its tests not collected rather than lost', async (t) => {
  const repo = await makeRepo(project, { 'calc.py': 'def add(a, b)\n    return a + b\n' });
  const run = (await agRun(repo, ARGS)).run!;
  const round = run.claims[0]!.patch[0]!;
  t.is(round.outcome, 'UNRUNNABLE');
  t.is(round.kind, 'collection_error');
  t.is(round.exit_code, 2);
  t.deepEqual(round.tests, [{ id: 'tests/test_calc.py', outcome: 'error' }]);
  t.deepEqual(run.test_deltas?.tests_lost, []);
  t.deepEqual(run.test_deltas?.tests_not_collected, [
    'tests/test_calc.py::TestZero::test_zero',
    'tests/test_calc.py::test_add',
  ]);
});

test('acceptance criteria: each judged on its own line from the per-test outcomes', async (t) => {
  const broken = { ...project, 'calc.py': 'def add(a, b):\n    return a * b\n' };
  const repo = await makeRepo(broken, {
    'calc.py': 'def add(a, b):\n    return a + b\n',
    'tests/test_new.py': 'from calc import add\n\n\ndef test_negative():\n    assert add(-1, -1) == -2\n',
  });
  const claims = path.join(repo.dir, 'claims.json');
  await fs.writeFile(
    claims,
    JSON.stringify({
      criteria: [
        { id: 'AC-1', text: 'adds', kind: 'fix', tests: ['tests/test_calc.py::test_add'] },
        { id: 'AC-2', text: 'negatives', kind: 'new', tests: ['tests/test_new.py::test_negative'] },
        { id: 'AC-3', text: 'zero stays', kind: 'keep', tests: ['tests/test_calc.py::TestZero::test_zero'] },
        { id: 'AC-4', text: 'no test named', kind: 'fix', tests: [] },
        { id: 'AC-5', text: 'zero "fixed"', kind: 'fix', tests: ['tests/test_calc.py::TestZero::test_zero'] },
      ],
    }),
  );
  const run = (await agRun(repo, [...ARGS, '--claims', claims])).run!;
  t.deepEqual(
    run.criteria.map((c) => [c.id, c.proven]),
    [
      ['AC-1', true],
      ['AC-2', true],
      ['AC-3', true],
      ['AC-4', false],
      ['AC-5', false],
    ],
    JSON.stringify(run.criteria, null, 1),
  );
  t.true(run.inputs.some((i) => i.role === 'claims'));
});
