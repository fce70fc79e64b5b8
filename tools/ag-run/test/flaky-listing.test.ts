/**
 * The flaky listing ag-run writes is one ag-decide finds again: each listed test is flaky by
 * ag-core's rule applied to the runs listed with it alone (what ag-decide's consistency check
 * does), through the confirmations and the reruns, with ids no runner would make simple.
 */
import test from 'ava';
import { fileOfId, listingShowsFlaky } from '@adversary-gate/core';
import { canonicalJson, type Execution, type FlakyTest, type TestResult } from '@adversary-gate/schemas';
import { assemble } from '../src/assemble.js';
import { planConfirmations, planExecutions, planReruns } from '../src/plan.js';

const CMD = 'python3 -m pytest';
const trees = { baseline: '/b', patch: '/p' };

// A time-budgeted file: Y fails one baseline run; X fails every patch run (a sibling of Y's);
// T, in a steady file, reads as a regression until a confirmation passes it; S never fails.
const Y = 'tests/test_budget ü.py::test budget ✓ 日本';
const X = 'tests/test_budget ü.py::test_parse[50%/*]';
const T = 'tests/test_other.py::test_slow';
const S = 'tests/test_ok.py::test ok';

type O = TestResult['outcome'];
const OUTCOMES: Record<string, { baseline: O[]; patch: O[] }> = {
  [Y]: { baseline: ['passed', 'failed'], patch: ['passed', 'passed', 'passed', 'passed', 'passed'] },
  [X]: { baseline: ['passed', 'passed'], patch: ['failed', 'failed', 'failed', 'failed', 'failed'] },
  [T]: { baseline: ['passed', 'passed'], patch: ['failed', 'failed', 'failed', 'passed', 'failed'] },
  [S]: { baseline: ['passed', 'passed'], patch: ['passed', 'passed', 'passed', 'passed', 'passed'] },
};

/** The execution of round `round` on `side`, as the suite above gives it. */
function execution(side: 'baseline' | 'patch', round: number): Execution {
  const tests = Object.entries(OUTCOMES).map(([id, o]) => ({ id, outcome: o[side][round - 1]! }));
  const failed = tests.some((t) => t.outcome === 'failed');
  return {
    command: CMD,
    side,
    round,
    exit_code: failed ? 1 : 0,
    signal: null,
    timed_out: false,
    outcome: failed ? 'FAIL' : 'PASS',
    kind: failed ? 'fail' : 'pass',
    runner: 'pytest',
    report: 'junit',
    tests,
    stdout_tail: '',
    stderr_tail: '',
    stdout_bytes: 0,
    stderr_bytes: 0,
    truncated: false,
    leftover_processes: 0,
  };
}

const runsOf = (id: string) =>
  (['baseline', 'patch'] as const).flatMap((side) =>
    OUTCOMES[id]![side].map((outcome, i) => ({ side, round: i + 1, outcome })),
  );

/** What ag-run lists (the same literal is ag-decide's test of this disagreement). */
const EXPECTED: FlakyTest[] = [
  { id: Y, command: CMD, runs: runsOf(Y) },
  { id: X, command: CMD, runs: runsOf(X), file_runs: runsOf(Y).map((r) => ({ id: Y, ...r })) },
  { id: T, command: CMD, runs: runsOf(T) },
];

/** The check ag-decide made before: a pass and a failure on one side among the listed runs. */
const oldCheck = (f: FlakyTest) =>
  (['baseline', 'patch'] as const).some((side) => {
    const o = f.runs.filter((r) => r.side === side).map((r) => r.outcome);
    return o.includes('passed') && (o.includes('failed') || o.includes('error'));
  });

test('the runs the rule counted, confirmations included, are all listed, and the listing shows each test flaky again', (t) => {
  // The waves ag-run makes: claim = full suite, three rounds; a rerun; the confirmations.
  const planned = planExecutions([CMD], CMD, 3, trees, () => 'pytest');
  const run = (plans: typeof planned.plans) => plans.map((p) => execution(p.side, p.round));
  const first = run(planned.plans);
  const again = planReruns(planned.plans, first, trees);
  t.deepEqual(
    again.map((p) => `${p.side} ${p.round}`),
    ['baseline 2'],
  );
  const confirm = planConfirmations([...planned.plans, ...again], [...first, ...run(again)], trees);
  t.deepEqual(
    confirm.map((p) => `${p.side} ${p.round}`),
    ['patch 4', 'patch 5'],
    'a regression beside a flaky test is confirmed',
  );
  const plans = [...planned.plans, ...again, ...confirm];
  const executions = run(plans);
  const judged = assemble({
    planned,
    plans,
    executions,
    durationsMs: executions.map(() => 1),
    fullCommand: CMD,
    rounds: 3,
    timeoutMs: 60_000,
    deltas: { locate: (id) => (fileOfId(id) === null ? [] : [fileOfId(id)!]), renamed: new Map() },
    trusted: null,
  });
  t.deepEqual(judged.testsFlaky, EXPECTED);
  // X failed in every patch run, confirmations included, and passed in every baseline run: its
  // own runs show no side both passing and failing. The check ag-decide made before called that
  // listing forged (EVIDENCE_INVALID); the rule applied to the listing finds it flaky.
  const x = judged.testsFlaky.find((f) => f.id === X)!;
  t.false(oldCheck(x), 'the disagreement: the listed runs alone never passed and failed on one side');
  // Through run.json's bytes, as ag-decide reads them.
  const back = JSON.parse(canonicalJson(judged.testsFlaky)) as FlakyTest[];
  t.deepEqual(back, EXPECTED, 'the ids survive the round trip');
  for (const f of back) t.true(listingShowsFlaky(f), f.id);
  t.false(listingShowsFlaky({ ...x, file_runs: [] }), 'without its file’s runs, X’s listing proves nothing');
  t.deepEqual(judged.testDeltas?.tests_pass_to_fail, [], 'T passed in a confirmation: no regression');
});
