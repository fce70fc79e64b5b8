import test from 'ava';
import type { ProcessResult } from '@adversary-gate/core';
import { judge, type ReportRead } from '../src/judge.js';
import { parseTap } from '../src/reports/tap.js';
import { parseJunit } from '../src/reports/junit.js';

const proc = (over: Partial<ProcessResult>): ProcessResult => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  outputCapHit: false,
  spawnError: null,
  stdoutTail: '',
  stderrTail: '',
  stdoutBytes: 0,
  stderrBytes: 0,
  truncated: false,
  leftoverProcesses: 0,
  durationMs: 1,
  ...over,
});
const none: ReportRead = { source: 'none' };
const tapOf = (text: string): ReportRead => ({ source: 'tap', tap: parseTap(text, '/r') });
const junitOf = (xml: string): ReportRead => ({ source: 'junit', junit: parseJunit(xml) });
const brief = (j: ReturnType<typeof judge>) => [j.outcome, j.kind];

test('generic: 0 is PASS, 1 is FAIL, any other code is UNRUNNABLE', (t) => {
  t.deepEqual(brief(judge('generic', proc({ exitCode: 0 }), false, none)), ['PASS', 'passed']);
  t.deepEqual(brief(judge('generic', proc({ exitCode: 1 }), false, none)), ['FAIL', 'failed']);
  t.deepEqual(brief(judge('generic', proc({ exitCode: 7 }), false, none)), ['UNRUNNABLE', 'exit_code']);
  t.deepEqual(brief(judge('generic', proc({ exitCode: 127 }), false, none)), ['UNRUNNABLE', 'command_not_found']);
});

test('timeout, signal and resource deaths are their own kinds, never an exit code', (t) => {
  t.deepEqual(brief(judge('generic', proc({ exitCode: null, signal: 'SIGKILL', timedOut: true }), false, none)), [
    'TIMED_OUT',
    'timeout',
  ]);
  t.deepEqual(brief(judge('generic', proc({ exitCode: null, signal: 'SIGHUP' }), false, none)), [
    'UNRUNNABLE',
    'signal',
  ]);
  t.deepEqual(brief(judge('generic', proc({ exitCode: 152 }), false, none)), ['UNRUNNABLE', 'rlimit_cpu']);
  t.deepEqual(brief(judge('generic', proc({ exitCode: null, signal: 'SIGXFSZ' }), false, none)), [
    'UNRUNNABLE',
    'rlimit_fsize',
  ]);
  t.deepEqual(brief(judge('generic', proc({ exitCode: 137 }), false, none)), ['UNRUNNABLE', 'killed']);
  t.deepEqual(brief(judge('generic', proc({ exitCode: null, outputCapHit: true, signal: 'SIGKILL' }), false, none)), [
    'UNRUNNABLE',
    'output_cap',
  ]);
  t.deepEqual(brief(judge('generic', proc({ exitCode: null, spawnError: 'ENOENT: x' }), false, none)), [
    'UNRUNNABLE',
    'spawn_error',
  ]);
});

test('sandboxed: no exit-code line on the status fd means the sandbox never reached the command', (t) => {
  t.deepEqual(brief(judge('generic', proc({ exitCode: 1, statusText: '{ "child-pid": 3 }\n' }), true, none)), [
    'UNRUNNABLE',
    'sandbox_setup',
  ]);
  t.deepEqual(
    brief(judge('generic', proc({ exitCode: 1, statusText: '{ "child-pid": 3 }\n{ "exit-code": 1 }\n' }), true, none)),
    ['FAIL', 'failed'],
  );
});

