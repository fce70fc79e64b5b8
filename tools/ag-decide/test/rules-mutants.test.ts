// The decision rules branch by branch, with the exact reasons (code, evidence, message) each
// gives: what a reviewer reads must name the right claim, numbers and paths, and a boundary
// (a ratio equal to its floor, a red suite on both sides) must fall on the right side.
import test from 'ava';
import { DEFAULT_POLICY, type Policy, type Reason } from '@adversary-gate/schemas';
import {
  diffcovReasons,
  isReject,
  listForMessage,
  mutationReasons,
  oracleReasons,
  runReasons,
  sortReasons,
  verdictOf,
} from '../src/index.js';
import { execution, goodDiffcov, goodMutation, goodOracle, goodRun } from './helpers/golden.js';

const r = (code: string, evidence: string, message: string) => ({ code, evidence, message });
const policy = (p: { floors?: Partial<Policy['floors']>; allow_untrusted_coverage?: boolean } = {}): Policy => ({
  ...DEFAULT_POLICY,
  ...p,
  floors: { ...DEFAULT_POLICY.floors, ...p.floors },
});
const run = (change: (x: any) => void) => {
  const x = goodRun();
  change(x);
  return runReasons(x as any);
};

// ---- run ----
test('run: the golden run gives no reason', (t) => {
  t.deepEqual(runReasons(goodRun() as any), []);
});

test('run: no claim says nothing was verified', (t) => {
  t.deepEqual(
    run((x) => (x.claims = [])),
    [r('CLAIM_UNVERIFIED', 'run', 'the run evidence holds no claim: nothing was verified')],
  );
});

test('run: a refuted claim is named with its class', (t) => {
  t.deepEqual(
    run((x) => Object.assign(x.claims[0], { status: 'REFUTED', class: 'still_failing' })),
    [r('CLAIM_FAILED', 'run', 'claim claim-1 failed on the patch in every round (still_failing)')],
  );
});

test('run: an unverified claim is named with its class', (t) => {
  t.deepEqual(
    run((x) => Object.assign(x.claims[0], { status: 'UNVERIFIED', class: 'flaky' })),
    [r('CLAIM_UNVERIFIED', 'run', 'claim claim-1 is unverified (flaky)')],
  );
});

test('run: a full suite that did not run on either side is named per side', (t) => {
  t.deepEqual(
    run((x) => (x.full_suite.baseline = null)),
    [r('CLAIM_UNVERIFIED', 'run', 'the full suite did not run on the baseline')],
  );
  t.deepEqual(
    run((x) => (x.full_suite.patch = null)),
    [r('CLAIM_UNVERIFIED', 'run', 'the full suite did not run on the patch')],
  );
});

test('run: a red baseline holds with its outcome and kind', (t) => {
  t.deepEqual(
    run((x) => (x.full_suite.baseline = execution('baseline', 1, 'UNRUNNABLE'))),
    [r('BASELINE_RED', 'run', 'the full suite is UNRUNNABLE on the baseline (unrunnable)')],
  );
});

test('run: a suite red on both sides is a red baseline, not a regression', (t) => {
  t.deepEqual(
    run((x) => {
      x.full_suite.baseline = execution('baseline', 1, 'FAIL');
      x.full_suite.patch = execution('patch', 1, 'FAIL');
    }),
    [r('BASELINE_RED', 'run', 'the full suite is FAIL on the baseline (fail)')],
  );
});

test('run: a suite failing on the patch with no baseline run is not called a regression', (t) => {
  t.deepEqual(
    run((x) => {
      x.full_suite.baseline = null;
      x.full_suite.patch = execution('patch', 1, 'FAIL');
    }),
    [r('CLAIM_UNVERIFIED', 'run', 'the full suite did not run on the baseline')],
  );
});

test('run: green on the baseline and failing on the patch is a collateral regression', (t) => {
  t.deepEqual(
    run((x) => (x.full_suite.patch = execution('patch', 1, 'FAIL'))),
    [r('COLLATERAL_REGRESSION', 'run', 'the full suite passed on the baseline and fails on the patch')],
  );
});

