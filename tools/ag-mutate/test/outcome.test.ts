import test from 'ava';
import type { ProcessResult } from '@adversary-gate/core';
import { classifyRun, isPytest } from '../src/exec/outcome.js';

function result(over: Partial<ProcessResult>): ProcessResult {
  return {
    exitCode: 1, signal: null, timedOut: false, outputCapHit: false, spawnError: null, stdoutTail: '', stderrTail: '',
    stdoutBytes: 0, stderrBytes: 0, truncated: false, leftoverProcesses: 0, durationMs: 10, ...over,
  };
}

test('exit 0 survives, a failing exit kills, a timeout is a timeout', (t) => {
  t.is(classifyRun(result({ exitCode: 0 }), 'npm test', 'a.js'), 'survived');
  t.is(classifyRun(result({ exitCode: 1 }), 'npm test', 'a.js'), 'killed');
  t.is(classifyRun(result({ exitCode: 7 }), 'mocha', 'a.js'), 'killed');
  t.is(classifyRun(result({ exitCode: null, signal: 'SIGKILL', timedOut: true }), 'npm test', 'a.js'), 'timeout');
});

test('a signal, the output cap or a spawn failure proves nothing: stillborn', (t) => {
  t.is(classifyRun(result({ exitCode: null, signal: 'SIGSEGV' }), 'x', 'a.js'), 'stillborn');
  t.is(classifyRun(result({ outputCapHit: true }), 'x', 'a.js'), 'stillborn');
  t.is(classifyRun(result({ exitCode: null, spawnError: 'ENOENT: x' }), 'x', 'a.js'), 'stillborn');
});

test('a TypeScript compile error is stillborn', (t) => {
  t.is(classifyRun(result({ exitCode: 2, stdoutTail: "src/a.ts(2,3): error TS2322: Type 'undefined' is not assignable" }), 'tsc && node --test', 'src/a.ts'), 'stillborn');
});

test("pytest's could-not-run codes are stillborn, its failures are kills", (t) => {
  t.is(classifyRun(result({ exitCode: 2 }), 'python3 -m pytest -q', 'a.py'), 'stillborn');
  t.is(classifyRun(result({ exitCode: 5 }), 'pytest tests', 'a.py'), 'stillborn');
  t.is(classifyRun(result({ exitCode: 1 }), 'pytest', 'a.py'), 'killed');
  t.true(isPytest('/usr/bin/python3 -m pytest -q'));
  t.true(isPytest('pytest'));
  t.false(isPytest('npm test'));
});

test('an import error naming the mutated file is stillborn; one elsewhere is a kill', (t) => {
  const load = "Error: Cannot find module './helpers'\nRequire stack:\n- /tmp/x/src/calc.js";
  t.is(classifyRun(result({ stderrTail: load }), 'node --test', 'src/calc.js'), 'stillborn');
  t.is(classifyRun(result({ stderrTail: "Error: Cannot find module 'x'\n at test/other.test.js" }), 'node --test', 'src/calc.js'), 'killed');
});

test('a SyntaxError thrown by the code at run time (an invalid RegExp) is a kill', (t) => {
  const out = 'SyntaxError: Invalid regular expression: /^(?:/: Unterminated group\n    at new RegExp\n    at pathToRegexp (src/index.ts:480:10)';
  t.is(classifyRun(result({ stderrTail: out }), 'vitest run', 'src/index.ts'), 'killed');
});
