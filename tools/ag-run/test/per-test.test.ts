import test from 'ava';
import type { Execution, TestResult } from '@adversary-gate/schemas';
import { classifyClaim } from '../src/classify.js';
import { commandHistory, failureKinds, flakyTests } from '../src/per-test.js';
import { planReruns } from '../src/plan.js';

type T = Record<string, TestResult['outcome']>;
const ex = (side: Execution['side'], round: number, tests: T | null, outcome?: Execution['outcome']): Execution => {
  const o =
    outcome ?? (tests !== null && Object.values(tests).some((x) => x === 'failed' || x === 'error') ? 'FAIL' : 'PASS');
  return {
    command: 'c',
    side,
    round,
    exit_code: o === 'PASS' ? 0 : o === 'FAIL' ? 1 : null,
    signal: null,
    timed_out: o === 'TIMED_OUT',
    outcome: o,
    kind: o.toLowerCase(),
    tests: tests === null ? null : Object.entries(tests).map(([id, outcome]) => ({ id, outcome })),
    stdout_tail: '',
    stderr_tail: '',
    stdout_bytes: 0,
    stderr_bytes: 0,
    truncated: false,
    leftover_processes: 0,
  };
};
const claimOf = (base: Execution, rounds: Execution[], reruns: Execution[] = []) => {
  const k = classifyClaim(base, rounds, rounds.length, {
    reruns,
    history: commandHistory('c', [base, ...rounds, ...reruns]),
  });
  return `${k.status} ${k.class}`;
};

test('a test that passed and failed on one side is flaky, with every round it was seen in', (t) => {
  const h = commandHistory('c', [
    ex('baseline', 1, { a: 'passed', b: 'failed' }),
    ex('baseline', 2, { a: 'passed', b: 'passed' }),
    ex('patch', 1, { a: 'failed', b: 'passed' }),
    ex('patch', 2, { a: 'passed', b: 'passed' }),
  ]);
  t.deepEqual(flakyTests(h), [
    {
      id: 'a',
      command: 'c',
      runs: [
        { side: 'baseline', round: 1, outcome: 'passed' },
        { side: 'baseline', round: 2, outcome: 'passed' },
        { side: 'patch', round: 1, outcome: 'failed' },
        { side: 'patch', round: 2, outcome: 'passed' },
      ],
    },
    {
      id: 'b',
      command: 'c',
      runs: [
        { side: 'baseline', round: 1, outcome: 'failed' },
        { side: 'baseline', round: 2, outcome: 'passed' },
        { side: 'patch', round: 1, outcome: 'passed' },
        { side: 'patch', round: 2, outcome: 'passed' },
      ],
    },
  ]);
});

test('honest control: a test failing on every patch run after passing on every baseline run is a regression, not flaky', (t) => {
  const h = commandHistory('c', [
    ex('baseline', 1, { a: 'passed' }),
    ex('baseline', 2, { a: 'passed' }),
    ex('patch', 1, { a: 'failed' }),
    ex('patch', 2, { a: 'failed' }),
  ]);
  t.deepEqual(flakyTests(h), []);
  t.deepEqual([...failureKinds(h)], [['a', 'regression']]);
});

test('failure kinds: new, already failing, unknown when the baseline never ran to a verdict', (t) => {
  const h = commandHistory('c', [
    ex('baseline', 1, { old: 'failed' }),
    ex('patch', 1, { old: 'failed', fresh: 'failed' }),
  ]);
  t.deepEqual([...failureKinds(h)].sort(), [
    ['fresh', 'new_failure'],
    ['old', 'already_failing'],
  ]);
  const u = commandHistory('c', [ex('baseline', 1, { a: 'passed' }, 'UNRUNNABLE'), ex('patch', 1, { a: 'failed' })]);
  t.deepEqual([...failureKinds(u)], [['a', 'unknown']]);
});