test('run: a full suite unrunnable or timed out on the patch holds with its outcome', (t) => {
  t.deepEqual(
    run((x) => (x.full_suite.patch = execution('patch', 1, 'UNRUNNABLE'))),
    [r('CLAIM_UNVERIFIED', 'run', 'the full suite is UNRUNNABLE on the patch (unrunnable)')],
  );
  t.deepEqual(
    run((x) => (x.full_suite.patch = execution('patch', 1, 'TIMED_OUT'))),
    [r('CLAIM_UNVERIFIED', 'run', 'the full suite is TIMED_OUT on the patch (timed_out)')],
  );
});

test('run: no per-test report holds', (t) => {
  t.deepEqual(
    run((x) => (x.test_deltas = null)),
    [
      r(
        'CLAIM_UNVERIFIED',
        'run',
        'no per-test report on both sides: lost or newly skipped tests could not be checked',
      ),
    ],
  );
});

test('run: each kind of test delta names its tests', (t) => {
  t.deepEqual(
    run((x) => (x.test_deltas.tests_lost = ['a::1', 'a::2'])),
    [r('TEST_LOST', 'run', 'tests present on the baseline are absent on the patch: a::1, a::2')],
  );
  t.deepEqual(
    run((x) => (x.test_deltas.tests_newly_skipped = ['a::3'])),
    [r('TEST_SKIPPED', 'run', 'tests newly skipped, todo or filtered: a::3')],
  );
  t.deepEqual(
    run((x) => (x.test_deltas.tests_pass_to_fail = ['a::4'])),
    [r('COLLATERAL_REGRESSION', 'run', 'tests that passed on the baseline fail on the patch: a::4')],
  );
});

test('run: an unproven criterion holds with its reason', (t) => {
  t.deepEqual(
    run((x) => Object.assign(x.criteria[0], { proven: false, why: 'test absent on the patch' })),
    [r('CRITERION_UNPROVEN', 'run', 'criterion AC-1 is not proven: test absent on the patch')],
  );
});

// ---- diffcov ----
const cov = (change: (x: any) => void, p: Policy = DEFAULT_POLICY) => {
  const x = goodDiffcov();
  change(x);
  return diffcovReasons(x as any, p);
};

test('diffcov: the golden coverage gives its measurement and no reason', (t) => {
  t.deepEqual(
    cov(() => {}),
    { reasons: [], measurement: { value: 1, source: 'computed' }, disabled: [] },
  );
});

test('diffcov: no report is not measured', (t) => {
  const out = cov((x) =>
    Object.assign(x, { diff_coverage_source: 'none', diff_coverage_ratio: null, reason: 'no_report' }),
  );
  t.deepEqual(out.reasons, [
    r('COVERAGE_NOT_MEASURED', 'diffcov', 'no coverage report: diff coverage was not measured'),
  ]);
  t.deepEqual(out.measurement, { value: null, source: 'none' });
});

test('diffcov: an asserted ratio holds unless the policy allows it, and then meets the floor like any', (t) => {
  const untrusted = (ratio: number) => (x: any) =>
    Object.assign(x, { diff_coverage_source: 'untrusted', diff_coverage_ratio: ratio });
  t.deepEqual(cov(untrusted(0.9)).reasons, [
    r(
      'COVERAGE_UNTRUSTED',
      'diffcov',
      'the coverage ratio was asserted by the caller, and the policy does not allow untrusted coverage',
    ),
  ]);
  t.deepEqual(cov(untrusted(0.9), policy({ allow_untrusted_coverage: true })).reasons, []);
  t.deepEqual(cov(untrusted(0.5), policy({ allow_untrusted_coverage: true })).reasons, [
    r('COVERAGE_BELOW_FLOOR', 'diffcov', 'diff coverage 0.5000 is below the floor 0.8'),
  ]);
});

test('diffcov: a null ratio is nothing to cover only when computed with no executable line', (t) => {
  const nul = (source: string, why: string | null) => (x: any) =>
    Object.assign(x, { diff_coverage_source: source, diff_coverage_ratio: null, reason: why });
  t.deepEqual(cov(nul('computed', 'no_executable_changed_lines')).reasons, []);
  t.deepEqual(cov(nul('computed', 'report_unreadable')).reasons, [
    r('COVERAGE_NOT_MEASURED', 'diffcov', 'diff coverage is null (report_unreadable)'),
  ]);
  t.deepEqual(cov(nul('computed', null)).reasons, [
    r('COVERAGE_NOT_MEASURED', 'diffcov', 'diff coverage is null (no reason given)'),
  ]);
  t.deepEqual(
    cov(nul('untrusted', 'no_executable_changed_lines'), policy({ allow_untrusted_coverage: true })).reasons,
    [r('COVERAGE_NOT_MEASURED', 'diffcov', 'diff coverage is null (no_executable_changed_lines)')],
  );
});

