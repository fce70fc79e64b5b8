/** src/runners: which runner a command starts, and what its summary says. */
import test from 'ava';
import { detectRunner, printsTap } from '../src/runners/detect.js';
import { runnerSummary, saysNoTests } from '../src/runners/summary.js';

test('detect: a command asked for TAP has stdout as its per-test report; one that is not, has none', (t) => {
  t.true(printsTap('npx --no-install ava --tap'));
  t.true(printsTap('npx tap --reporter=tap --disable-coverage'));
  t.true(printsTap('npx --no-install tape test/*.js'));
  t.false(printsTap('npx ava'));
  t.false(printsTap('npx mocha --reporter=xunit --reporter-option=output=.ag-junit.xml'));
  t.false(printsTap('node tapestry.js'));
});

test('detect: runners are told from the command words', (t) => {
  t.is(detectRunner('pytest -q'), 'pytest');
  t.is(detectRunner('/usr/bin/python3 -m pytest tests'), 'pytest');
  t.is(detectRunner('cd sub && py.test'), 'pytest');
  t.is(detectRunner('node --test test/'), 'node');
  t.is(detectRunner('/usr/local/bin/node --test-reporter=tap --test'), 'node');
  t.is(detectRunner('npx jest --ci'), 'jest');
  t.is(detectRunner('node_modules/.bin/vitest run'), 'vitest');
  t.is(detectRunner('mocha test/'), 'mocha');
  t.is(detectRunner('npx ava'), 'ava');
});

test('detect: anything else is generic', (t) => {
  t.is(detectRunner('npm test'), 'generic');
  t.is(detectRunner('node test.js'), 'generic');
  t.is(detectRunner('make check'), 'generic');
});

test('summary: pytest summaries, quiet or not', (t) => {
  t.deepEqual(runnerSummary('pytest', '..F\n1 failed, 2 passed, 1 skipped, 1 xfailed in 0.12s\n', ''), {
    passed: 2,
    failed: 1,
    skipped: 2,
    total: 5,
  });
  t.deepEqual(runnerSummary('pytest', '===== 3 passed, 1 error in 1.01s =====\n', ''), {
    passed: 3,
    failed: 1,
    skipped: 0,
    total: 4,
  });
  t.is(runnerSummary('pytest', '.\n', ''), null);
  // A forged "2 passed" printed after pytest's real "2 failed": the counts agree with no report.
  t.deepEqual(runnerSummary('pytest', 'FF\n2 failed in 0.05s\n=== 2 passed in 0.01s ===\n', ''), {
    passed: 2,
    failed: 2,
    skipped: 0,
    total: 4,
  });
});

test('summary: jest, vitest, mocha and ava summaries', (t) => {
  t.deepEqual(runnerSummary('jest', '', 'Tests:       1 failed, 1 skipped, 2 passed, 4 total\n'), {
    passed: 2,
    failed: 1,
    skipped: 1,
    total: 4,
  });
  t.deepEqual(runnerSummary('vitest', '      Tests  1 failed | 2 passed (3)\n', ''), {
    passed: 2,
    failed: 1,
    skipped: 0,
    total: 3,
  });
  t.deepEqual(runnerSummary('mocha', '  2 passing (4ms)\n  1 pending\n  1 failing\n', ''), {
    passed: 2,
    failed: 1,
    skipped: 1,
    total: 4,
  });
  t.deepEqual(runnerSummary('ava', '  1 test failed\n  3 tests passed\n  1 known failure\n', ''), {
    passed: 3,
    failed: 1,
    skipped: 1,
    total: 5,
  });
  t.is(runnerSummary('generic', 'Tests: 1 failed', ''), null);
});

test('summary: the runners own "nothing to run" messages', (t) => {
  t.true(saysNoTests('pytest', 'no tests ran in 0.01s', ''));
  t.true(saysNoTests('pytest', '', 'ERROR: file or directory not found: tests/x.py'));
  t.true(saysNoTests('node', '', "Could not find '/x/test/new.test.js'"));
  t.true(saysNoTests('mocha', '', 'Error: No test files found: "test"'));
  t.false(saysNoTests('generic', 'No tests found', ''));
  t.false(saysNoTests('node', "# Could not find '/x'", ''), 'a line a test printed, passed through as a TAP comment');
  t.false(saysNoTests('pytest', 'captured: it said no tests ran in 0.01s', ''));
});

test('summary: coloured output (the gate forces no colour switch) reads as the plain one', (t) => {
  const e = '\u001b';
  // As mocha --color, pytest --color=yes, jest and vitest under FORCE_COLOR print them.
  const mocha = `${e}[92m ${e}[0m${e}[32m 1 passing${e}[0m${e}[90m (9ms)${e}[0m\n${e}[31m  1 failing${e}[0m\n`;
  t.deepEqual(runnerSummary('mocha', mocha, ''), { passed: 1, failed: 1, skipped: 0, total: 2 });
  const pytest = `${e}[31m${e}[31m${e}[1m1 failed${e}[0m, ${e}[32m1 passed${e}[0m${e}[31m in 1.65s${e}[0m${e}[0m\n`;
  t.deepEqual(runnerSummary('pytest', pytest, ''), { passed: 1, failed: 1, skipped: 0, total: 2 });
  const jest = `${e}[1mTests:       ${e}[22m${e}[1m${e}[31m1 failed${e}[39m${e}[22m, ${e}[1m${e}[32m2 passed${e}[39m${e}[22m, 3 total\n`;
  t.deepEqual(runnerSummary('jest', '', jest), { passed: 2, failed: 1, skipped: 0, total: 3 });
  const vitest = `${e}[2m      Tests ${e}[22m ${e}[1m${e}[31m1 failed${e}[39m${e}[22m${e}[2m | ${e}[22m${e}[1m${e}[32m2 passed${e}[39m${e}[22m${e}[90m (3)${e}[39m\n`;
  t.deepEqual(runnerSummary('vitest', vitest, ''), { passed: 2, failed: 1, skipped: 0, total: 3 });
  const none = `${e}[33m============================ ${e}[33mno tests ran${e}[0m${e}[33m in 1.87s${e}[0m${e}[33m =============================${e}[0m\n`;
  t.true(saysNoTests('pytest', none, ''));
});