test('pytest: 2, 3, 4 and 5 are harness outcomes, and a missing summary is never a pass', (t) => {
  const ok = proc({ exitCode: 0, stdoutTail: '..\n2 passed in 0.01s\n' });
  t.deepEqual(brief(judge('pytest', ok, false, none)), ['PASS', 'passed']);
  t.deepEqual(brief(judge('pytest', proc({ exitCode: 2 }), false, none)), ['UNRUNNABLE', 'interrupted']);
  t.deepEqual(brief(judge('pytest', proc({ exitCode: 3 }), false, none)), ['UNRUNNABLE', 'internal_error']);
  t.deepEqual(brief(judge('pytest', proc({ exitCode: 4 }), false, none)), ['UNRUNNABLE', 'usage_error']);
  t.deepEqual(brief(judge('pytest', proc({ exitCode: 5, stdoutTail: 'no tests ran in 0.01s' }), false, none)), [
    'UNRUNNABLE',
    'no_tests',
  ]);
  t.deepEqual(brief(judge('pytest', proc({ exitCode: 0, stdoutTail: '.' }), false, none)), [
    'UNRUNNABLE',
    'summary_missing',
  ]);
});

test('pytest with a report: missing, unreadable and disagreeing reports are UNRUNNABLE', (t) => {
  const ok = proc({ exitCode: 0, stdoutTail: '1 passed in 0.01s\n' });
  t.deepEqual(brief(judge('pytest', ok, false, { source: 'junit', problem: 'missing', detail: 'x' })), [
    'UNRUNNABLE',
    'report_missing',
  ]);
  t.deepEqual(brief(judge('pytest', ok, false, { source: 'junit', problem: 'invalid', detail: 'x' })), [
    'UNRUNNABLE',
    'report_invalid',
  ]);
  const fails = junitOf(
    '<testsuite tests="1" failures="1"><testcase classname="a" name="b"><failure/></testcase></testsuite>',
  );
  t.deepEqual(brief(judge('pytest', ok, false, fails)), ['UNRUNNABLE', 'report_inconsistent']);
  const lying = junitOf('<testsuite tests="3" failures="0"><testcase classname="a" name="b"/></testsuite>');
  t.deepEqual(brief(judge('pytest', ok, false, lying)), ['UNRUNNABLE', 'report_inconsistent']);
  const agrees = junitOf('<testsuite tests="1" failures="0"><testcase classname="a" name="b"/></testsuite>');
  const j = judge('pytest', ok, false, agrees);
  t.deepEqual(brief(j), ['PASS', 'passed']);
  t.deepEqual(j.tests, [{ id: 'a::b', outcome: 'passed' }]);
});

test('node: the TAP summary must agree with the exit code', (t) => {
  const green = tapOf('ok 1 - a\n1..1\n# tests 1\n# pass 1\n# fail 0\n');
  const red = tapOf('not ok 1 - a\n1..1\n# tests 1\n# pass 0\n# fail 1\n');
  t.deepEqual(brief(judge('node', proc({ exitCode: 0 }), false, green)), ['PASS', 'passed']);
  t.deepEqual(brief(judge('node', proc({ exitCode: 1 }), false, red)), ['FAIL', 'failed']);
  t.deepEqual(brief(judge('node', proc({ exitCode: 0 }), false, red)), ['UNRUNNABLE', 'report_inconsistent']);
  t.deepEqual(brief(judge('node', proc({ exitCode: 1 }), false, green)), ['UNRUNNABLE', 'report_inconsistent']);
  t.deepEqual(brief(judge('node', proc({ exitCode: 0 }), false, tapOf('ok 1 - a\n'))), [
    'UNRUNNABLE',
    'report_missing',
  ]);
  t.deepEqual(brief(judge('node', proc({ exitCode: 0 }), false, tapOf('1..0\n# tests 0\n# pass 0\n# fail 0\n'))), [
    'UNRUNNABLE',
    'no_tests',
  ]);
});

test('node: a test file that reports no test of its own ended early (exit 0) or crashed (exit 1)', (t) => {
  const early = tapOf('# Subtest: /r/test/a.test.js\nok 1 - /r/test/a.test.js\n1..1\n# tests 1\n# pass 1\n# fail 0\n');
  t.deepEqual(brief(judge('node', proc({ exitCode: 0 }), false, early)), ['UNRUNNABLE', 'file_ended_early']);
  const crashed = tapOf(
    '# Subtest: /r/test/a.test.js\nnot ok 1 - /r/test/a.test.js\n1..1\n# tests 1\n# pass 0\n# fail 1\n',
  );
  t.deepEqual(brief(judge('node', proc({ exitCode: 1 }), false, crashed)), ['UNRUNNABLE', 'file_crashed']);
});