test('diffcov: below the floor names the counts; exactly the floor passes', (t) => {
  const at = (ratio: number, covered: number, measured: number) => (x: any) =>
    Object.assign(x, { diff_coverage_ratio: ratio, totals: { measured, covered, uncovered: measured - covered } });
  t.deepEqual(cov(at(0.75, 3, 4)).reasons, [
    r('COVERAGE_BELOW_FLOOR', 'diffcov', 'diff coverage 0.7500 (3/4 changed lines) is below the floor 0.8'),
  ]);
  t.deepEqual(cov(at(0.8, 4, 5)).reasons, []);
});

test('diffcov: a floor of 0 is listed as disabled and never holds', (t) => {
  const out = cov(
    (x) => Object.assign(x, { diff_coverage_ratio: 0, totals: { measured: 2, covered: 0, uncovered: 2 } }),
    policy({ floors: { diff_coverage: 0 } }),
  );
  t.deepEqual(out.reasons, []);
  t.deepEqual(out.disabled, ['diff_coverage: floor is 0 (requirement disabled, not satisfied)']);
});

test('diffcov: coverage pragmas on changed lines are suspected tampering, named by place', (t) => {
  t.deepEqual(
    cov(
      (x) =>
        (x.pragmas = [
          { path: 'src/calc.js', line: 2 },
          { path: 'src/calc.js', line: 3 },
        ]),
    ).reasons,
    [r('TAMPER_SUSPECTED', 'diffcov', 'coverage pragmas added on changed lines: src/calc.js:2, src/calc.js:3')],
  );
});

// ---- mutation ----
const mut = (change: (x: any) => void, p: Policy = DEFAULT_POLICY) => {
  const x = goodMutation();
  change(x);
  return mutationReasons(x as any, p);
};

test('mutation: the golden result gives its measurement and engine, no reason', (t) => {
  t.deepEqual(
    mut(() => {}),
    { reasons: [], measurement: { value: 1, source: 'ag-mutate' }, disabled: [] },
  );
});

test('mutation: a shard is not a merged result', (t) => {
  t.deepEqual(mut((x) => (x.shard = { index: 1, count: 2 })).reasons, [
    r('STRENGTH_NOT_MEASURED', 'mutation', 'this is shard 1/2, not a merged result'),
  ]);
});

test('mutation: changed source no engine judged holds, whichever field says so', (t) => {
  t.deepEqual(mut((x) => (x.suite_strength_unverified = true)).reasons, [
    r('STRENGTH_UNVERIFIED', 'mutation', 'changed source no engine judged'),
  ]);
  t.deepEqual(mut((x) => (x.foreign_changed_files = ['lib/a.rs'])).reasons, [
    r('STRENGTH_UNVERIFIED', 'mutation', 'changed source no engine judged: lib/a.rs (no engine)'),
  ]);
  t.deepEqual(mut((x) => (x.deleted_files = ['src/old.js'])).reasons, [
    r('STRENGTH_UNVERIFIED', 'mutation', 'changed source no engine judged: src/old.js (deleted)'),
  ]);
});

test('mutation: a null strength is disabled for budget 0, nothing for no source or dead code only, and not measured otherwise', (t) => {
  const nul = (why: string | null) => (x: any) =>
    Object.assign(x, {
      suite_strength: null,
      reason: why,
      mutants: [],
      counts: { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 },
    });
  t.deepEqual(mut(nul('budget_zero')), {
    reasons: [],
    measurement: { value: null, source: 'ag-mutate' },
    disabled: ['suite_strength: mutation budget is 0 (measurement disabled)'],
  });
  t.deepEqual(mut(nul('no_source_changed')).reasons, []);
  // Only dead code deleted: nothing a test could pin changed.
  t.deepEqual(mut(nul('dead_code_only')).reasons, []);
  t.deepEqual(mut(nul('deletion_only')).reasons, [
    r('STRENGTH_NOT_MEASURED', 'mutation', 'suite strength was not measured (deletion_only)'),
  ]);
  t.deepEqual(mut(nul(null)).reasons, [
    r('STRENGTH_NOT_MEASURED', 'mutation', 'suite strength was not measured (no reason given)'),
  ]);
});