test('only runs that reached a verdict count: a timed-out or unrunnable run says nothing of its tests', (t) => {
  const h = commandHistory('c', [
    ex('patch', 1, { a: 'passed' }, 'TIMED_OUT'),
    ex('patch', 2, { a: 'failed' }),
    ex('patch', 3, { a: 'passed' }, 'UNRUNNABLE'),
  ]);
  t.deepEqual(flakyTests(h), []);
  t.is(h.measured.patch, 1);
});

test('a claim failing every round with a different test each time is refuted only by flaky tests: UNVERIFIED flaky', (t) => {
  const base = ex('baseline', 1, { a: 'failed', b: 'passed', c: 'passed' });
  const rounds = [
    ex('patch', 1, { a: 'passed', b: 'failed', c: 'passed' }),
    ex('patch', 2, { a: 'passed', b: 'passed', c: 'failed' }),
    ex('patch', 3, { a: 'failed', b: 'passed', c: 'passed' }),
  ];
  t.is(claimOf(base, rounds, [ex('baseline', 2, { a: 'passed', b: 'failed', c: 'passed' })]), 'UNVERIFIED flaky');
});

test('the next cheat of the kind: one test broken for good beside flaky ones is still a regression', (t) => {
  const base = ex('baseline', 1, { a: 'failed', broke: 'passed' });
  const rounds = [ex('patch', 1, { a: 'passed', broke: 'failed' }), ex('patch', 2, { a: 'failed', broke: 'failed' })];
  t.is(claimOf(base, rounds, [ex('baseline', 2, { a: 'passed', broke: 'passed' })]), 'REFUTED regression');
});

test('the same failures as the baseline and no new one: UNVERIFIED still_failing; a new failure beside them is REFUTED', (t) => {
  const base = ex('baseline', 1, { red: 'failed', ok: 'passed' });
  const rerun = ex('baseline', 2, { red: 'failed', ok: 'passed' });
  t.is(
    claimOf(
      base,
      [ex('patch', 1, { red: 'failed', ok: 'passed' }), ex('patch', 2, { red: 'failed', ok: 'passed' })],
      [rerun],
    ),
    'UNVERIFIED still_failing',
  );
  t.is(
    claimOf(
      base,
      [ex('patch', 1, { red: 'failed', ok: 'failed' }), ex('patch', 2, { red: 'failed', ok: 'failed' })],
      [rerun],
    ),
    'REFUTED regression',
  );
  t.is(
    claimOf(
      base,
      [ex('patch', 1, { red: 'failed', added: 'failed' }), ex('patch', 2, { red: 'failed', added: 'failed' })],
      [rerun],
    ),
    'REFUTED new_bug',
  );
});

test('a patch rerun that passes makes a single failing round flaky', (t) => {
  t.is(
    claimOf(
      ex('baseline', 1, { a: 'passed' }),
      [ex('patch', 1, { a: 'failed' })],
      [ex('patch', 2, { a: 'passed' }), ex('baseline', 2, { a: 'passed' })],
    ),
    'UNVERIFIED flaky',
  );
});

test('a hang in every round is REFUTED only when the baseline passed well within the limit', (t) => {
  const hung = [ex('patch', 1, null, 'TIMED_OUT'), ex('patch', 2, null, 'TIMED_OUT')];
  const k = (base: Execution, inTime: boolean) => classifyClaim(base, hung, 2, { baselinePassedInTime: inTime });
  t.deepEqual(k(ex('baseline', 1, null, 'PASS'), true), { status: 'REFUTED', class: 'hang' });
  t.deepEqual(k(ex('baseline', 1, null, 'PASS'), false), { status: 'UNVERIFIED', class: 'hang' });
  t.deepEqual(classifyClaim(ex('baseline', 1, null, 'PASS'), hung, 2), { status: 'UNVERIFIED', class: 'hang' });
  t.deepEqual(
    classifyClaim(ex('baseline', 1, null, 'PASS'), [hung[0]!, ex('patch', 2, null, 'FAIL')], 2, {
      baselinePassedInTime: true,
    }),
    { status: 'UNVERIFIED', class: 'hang' },
  );
});