test('"0 tests executed" is UNRUNNABLE whatever the exit code', (t) => {
  t.deepEqual(
    brief(judge('jest', proc({ exitCode: 1, stderrTail: 'No tests found, exiting with code 1' }), false, none)),
    ['UNRUNNABLE', 'no_tests'],
  );
  t.deepEqual(
    brief(judge('vitest', proc({ exitCode: 0, stdoutTail: 'No test files found, exiting with code 0' }), false, none)),
    ['UNRUNNABLE', 'no_tests'],
  );
  t.deepEqual(
    brief(judge('ava', proc({ exitCode: 1, stderrTail: '✘ Couldn’t find any files to test' }), false, none)),
    ['UNRUNNABLE', 'no_tests'],
  );
  t.deepEqual(brief(judge('generic', proc({ exitCode: 0 }), false, junitOf('<testsuite tests="0"></testsuite>'))), [
    'UNRUNNABLE',
    'no_tests',
  ]);
});

test('jest, vitest, mocha, ava: exit 1 is FAIL only when their summary counts failures', (t) => {
  t.deepEqual(
    brief(judge('jest', proc({ exitCode: 1, stderrTail: 'Tests:       1 failed, 2 passed, 3 total' }), false, none)),
    ['FAIL', 'failed'],
  );
  t.deepEqual(brief(judge('jest', proc({ exitCode: 1, stderrTail: 'Error: Cannot find module' }), false, none)), [
    'UNRUNNABLE',
    'summary_missing',
  ]);
  t.deepEqual(brief(judge('vitest', proc({ exitCode: 0, stdoutTail: '      Tests  3 passed (3)' }), false, none)), [
    'PASS',
    'passed',
  ]);
  t.deepEqual(
    brief(judge('mocha', proc({ exitCode: 2, stdoutTail: '  1 passing (3ms)\n  2 failing\n' }), false, none)),
    ['FAIL', 'failed'],
  );
  t.deepEqual(
    brief(judge('mocha', proc({ exitCode: 3, stdoutTail: '  1 passing (3ms)\n  2 failing\n' }), false, none)),
    ['UNRUNNABLE', 'failures_exit_code'],
  );
  t.deepEqual(
    brief(judge('mocha', proc({ exitCode: 1, stdoutTail: '  1 passing (3ms)\n  1 failing\n' }), false, none)),
    ['FAIL', 'failed'],
  );
  t.deepEqual(brief(judge('ava', proc({ exitCode: 0, stdoutTail: '  2 tests passed\n' }), false, none)), [
    'PASS',
    'passed',
  ]);
  t.deepEqual(
    brief(judge('ava', proc({ exitCode: 0, stdoutTail: '  1 test failed\n  1 test passed\n' }), false, none)),
    ['UNRUNNABLE', 'report_inconsistent'],
  );
});

test('mocha with a file reporter (no summary printed): exit N is a test failure when its report counts N failures', (t) => {
  const xml = (failed: number) =>
    `<testsuite name="Mocha Tests" tests="3" failures="${failed}" errors="0" skipped="0">${[0, 1, 2]
      .map(
        (i) =>
          `<testcase classname="calc" name="case ${i}" file="/r/test/calc.js">${i < failed ? '<failure message="x"/>' : ''}</testcase>`,
      )
      .join('')}</testsuite>`;
  t.deepEqual(brief(judge('mocha', proc({ exitCode: 2 }), false, junitOf(xml(2)))), ['FAIL', 'failed']);
  t.deepEqual(
    brief(judge('mocha', proc({ exitCode: 3 }), false, junitOf(xml(2)))),
    ['UNRUNNABLE', 'failures_exit_code'],
    'exit 3 with 2 failures in the report is not a failure count',
  );
});