test('mutation: below the floor counts timeouts as killed and uncovered as survived; exactly the floor passes', (t) => {
  const at = (strength: number, counts: Record<string, number>) => (x: any) =>
    Object.assign(x, {
      suite_strength: strength,
      counts: { stillborn: 0, ...counts },
      mutants: Object.entries(counts).flatMap(([status, n]) =>
        Array.from({ length: n }, (_, i) => ({ ...x.mutants[0], id: `m-${status}-${i}`, status })),
      ),
    });
  t.deepEqual(mut(at(0.5, { killed: 2, timeout: 1, survived: 1, no_coverage: 2 })).reasons, [
    r('STRENGTH_BELOW_FLOOR', 'mutation', 'suite strength 0.5000 (3 killed, 3 survived) is below the floor 0.75'),
  ]);
  t.deepEqual(mut(at(0.75, { killed: 3, timeout: 0, survived: 1, no_coverage: 0 })).reasons, []);
});

test('mutation: a floor of 0 is listed as disabled and never holds', (t) => {
  const out = mut((x) => Object.assign(x, { suite_strength: 0 }), policy({ floors: { suite_strength: 0 } }));
  t.deepEqual(out.reasons, []);
  t.deepEqual(out.disabled, ['suite_strength: floor is 0 (requirement disabled, not satisfied)']);
});

// ---- oracle ----
const ora = (change: (x: any) => void) => {
  const x = goodOracle();
  change(x);
  return oracleReasons(x as any);
};

test('oracle: the golden oracle gives no reason', (t) => {
  t.deepEqual(oracleReasons(goodOracle() as any), []);
});

test('oracle: protected paths are named with the pattern that caught them', (t) => {
  t.deepEqual(
    ora((x) => (x.oracle_touched = [{ path: 'test/oracle/a.js', pattern: 'test/oracle/**' }])),
    [r('ORACLE_TOUCHED', 'oracle', 'protected paths touched: test/oracle/a.js (test/oracle/**)')],
  );
});

test('oracle: only the drifted fixture roots are named, with their counts', (t) => {
  const same = goodOracle().fixtures[0];
  const drifted = {
    ...same,
    root: 'test/golden',
    actual: 'sha256:' + '0'.repeat(64),
    added: ['a'],
    removed: [],
    changed: ['b', 'c'],
  };
  t.deepEqual(
    ora((x) => (x.fixtures = [same, drifted])),
    [r('FIXTURE_DRIFT', 'oracle', "fixture digest differs from the baseline's: test/golden (+1 -0 ~2)")],
  );
});

test('oracle: only invalid freeze entries are named', (t) => {
  const entries = [
    { index: 0, nodeid: 't::ok', status: 'valid' },
    { index: 1, nodeid: null, status: 'missing_field' },
    { index: 2, nodeid: 't::old', status: 'expired' },
  ];
  t.deepEqual(
    ora((x) => (x.freeze.entries = entries)),
    [r('FREEZE_INVALID', 'oracle', 'freeze list entries invalid: #1 (no nodeid): missing_field, #2 t::old: expired')],
  );
});

test('oracle: frozen-only coverage names the files', (t) => {
  t.deepEqual(
    ora((x) => Object.assign(x.freeze, { frozen_only: true, frozen_only_files: ['src/a.js'] })),
    [r('FROZEN_ONLY_COVERAGE', 'oracle', 'changed production files covered only by frozen tests: src/a.js')],
  );
});