test('reruns: a command that failed on the patch runs once more on the baseline, and on the patch when it ran once', (t) => {
  const trees = { baseline: '/b', patch: '/p' };
  const plan = (command: string, side: 'baseline' | 'patch', round: number) => ({
    command,
    runner: 'node' as const,
    side,
    round,
    tree: trees[side],
  });
  const plans = [
    plan('claim', 'baseline', 1),
    plan('claim', 'patch', 1),
    plan('claim', 'patch', 2),
    plan('full', 'baseline', 1),
    plan('full', 'patch', 1),
    plan('green', 'baseline', 1),
    plan('green', 'patch', 1),
  ];
  const outcomes = [
    ex('baseline', 1, { a: 'passed' }),
    ex('patch', 1, { a: 'failed' }),
    ex('patch', 2, { a: 'passed' }),
    ex('baseline', 1, { a: 'failed' }),
    ex('patch', 1, { a: 'failed' }),
    ex('baseline', 1, { a: 'failed' }),
    ex('patch', 1, { a: 'passed' }),
  ];
  t.deepEqual(
    planReruns(plans, outcomes, trees).map((p) => `${p.command} ${p.side} ${p.round} ${p.tree}`),
    ['claim baseline 2 /b', 'full baseline 2 /b', 'full patch 2 /p'],
  );
});

test('a flaky file: a sibling that fails on the patch is flaky, not a regression; another file still regresses', async (t) => {
  const { testDeltasOver } = await import('../src/deltas.js');
  // The baseline's rounds fail a different test of redos.spec.ts each (a time-budgeted suite).
  const base1 = { 'redos.spec.ts::r1': 'failed', 'redos.spec.ts::r2': 'passed', 'redos.spec.ts::r3': 'passed' } as T;
  const base2 = { 'redos.spec.ts::r1': 'passed', 'redos.spec.ts::r2': 'failed', 'redos.spec.ts::r3': 'passed' } as T;
  const steady = { 'index.spec.ts::parse': 'passed' } as T;
  const patch = { 'redos.spec.ts::r1': 'passed', 'redos.spec.ts::r2': 'passed', 'redos.spec.ts::r3': 'failed' } as T;
  const runs = [
    ex('baseline', 1, { ...base1, ...steady }),
    ex('baseline', 2, { ...base2, ...steady }),
    ex('patch', 1, { ...patch, 'index.spec.ts::parse': 'failed' }),
    ex('patch', 2, { ...patch, 'index.spec.ts::parse': 'failed' }),
  ];
  const h = commandHistory('c', runs);
  const kinds = failureKinds(h);
  t.is(kinds.get('redos.spec.ts::r3'), 'flaky');
  t.is(kinds.get('index.spec.ts::parse'), 'regression');
  t.deepEqual(
    flakyTests(h).map((f) => f.id),
    ['redos.spec.ts::r1', 'redos.spec.ts::r2', 'redos.spec.ts::r3'],
  );
  const deltas = testDeltasOver(
    runs.filter((r) => r.side === 'baseline').map((r) => r.tests!),
    runs.filter((r) => r.side === 'patch').map((r) => r.tests!),
  );
  t.deepEqual(deltas?.tests_pass_to_fail, ['index.spec.ts::parse']);
  // The control: with a steady redos file on the baseline, the same failure is a regression.
  const steadyBase = [
    ex('baseline', 1, { ...base1, 'redos.spec.ts::r1': 'passed', ...steady }),
    ex('baseline', 2, { ...base1, 'redos.spec.ts::r1': 'passed', ...steady }),
    ...runs.slice(2),
  ];
  t.is(failureKinds(commandHistory('c', steadyBase)).get('redos.spec.ts::r3'), 'regression');
  // An id that names no file has no file to be flaky with.
  const bare = commandHistory('c', [
    ex('baseline', 1, { a: 'failed', b: 'passed' }),
    ex('baseline', 2, { a: 'passed', b: 'passed' }),
    ex('patch', 1, { a: 'passed', b: 'failed' }),
  ]);
  t.is(failureKinds(bare).get('b'), 'regression');
});
