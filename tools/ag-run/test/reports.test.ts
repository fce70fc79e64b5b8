/** src/reports: TAP, JUnit, pytest node ids, test lists. */
import test from 'ava';
import os from 'node:os';
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { countTests, mergeTests } from '../src/reports/test-list.js';
import { parseJunit } from '../src/reports/junit.js';
import { parseTap } from '../src/reports/tap.js';
import { pytestIdResolver } from '../src/reports/pytest-ids.js';

const ROOT = '/tmp/ag-run-x/patch-1-1/tree';
const tap = (body: string) => `TAP version 13\n${body}`;

const nested = tap(`# Subtest: one
ok 1 - one
  ---
  duration_ms: 1
  ...
# Subtest: grp
    # Subtest: inner
    ok 1 - inner
    # Subtest: sk
    ok 2 - sk # SKIP
    1..2
ok 2 - grp
# Subtest: later
not ok 3 - later # TODO
1..3
# tests 5
# suites 0
# pass 3
# fail 0
# cancelled 0
# skipped 1
# todo 1
`);

test('TAP: every test gets its full name path as id, with skip and todo told apart', (t) => {
  const r = parseTap(nested, ROOT);
  t.deepEqual(r.tests, [
    { id: 'one', outcome: 'passed' },
    { id: 'grp > inner', outcome: 'passed' },
    { id: 'grp > sk', outcome: 'skipped' },
    { id: 'grp', outcome: 'passed' },
    { id: 'later', outcome: 'todo' },
  ]);
  t.deepEqual(r.summary, { total: 5, passed: 3, failed: 0, cancelled: 0, skipped: 2 });
  t.deepEqual(r.filesWithoutTests, []);
});

test('TAP: a file reported as one test without subtests is flagged, its path made relative', (t) => {
  const r = parseTap(
    tap(`# Subtest: ${ROOT}/test/b.test.js\nok 1 - ${ROOT}/test/b.test.js\n1..1\n# tests 1\n# pass 1\n# fail 0\n`),
    ROOT,
  );
  t.deepEqual(r.tests, [{ id: 'test/b.test.js', outcome: 'passed' }]);
  t.deepEqual(r.filesWithoutTests, ['test/b.test.js']);
});

test('TAP: summary lines a test printed (escaped by node as comments) are not the summary', (t) => {
  const r = parseTap(
    tap(
      '# ok 99 - fake\n# \\# tests 100\n# \\# pass 100\n# \\# fail 0\nnot ok 1 - real\n1..1\n# tests 1\n# pass 0\n# fail 1\n',
    ),
    ROOT,
  );
  t.deepEqual(r.summary, { total: 1, passed: 0, failed: 1, cancelled: 0, skipped: 0 });
  t.deepEqual(r.tests, [{ id: 'real', outcome: 'failed' }]);
});

test('TAP: a stream without the summary comments has no summary', (t) => {
  t.is(parseTap(tap('ok 1 - a\n1..1\n'), ROOT).summary, null);
});

test('TAP: cancelled tests count as not run and are kept in the summary', (t) => {
  const r = parseTap(tap('not ok 1 - slow\n1..1\n# tests 1\n# pass 0\n# fail 0\n# cancelled 1\n'), ROOT);
  t.deepEqual(r.summary, { total: 1, passed: 0, failed: 0, cancelled: 1, skipped: 1 });
  t.deepEqual(r.tests, [{ id: 'slow', outcome: 'failed' }]);
});

const doc = `<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="1" failures="1" skipped="2" tests="5">
<testcase classname="t.test_a" name="test_ok" time="0.1"/>
<testcase classname="t.test_a" name="test_bad"><failure message="boom">trace</failure></testcase>
<testcase classname="t.test_a" name="test_err"><error message="setup"/></testcase>
<testcase classname="t.test_a" name="test_skip"><skipped type="pytest.skip" message="later"/></testcase>
<testcase classname="t.test_a" name="test_xf"><skipped type="pytest.xfail" message="known"/></testcase>
</testsuite></testsuites>`;

test('JUnit: each test case gets an outcome: passed, failed, error, skipped, xfail', (t) => {
  const r = parseJunit(doc);
  t.deepEqual(
    r.tests.map((x) => [x.id, x.outcome]),
    [
      ['t.test_a::test_ok', 'passed'],
      ['t.test_a::test_bad', 'failed'],
      ['t.test_a::test_err', 'error'],
      ['t.test_a::test_skip', 'skipped'],
      ['t.test_a::test_xf', 'xfail'],
    ],
  );
  t.deepEqual(r.declared, { total: 5, failed: 2, skipped: 2, passed: 1 });
});

test('JUnit: a bare <testsuite> root works and a file attribute wins over the class name', (t) => {
  const r = parseJunit('<testsuite tests="1"><testcase classname="C" name="n" file="test/x.test.js"/></testsuite>');
  t.deepEqual(r.tests, [{ id: 'test/x.test.js::n', outcome: 'passed' }]);
});

test('JUnit: malformed XML and a foreign root are refused', (t) => {
  t.throws(() => parseJunit('<testsuites><testsuite>'));
  t.throws(() => parseJunit('<html></html>'), { message: /root element/ });
  t.throws(() => parseJunit(''));
});

test('JUnit: suites without declared counts leave declared null', (t) => {
  t.is(parseJunit('<testsuites><testsuite><testcase name="a"/></testsuite></testsuites>').declared, null);
});

test('pytest ids: class names become node ids by finding the test file in the tree', async (t) => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-ids-'));
  t.teardown(() => fs.rm(root, { recursive: true, force: true }));
  await fs.mkdir(path.join(root, 'tests'));
  await fs.writeFile(path.join(root, 'tests/test_a.py'), '');
  await fs.writeFile(path.join(root, 'test_top.py'), '');
  const id = pytestIdResolver(root);
  t.is(id({ classname: 'tests.test_a', name: 'test_x', file: null }), 'tests/test_a.py::test_x');
  t.is(id({ classname: 'tests.test_a.TestK', name: 'test_y[1]', file: null }), 'tests/test_a.py::TestK::test_y[1]');
  t.is(id({ classname: 'test_top', name: 'test_z', file: null }), 'test_top.py::test_z');
  t.is(id({ classname: 'gone.mod', name: 'test_q', file: null }), 'gone.mod::test_q');
});

test('test lists: a test reported twice keeps its worst outcome, and the list is sorted', (t) => {
  t.deepEqual(
    mergeTests([
      { id: 'b', outcome: 'passed' },
      { id: 'a', outcome: 'passed' },
      { id: 'b', outcome: 'failed' },
      { id: 'a', outcome: 'skipped' },
    ]),
    [
      { id: 'a', outcome: 'skipped' },
      { id: 'b', outcome: 'failed' },
    ],
  );
});

test('test lists: counts put errors with failures and todo/xfail with skips', (t) => {
  t.deepEqual(
    countTests([
      { id: 'a', outcome: 'passed' },
      { id: 'b', outcome: 'error' },
      { id: 'c', outcome: 'failed' },
      { id: 'd', outcome: 'todo' },
      { id: 'e', outcome: 'xfail' },
    ]),
    { passed: 1, failed: 2, skipped: 2, total: 5 },
  );
});

test('JUnit: a test case that names no test is an unreadable report, not a test with an empty id', (t) => {
  t.throws(() => parseJunit('<testsuite tests="1"><testcase time="0.001"><failure/></testcase></testsuite>'), {
    message: /names no test/,
  });
});
