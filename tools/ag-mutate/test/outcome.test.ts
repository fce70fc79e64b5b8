import test from 'ava';
import type { ProcessResult } from '@adversary-gate/core';
import { classifyRun, isPytest, mochaReportFile, passed, reportListsFailures } from '../src/exec/outcome.js';

function result(over: Partial<ProcessResult>): ProcessResult {
  return {
    exitCode: 1,
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
    durationMs: 10,
    ...over,
  };
}

const status = (r: Partial<ProcessResult>, command = 'npm test') => classifyRun(result(r), command).status;

test('exit 0 survives, exit 1 kills, a timeout is a timeout', (t) => {
  t.is(status({ exitCode: 0 }), 'survived');
  t.is(status({ exitCode: 1 }), 'killed');
  t.is(status({ exitCode: 1 }, 'pytest'), 'killed');
  t.is(status({ exitCode: null, signal: 'SIGKILL', timedOut: true }), 'timeout');
});

test('a run stopped past its CPU budget is a timeout, and never a clean pass', (t) => {
  t.is(status({ exitCode: null, signal: 'SIGTERM', cpuBudgetHit: true, cpuMs: 2500 }), 'timeout');
  // Stopped even as the tests exited 0: the budget decides.
  t.is(status({ exitCode: 0, cpuBudgetHit: true }), 'timeout');
  t.false(passed(result({ exitCode: 0, cpuBudgetHit: true })));
  t.true(passed(result({ exitCode: 0, cpuBudgetHit: false, cpuMs: 100 })));
});

test("mocha's exit N is a kill when its summary counts N failing; another runner's is not", (t) => {
  t.is(status({ exitCode: 7, stdoutTail: '  3 passing (5ms)\n  7 failing\n' }, 'npx mocha'), 'killed');
  t.is(status({ exitCode: 7, stdoutTail: '  3 passing (5ms)\n' }, 'npx mocha'), 'survived');
  t.is(status({ exitCode: 7, stdoutTail: '  7 failing\n' }, 'node --test'), 'survived');
});

/** What mocha's xunit reporter writes for a run where `failed` of three tests failed. */
const xunit = (failed: number) =>
  `<testsuite name="Mocha Tests" tests="3" failures="0" errors="${failed}" skipped="0" timestamp="x" time="0.004">\n` +
  Array.from({ length: 3 }, (_, i) =>
    i < failed
      ? `<testcase classname="s" name="t${i}" time="0"><failure>1 == 2\n  at Context.&#x3C;anonymous&#x3E;</failure></testcase>\n`
      : `<testcase classname="s" name="t${i}" time="0"/>\n`,
  ).join('') +
  '</testsuite>\n';

const GATE_MOCHA = 'npx --no-install mocha test/ --reporter=xunit --reporter-option=output=.ag-junit.xml';

test("mocha's report file is read from the command's output reporter option, never outside the run's folder", (t) => {
  t.is(mochaReportFile(GATE_MOCHA), '.ag-junit.xml');
  t.is(mochaReportFile('mocha --reporter xunit --reporter-option output=out/r.xml'), 'out/r.xml');
  t.is(mochaReportFile('mocha -R xunit -O suiteName=x,output=./r.xml'), 'r.xml');
  t.is(mochaReportFile('mocha -R xunit --reporter-options "output=a.xml" -O output=b.xml'), 'b.xml');
  t.is(mochaReportFile('node_modules/.bin/mocha -R xunit -O=output=r.xml --require hook.cjs'), 'r.xml');
  t.is(mochaReportFile('mocha -R xunit'), null);
  t.is(mochaReportFile('mocha -R xunit -O output=/tmp/r.xml'), null);
  t.is(mochaReportFile('mocha -R xunit -O output=../r.xml'), null);
  t.is(mochaReportFile('vitest run --reporter-option=output=r.xml'), null);
});

test('a per-test report lists failures only when it is whole', (t) => {
  t.true(reportListsFailures(xunit(2)));
  t.false(reportListsFailures(xunit(0)));
  t.is(reportListsFailures(''), null);
  t.is(reportListsFailures(xunit(2).slice(0, 200)), null);
  t.true(
    reportListsFailures('<testsuites><testsuite tests="1" failures="1"><testcase name="a"/></testsuite></testsuites>'),
  );
  t.true(reportListsFailures('<testsuite tests="1"><testcase name="a"><error message="x"/></testcase></testsuite>'));
  // What a test printed is no failure element.
  t.false(
    reportListsFailures(
      '<testsuite tests="1" errors="0"><testcase name="a"><system-out><![CDATA[<failure>]]></system-out></testcase></testsuite>',
    ),
  );
});

