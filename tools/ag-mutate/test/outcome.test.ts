import test from 'ava';
import type { ProcessResult } from '@adversary-gate/core';
import { classifyRun, isPytest, passed } from '../src/exec/outcome.js';

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

test("mocha's exit N is a kill only when its summary counts N failing", (t) => {
  t.is(status({ exitCode: 7, stdoutTail: '  3 passing (5ms)\n  7 failing\n' }, 'npx mocha'), 'killed');
  t.is(status({ exitCode: 7, stdoutTail: '  3 passing (5ms)\n' }, 'npx mocha'), 'survived');
  t.is(status({ exitCode: 7, stdoutTail: '  7 failing\n' }, 'node --test'), 'survived');
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