test('oracle: each kind of tampering maps to its code, named by place', (t) => {
  const finding = (kind: string, path: string, line: number | null) => ({ kind, path, line, detail: '' });
  t.deepEqual(
    ora(
      (x) =>
        (x.tampering = [
          finding('skip_added', 'test/a.js', 3),
          finding('test_file_deleted', 'test/b.js', null),
          finding('skip_added_new_file', 'test/c.js', 1),
          finding('assertion_removed', 'test/a.js', 4),
          finding('test_file_renamed', 'test/d.js', null),
          finding('runner_config_changed', 'package.json', 2),
        ]),
    ),
    [
      r('TEST_SKIPPED', 'oracle', 'skip/only/todo markers added to existing tests: test/a.js:3'),
      r('TEST_LOST', 'oracle', 'test files deleted: test/b.js'),
      r(
        'TAMPER_SUSPECTED',
        'oracle',
        'test tampering suspected: skip_added_new_file test/c.js:1, assertion_removed test/a.js:4, test_file_renamed test/d.js, runner_config_changed package.json:2',
      ),
    ],
  );
});

// ---- precedence ----
const some = (code: string, evidence = 'run', message = 'm') => r(code, evidence, message) as Reason;

test('precedence: no reason accepts, holds alone hold, any reject rejects', (t) => {
  t.is(verdictOf([]), 'ACCEPT');
  t.is(verdictOf([some('BASELINE_RED')]), 'HOLD');
  t.is(verdictOf([some('BASELINE_RED'), some('TEST_LOST')]), 'REJECT');
  t.true(isReject('FREEZE_INVALID'));
  t.false(isReject('PIPELINE_FAULT'));
});

test('precedence: reasons sort by the table, then evidence, then message', (t) => {
  const sorted = sortReasons([
    some('PIPELINE_FAULT', 'run', 'z'),
    some('CLAIM_UNVERIFIED', 'run', 'b'),
    some('CLAIM_UNVERIFIED', 'run', 'a'),
    some('CLAIM_UNVERIFIED', 'diffcov', 'c'),
    some('TEST_LOST', 'oracle', 'x'),
    some('CLAIM_FAILED', 'run', 'y'),
  ]);
  t.deepEqual(
    sorted.map((x) => `${x.code}/${x.evidence}/${x.message}`),
    [
      'CLAIM_FAILED/run/y',
      'TEST_LOST/oracle/x',
      'CLAIM_UNVERIFIED/diffcov/c',
      'CLAIM_UNVERIFIED/run/a',
      'CLAIM_UNVERIFIED/run/b',
      'PIPELINE_FAULT/run/z',
    ],
  );
});

test('precedence: sorting leaves its input untouched', (t) => {
  const input = [some('PIPELINE_FAULT'), some('CLAIM_FAILED')];
  sortReasons(input);
  t.deepEqual(
    input.map((x) => x.code),
    ['PIPELINE_FAULT', 'CLAIM_FAILED'],
  );
});

test('messages: a list shows five items, then how many more', (t) => {
  t.is(listForMessage(['a', 'b', 'c', 'd', 'e']), 'a, b, c, d, e');
  t.is(listForMessage(['a', 'b', 'c', 'd', 'e', 'f', 'g']), 'a, b, c, d, e and 2 more');
  t.is(listForMessage(['a', 'b', 'c'], 2), 'a, b and 1 more');
});

test('mutation: no executable changed line stands only when the coverage evidence left no changed line unexecuted', (t) => {
  const m = { ...goodMutation(), suite_strength: null, reason: 'no_executable_change', mutants: [] } as any;
  m.counts = { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 };
  const nothing = { ...goodDiffcov(), files: [], totals: { measured: 0, covered: 0, uncovered: 0 } } as any;
  t.deepEqual(mutationReasons(m, policy(), nothing).reasons, []);
  // V8 counts a comment line, and it ran: backed
  const ran = { ...goodDiffcov(), totals: { measured: 1, covered: 1, uncovered: 0 } } as any;
  t.deepEqual(mutationReasons(m, policy(), ran).reasons, []);
  // a changed line coverage saw unexecuted: not backed
  const missed = { ...goodDiffcov(), totals: { measured: 2, covered: 1, uncovered: 1 } } as any;
  const counted = mutationReasons(m, policy(), missed).reasons;
  t.deepEqual(
    counted.map((x: Reason) => x.code),
    ['STRENGTH_NOT_MEASURED'],
  );
  t.regex(counted[0]!.message, /no_executable_change: .*coverage evidence does not back it/);
  // no coverage evidence at all: not vouched either
  t.deepEqual(
    mutationReasons(m, policy()).reasons.map((x: Reason) => x.code),
    ['STRENGTH_NOT_MEASURED'],
  );
});