test("mocha's exit N with no summary is a kill when the run's per-test report lists failures, else a survivor as before", (t) => {
  const classify = (r: Partial<ProcessResult>, report: string | null, command = GATE_MOCHA) =>
    classifyRun(result(r), command, () => report);
  // The gate's wiring: mocha's xunit reporter writes to a file and prints no "N failing".
  t.deepEqual(classify({ exitCode: 2 }, xunit(2)), { status: 'killed', ended: null, unjudged: false });
  t.is(classify({ exitCode: 3 }, xunit(3)).status, 'killed');
  // More failures than an exit code below the signal range carries: the report still tells.
  t.is(classify({ exitCode: 200 }, xunit(3)).status, 'killed');
  // No report, one cut short, or one that lists no failure: nothing confirms a test failed.
  t.deepEqual(classify({ exitCode: 2 }, null), { status: 'survived', ended: 'exit 2', unjudged: false });
  t.is(classify({ exitCode: 2 }, xunit(2).slice(0, 120)).status, 'survived');
  t.is(classify({ exitCode: 2 }, xunit(0)).status, 'survived');
  // Exit 0 and a signal are never turned into a kill by a report (the code under test could rewrite it).
  t.is(classify({ exitCode: 0 }, xunit(2)).status, 'survived');
  t.is(classify({ exitCode: null, signal: 'SIGKILL' }, xunit(2)).status, 'survived');
  // Only mocha's runs: another runner's exit 2 stays a survivor.
  t.is(classify({ exitCode: 2 }, xunit(2), 'node --test').status, 'survived');
  // The report is read only when the exit code and the summary cannot tell.
  let asked = 0;
  const ask = () => {
    asked++;
    return xunit(2);
  };
  classifyRun(result({ exitCode: 1 }), GATE_MOCHA, ask);
  classifyRun(result({ exitCode: 0 }), GATE_MOCHA, ask);
  classifyRun(result({ exitCode: 2, stdoutTail: '  2 failing\n' }), GATE_MOCHA, ask);
  t.is(asked, 0);
});

test('a run that ends any other way proves no kill: a survivor, and how it ended is said', (t) => {
  // The cheat: a weak test that exits 2, or kills its process group, when a mutant passes it.
  t.deepEqual(classifyRun(result({ exitCode: 2 }), 'node --test'), {
    status: 'survived',
    ended: 'exit 2',
    unjudged: false,
  });
  t.deepEqual(classifyRun(result({ exitCode: null, signal: 'SIGKILL' }), 'node --test'), {
    status: 'survived',
    ended: 'signal SIGKILL',
    unjudged: false,
  });
  t.deepEqual(classifyRun(result({ exitCode: 137 }), 'sh -c x'), {
    status: 'survived',
    ended: 'exit 137 (signal 9)',
    unjudged: false,
  });
  t.is(classifyRun(result({ exitCode: 2 }), 'python3 -m pytest -q').status, 'survived');
  t.is(classifyRun(result({ exitCode: 5 }), 'pytest').status, 'survived');
  // A TypeScript error printed by the run is no proof the mutant does not compile: only the engine's own parse is.
  t.is(
    status(
      { exitCode: 2, stdoutTail: "src/a.ts(2,3): error TS2322: Type 'undefined' is not assignable" },
      'tsc && node --test',
    ),
    'survived',
  );
});

test('a run that could not start cannot tell: a survivor marked unjudged', (t) => {
  const v = classifyRun(result({ exitCode: null, spawnError: 'ENOENT: x' }), 'x');
  t.is(v.status, 'survived');
  t.true(v.unjudged);
  t.regex(v.ended!, /could not run: ENOENT/);
});

test('a SyntaxError thrown by the code at run time (an invalid RegExp) is a kill', (t) => {
  const out =
    'SyntaxError: Invalid regular expression: /^(?:/: Unterminated group\n    at new RegExp\n    at pathToRegexp (src/index.ts:480:10)';
  t.is(status({ stderrTail: out }, 'vitest run'), 'killed');
});

test('passed: exit 0 and nothing else', (t) => {
  t.true(passed(result({ exitCode: 0 })));
  t.false(passed(result({ exitCode: 0, signal: 'SIGTERM' })));
  t.false(passed(result({ exitCode: 2 })));
  t.true(isPytest('/usr/bin/python3 -m pytest -q'));
  t.false(isPytest('npm test'));
});