test('mocha: exit 127 is the shell not finding the command, never a failure count', (t) => {
  t.deepEqual(brief(judge('mocha', proc({ exitCode: 127, stderrTail: 'sh: 1: mocha: not found\n' }), false, none)), [
    'UNRUNNABLE',
    'command_not_found',
  ]);
  t.deepEqual(brief(judge('mocha', proc({ exitCode: 126 }), false, none)), ['UNRUNNABLE', 'not_executable']);
  t.deepEqual(
    brief(judge('mocha', proc({ exitCode: 3, stdoutTail: '  2 passing (5ms)\n  3 failing\n' }), false, none)),
    ['FAIL', 'failed'],
    'control: exit 3 with 3 failing is mocha counting its failures',
  );
});

// pytest 9's report of a test module that fails to import (captured from a real run).
const COLLECTION_ERROR = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="1" failures="0" skipped="0" tests="1" time="0.338" hostname="vm"><testcase classname="" name="tests.test_calc" time="0.000"><error message="collection failure">ImportError while importing test module</error></testcase></testsuite></testsuites>`;

test('pytest: a test module that failed to import is a collection_error, named by its file', async (t) => {
  const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const { pytestIdResolver } = await import('../src/reports/pytest-ids.js');
  const root = await mkdtemp(path.join(tmpdir(), 'agrun-collect-'));
  try {
    await mkdir(path.join(root, 'tests'));
    await writeFile(path.join(root, 'tests/test_calc.py'), 'import nothere\n');
    const read: ReportRead = { source: 'junit', junit: parseJunit(COLLECTION_ERROR, pytestIdResolver(root)) };
    const j = judge('pytest', proc({ exitCode: 2, stdoutTail: '1 error in 0.3s\n' }), false, read);
    t.deepEqual(brief(j), ['UNRUNNABLE', 'collection_error']);
    t.deepEqual(j.tests, [{ id: 'tests/test_calc.py', outcome: 'error' }]);
    t.regex(j.detail, /tests\/test_calc\.py/);
    t.deepEqual(
      brief(
        judge('pytest', proc({ exitCode: 2, stdoutTail: '1 passed, 1 error\n' }), false, {
          source: 'junit',
          junit: parseJunit(
            '<testsuite tests="1"><testcase classname="tests.test_calc" name="test_a"/></testsuite>',
            pytestIdResolver(root),
          ),
        }),
      ),
      ['UNRUNNABLE', 'interrupted'],
      'control: exit 2 without a collection error stays interrupted',
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('vitest: a title a suite repeats is one test that counts as often as it ran, as the summary counts it', (t) => {
  const xml = (second: string) =>
    `<testsuites tests="3" failures="${second === '' ? 0 : 1}"><testsuite name="a.test.js" tests="3" failures="${second === '' ? 0 : 1}">` +
    `<testcase classname="a.test.js" name="s &gt; same"/><testcase classname="a.test.js" name="s &gt; same">${second}</testcase>` +
    `<testcase classname="a.test.js" name="s &gt; other"/></testsuite></testsuites>`;
  const passed = judge(
    'vitest',
    proc({ exitCode: 0, stdoutTail: '      Tests  3 passed (3)' }),
    false,
    junitOf(xml('')),
  );
  t.deepEqual(brief(passed), ['PASS', 'passed']);
  t.deepEqual(
    passed.tests?.map((x) => x.id),
    ['a.test.js::s > other', 'a.test.js::s > same'],
  );
  // One of the two runs failing is the test failing (the worst outcome of its runs).
  const failed = judge(
    'vitest',
    proc({ exitCode: 1, stdoutTail: '      Tests  1 failed | 2 passed (3)' }),
    false,
    junitOf(xml('<failure message="x"/>')),
  );
  t.deepEqual(brief(failed), ['FAIL', 'failed'], failed.detail);
  t.is(failed.tests?.find((x) => x.id === 'a.test.js::s > same')?.outcome, 'failed');
  // A report with fewer runs than the summary counts still disagrees.
  const short = judge(
    'vitest',
    proc({ exitCode: 0, stdoutTail: '      Tests  4 passed (4)' }),
    false,
    junitOf(xml('')),
  );
  t.deepEqual(brief(short), ['UNRUNNABLE', 'report_inconsistent']);
});
