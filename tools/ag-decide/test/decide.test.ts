import test from 'ava';
import { resolvePolicy } from '@adversary-gate/schemas';
import { codes, decideWith, defaultPolicy, execution, golden, mutant, OTHER_DIGEST } from './helpers/golden.js';

const expectOnly = (
  t: import('ava').ExecutionContext,
  v: ReturnType<typeof decideWith>,
  verdict: 'ACCEPT' | 'REJECT' | 'HOLD',
  code: string,
) => {
  t.is(v.verdict, verdict);
  t.deepEqual([...new Set(codes(v))], [code], JSON.stringify(v.reasons));
};

test('the golden evidence set is ACCEPT with no reason and its measurements', (t) => {
  const v = decideWith(golden());
  t.is(v.verdict, 'ACCEPT');
  t.deepEqual(v.reasons, []);
  t.deepEqual(v.measurements, {
    diff_coverage: { value: 1, source: 'computed' },
    suite_strength: { value: 1, source: 'ag-mutate' },
  });
  t.deepEqual(
    v.evidence.map((e) => e.status),
    ['read', 'read', 'read', 'read'],
  );
});

// ---- run ----
test('run: a REFUTED claim rejects with CLAIM_FAILED', (t) => {
  const g = golden();
  g.run.claims[0].patch = [1, 2, 3].map((r) => execution('patch', r, 'FAIL'));
  g.run.claims[0].status = 'REFUTED';
  expectOnly(t, decideWith(g), 'REJECT', 'CLAIM_FAILED');
});

test('run: full suite green on the baseline and red on the patch rejects with COLLATERAL_REGRESSION', (t) => {
  const g = golden();
  g.run.full_suite.patch = execution('patch', 1, 'FAIL');
  g.run.full_suite.collateral_regression = true;
  expectOnly(t, decideWith(g), 'REJECT', 'COLLATERAL_REGRESSION');
});

test('run: a test that passed on the baseline and fails on the patch rejects with COLLATERAL_REGRESSION', (t) => {
  const g = golden();
  g.run.test_deltas.tests_pass_to_fail = ['test/a.test.js::x'];
  expectOnly(t, decideWith(g), 'REJECT', 'COLLATERAL_REGRESSION');
});

test('run: a lost test rejects with TEST_LOST', (t) => {
  const g = golden();
  g.run.test_deltas.tests_lost = ['test/calc.test.js::adds'];
  expectOnly(t, decideWith(g), 'REJECT', 'TEST_LOST');
});

test('run: a newly skipped test rejects with TEST_SKIPPED', (t) => {
  const g = golden();
  g.run.test_deltas.tests_newly_skipped = ['test/calc.test.js::adds'];
  expectOnly(t, decideWith(g), 'REJECT', 'TEST_SKIPPED');
});

test('run: an UNVERIFIED claim holds with CLAIM_UNVERIFIED', (t) => {
  const g = golden();
  g.run.claims[0].patch = [execution('patch', 1), execution('patch', 2, 'FAIL'), execution('patch', 3)];
  g.run.claims[0].status = 'UNVERIFIED';
  g.run.claims[0].class = 'flaky';
  expectOnly(t, decideWith(g), 'HOLD', 'CLAIM_UNVERIFIED');
});

test('run: no claim at all holds (nothing was verified)', (t) => {
  const g = golden();
  g.run.claims = [];
  expectOnly(t, decideWith(g), 'HOLD', 'CLAIM_UNVERIFIED');
});

test('run: a full suite that did not run, or timed out on the patch, holds', (t) => {
  const a = golden();
  a.run.full_suite.patch = null;
  expectOnly(t, decideWith(a), 'HOLD', 'CLAIM_UNVERIFIED');
  const b = golden();
  b.run.full_suite.patch = execution('patch', 1, 'TIMED_OUT');
  expectOnly(t, decideWith(b), 'HOLD', 'CLAIM_UNVERIFIED');
});

test('run: no per-test report holds, since lost or skipped tests could not be checked', (t) => {
  const g = golden();
  g.run.test_deltas = null;
  expectOnly(t, decideWith(g), 'HOLD', 'CLAIM_UNVERIFIED');
});

test('run: an unproven criterion holds with CRITERION_UNPROVEN', (t) => {
  const g = golden();
  g.run.criteria[0].proven = false;
  expectOnly(t, decideWith(g), 'HOLD', 'CRITERION_UNPROVEN');
});

test('run: a red baseline holds with BASELINE_RED', (t) => {
  const g = golden();
  g.run.full_suite.baseline = execution('baseline', 1, 'FAIL');
  g.run.full_suite.patch = execution('patch', 1, 'FAIL');
  g.run.full_suite.baseline_red = true;
  expectOnly(t, decideWith(g), 'HOLD', 'BASELINE_RED');
});

test('direct evidence outranks missing evidence: a refuted claim with no coverage is REJECT', (t) => {
  const g = golden();
  g.run.claims[0].patch = [1, 2, 3].map((r) => execution('patch', r, 'FAIL'));
  g.run.claims[0].status = 'REFUTED';
  const v = decideWith({ run: g.run, mutation: g.mutation, oracle: g.oracle });
  t.is(v.verdict, 'REJECT');
  t.deepEqual(codes(v), ['CLAIM_FAILED', 'EVIDENCE_MISSING']);
});

// ---- diffcov ----
test('diffcov: source none holds with COVERAGE_NOT_MEASURED', (t) => {
  const g = golden();
  Object.assign(g.diffcov, {
    diff_coverage_source: 'none',
    diff_coverage_ratio: null,
    reason: 'no_coverage_report',
    files: [],
    totals: { measured: 0, covered: 0, uncovered: 0 },
  });
  expectOnly(t, decideWith(g), 'HOLD', 'COVERAGE_NOT_MEASURED');
});

test('diffcov: an untrusted ratio holds with COVERAGE_UNTRUSTED unless the policy allows it', (t) => {
  const g = golden();
  Object.assign(g.diffcov, {
    diff_coverage_source: 'untrusted',
    diff_coverage_ratio: 1,
    files: [],
    totals: { measured: 0, covered: 0, uncovered: 0 },
  });
  expectOnly(t, decideWith(g), 'HOLD', 'COVERAGE_UNTRUSTED');
  const allowing = defaultPolicy(resolvePolicy({ schema_version: 1, coverage: { allow_untrusted: true } }));
  t.is(decideWith(g, allowing).verdict, 'ACCEPT');
  g.diffcov.diff_coverage_ratio = 0.5;
  expectOnly(t, decideWith(g, allowing), 'HOLD', 'COVERAGE_BELOW_FLOOR');
});

test('diffcov: a ratio below the floor holds with COVERAGE_BELOW_FLOOR', (t) => {
  const g = golden();
  Object.assign(g.diffcov, { diff_coverage_ratio: 0.5, totals: { measured: 2, covered: 1, uncovered: 1 } });
  g.diffcov.files[0].covered = [[2, 2]];
  g.diffcov.files[0].uncovered = [[3, 3]];
  expectOnly(t, decideWith(g), 'HOLD', 'COVERAGE_BELOW_FLOOR');
  t.notRegex(decideWith(g).reasons[0]!.message, /not in the coverage report/);
});

test('diffcov: a changed source file the report does not hold (a setup module) is named as not measured', (t) => {
  const g = golden();
  Object.assign(g.diffcov, {
    diff_coverage_ratio: 0,
    totals: { measured: 2, covered: 0, uncovered: 2 },
    unmatched_files: ['src/calc.js'],
  });
  Object.assign(g.diffcov.files[0], { in_report: false, covered: [], uncovered: [[2, 3]] });
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  const r = v.reasons.find((x) => x.code === 'COVERAGE_BELOW_FLOOR');
  t.regex(
    r?.message ?? '',
    /is below the floor 0\.8; not in the coverage report, so counted uncovered: src\/calc\.js$/,
  );
});

test('diffcov: a floor of 0 disables the requirement and says so', (t) => {
  const g = golden();
  Object.assign(g.diffcov, { diff_coverage_ratio: 0.5, totals: { measured: 2, covered: 1, uncovered: 1 } });
  g.diffcov.files[0].covered = [[2, 2]];
  g.diffcov.files[0].uncovered = [[3, 3]];
  const v = decideWith(g, defaultPolicy(resolvePolicy({ schema_version: 1, floors: { diff_coverage: 0 } })));
  t.is(v.verdict, 'ACCEPT');
  t.true(v.disabled.some((d) => d.startsWith('diff_coverage')));
});

test('diffcov: a coverage pragma added on a changed line holds with TAMPER_SUSPECTED', (t) => {
  const g = golden();
  g.diffcov.pragmas = [{ path: 'src/calc.js', line: 2, text: '/* c8 ignore next */' }];
  expectOnly(t, decideWith(g), 'HOLD', 'TAMPER_SUSPECTED');
});

// ---- mutation ----
test('mutation: a null strength with no source changed gives no reason', (t) => {
  const g = golden();
  Object.assign(g.mutation, {
    suite_strength: null,
    reason: 'no_source_changed',
    mutants: [],
    counts: { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 },
  });
  // the golden diff does change source, so the evidence contradicts the diff
  expectOnly(t, decideWith(g), 'HOLD', 'EVIDENCE_INVALID');
});

test('mutation: a budget of 0 is listed as disabled, with no reason', (t) => {
  const g = golden();
  Object.assign(g.mutation, {
    suite_strength: null,
    reason: 'budget_zero',
    budget: 0,
    mutants: [],
    counts: { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 },
  });
  const v = decideWith(g);
  t.is(v.verdict, 'ACCEPT');
  t.true(v.disabled.some((d) => d.includes('budget is 0')));
});

test('mutation: a null strength for any other cause holds with STRENGTH_NOT_MEASURED', (t) => {
  for (const why of ['deletion_only', 'baseline_red', 'baseline_flaky', 'no_mutants', 'engine_failure']) {
    const g = golden();
    Object.assign(g.mutation, {
      suite_strength: null,
      reason: why,
      mutants: [],
      counts: { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 },
    });
    expectOnly(t, decideWith(g), 'HOLD', 'STRENGTH_NOT_MEASURED');
  }
});

test('mutation: unverified source holds with STRENGTH_UNVERIFIED, even with a budget of 0', (t) => {
  const g = golden();
  Object.assign(g.mutation, { suite_strength_unverified: true, foreign_changed_files: ['src/vec.cpp'] });
  expectOnly(t, decideWith(g), 'HOLD', 'STRENGTH_UNVERIFIED');
  Object.assign(g.mutation, {
    suite_strength: null,
    reason: 'budget_zero',
    budget: 0,
    mutants: [],
    counts: { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 },
  });
  expectOnly(t, decideWith(g), 'HOLD', 'STRENGTH_UNVERIFIED');
});

test('mutation: a deleted source file holds with STRENGTH_UNVERIFIED', (t) => {
  const g = golden();
  g.mutation.deleted_files = ['src/dead.js'];
  expectOnly(t, decideWith(g), 'HOLD', 'STRENGTH_UNVERIFIED');
});

test('mutation: strength below the floor holds with STRENGTH_BELOW_FLOOR; no_coverage counts as survived', (t) => {
  const g = golden();
  Object.assign(g.mutation, {
    suite_strength: 0.5,
    counts: { killed: 1, survived: 0, timeout: 0, stillborn: 0, no_coverage: 1 },
    mutants: [mutant('m1', 2, 'killed'), mutant('m2', 3, 'no_coverage')],
  });
  expectOnly(t, decideWith(g), 'HOLD', 'STRENGTH_BELOW_FLOOR');
});

test('mutation: timeouts count as killed', (t) => {
  const g = golden();
  Object.assign(g.mutation, {
    suite_strength: 1,
    counts: { killed: 1, survived: 0, timeout: 1, stillborn: 0, no_coverage: 0 },
    mutants: [mutant('m1', 2, 'killed'), mutant('m2', 3, 'timeout')],
  });
  t.is(decideWith(g).verdict, 'ACCEPT');
});

test('mutation: an unmerged shard holds', (t) => {
  const g = golden();
  g.mutation.shard = { index: 1, count: 2 };
  expectOnly(t, decideWith(g), 'HOLD', 'STRENGTH_NOT_MEASURED');
});

// ---- oracle ----
test('oracle: a protected path touched rejects with ORACLE_TOUCHED', (t) => {
  const g = golden();
  g.oracle.oracle_touched = [{ path: 'tests/oracle/x.test.js', pattern: 'tests/oracle/**' }];
  expectOnly(t, decideWith(g), 'REJECT', 'ORACLE_TOUCHED');
});

test('oracle: fixture drift rejects with FIXTURE_DRIFT', (t) => {
  const g = golden();
  Object.assign(g.oracle.fixtures[0], { actual: OTHER_DIGEST, changed: ['expected.json'] });
  expectOnly(t, decideWith(g), 'REJECT', 'FIXTURE_DRIFT');
});

test('oracle: an expired or incomplete freeze entry rejects with FREEZE_INVALID', (t) => {
  for (const status of ['expired', 'missing_field', 'malformed']) {
    const g = golden();
    g.oracle.freeze.entries = [
      { index: 0, nodeid: 'test/x::y', expires: '2020-01-01', covers: ['src/calc.js'], status },
    ];
    expectOnly(t, decideWith(g), 'REJECT', 'FREEZE_INVALID');
  }
});

test('oracle: changes covered only by frozen tests hold with FROZEN_ONLY_COVERAGE', (t) => {
  const g = golden();
  g.oracle.freeze.entries = [
    { index: 0, nodeid: 'test/x::y', expires: '2027-01-01', covers: ['src/calc.js'], status: 'valid' },
  ];
  Object.assign(g.oracle.freeze, { frozen_only: true, frozen_only_files: ['src/calc.js'] });
  expectOnly(t, decideWith(g), 'HOLD', 'FROZEN_ONLY_COVERAGE');
});

test('oracle: a skip marker added to an existing test rejects with TEST_SKIPPED; a deleted test file with TEST_LOST', (t) => {
  const a = golden();
  a.oracle.tampering = [{ kind: 'skip_added', path: 'test/calc.test.js', line: 2, detail: 'test.skip' }];
  expectOnly(t, decideWith(a), 'REJECT', 'TEST_SKIPPED');
  const b = golden();
  b.oracle.tampering = [{ kind: 'test_file_deleted', path: 'test/old.test.js', line: null, detail: 'deleted' }];
  expectOnly(t, decideWith(b), 'REJECT', 'TEST_LOST');
  // deleted together with the code it imports: retired, a HOLD naming both
  const c = golden();
  c.oracle.tampering = [
    { kind: 'test_file_retired', path: 'test/old.test.js', line: null, detail: 'deleted together with src/old.js' },
  ];
  expectOnly(t, decideWith(c), 'HOLD', 'TEST_RETIRED');
  t.regex(decideWith(c).reasons[0]!.message, /test\/old\.test\.js: deleted together with src\/old\.js/);
});

test('oracle: assertions removed or runner configuration changed hold with TAMPER_SUSPECTED', (t) => {
  for (const kind of [
    'assertion_removed',
    'runner_config_changed',
    'test_file_renamed',
    'skip_added_new_file',
    'always_equal',
  ]) {
    const g = golden();
    g.oracle.tampering = [{ kind, path: 'test/calc.test.js', line: 3, detail: kind }];
    expectOnly(t, decideWith(g), 'HOLD', 'TAMPER_SUSPECTED');
  }
});

test('oracle: a policy digest other than the one ag-decide applies is stale', (t) => {
  const v = decideWith(golden(), {
    ...defaultPolicy(),
    ref: { source: 'file', path: 'p.json', sha256: OTHER_DIGEST as `sha256:${string}` },
  });
  expectOnly(t, v, 'HOLD', 'EVIDENCE_STALE');
});

// ---- any ----
test('any: a required kind missing holds with EVIDENCE_MISSING', (t) => {
  for (const kind of ['run', 'diffcov', 'mutation', 'oracle'] as const) {
    const set: Record<string, unknown> = golden();
    delete set[kind];
    const v = decideWith(set as ReturnType<typeof golden>);
    expectOnly(t, v, 'HOLD', 'EVIDENCE_MISSING');
    t.is(v.reasons[0]?.evidence, kind);
  }
});

test('any: a kind the policy does not require may be absent, and is listed as disabled', (t) => {
  const set: Record<string, unknown> = golden();
  delete set.mutation;
  const v = decideWith(
    set as ReturnType<typeof golden>,
    defaultPolicy(resolvePolicy({ schema_version: 1, require: ['run', 'diffcov', 'oracle'] })),
  );
  t.is(v.verdict, 'ACCEPT');
  t.true(v.disabled.includes('mutation: not required by the policy'));
});

test('any: evidence bound to another diff holds with EVIDENCE_STALE', (t) => {
  const g = golden();
  g.oracle.subject.diff_sha256 = OTHER_DIGEST;
  expectOnly(t, decideWith(g), 'HOLD', 'EVIDENCE_STALE');
});

test('any: a stale run that shows a failure is ignored, not trusted either way', (t) => {
  const g = golden();
  g.run.subject.diff_sha256 = OTHER_DIGEST;
  g.run.claims[0].patch = [1, 2, 3].map((r) => execution('patch', r, 'FAIL'));
  g.run.claims[0].status = 'REFUTED';
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.false(codes(v).includes('CLAIM_FAILED'));
});

test('any: a recorded fault holds with PIPELINE_FAULT', (t) => {
  const g = golden();
  g.diffcov.faults = [{ code: 'REPORT_FILE_UNPARSED', message: 'coverage.xml: one <class> without filename' }];
  expectOnly(t, decideWith(g), 'HOLD', 'PIPELINE_FAULT');
});

test('any: two artefacts of one kind are refused', (t) => {
  const g = golden();
  const v = decideWith({ ...g, run2: g.run });
  expectOnly(t, v, 'HOLD', 'EVIDENCE_INVALID');
});

test('any: a verdict given as evidence is refused', (t) => {
  const verdict = decideWith(golden());
  const v = decideWith({ ...golden(), extra: verdict as unknown as Record<string, unknown> });
  expectOnly(t, v, 'HOLD', 'EVIDENCE_INVALID');
});

test('every reason of every code applies at once and the strongest wins', (t) => {
  const g = golden();
  g.run.test_deltas.tests_lost = ['a'];
  g.diffcov.pragmas = [{ path: 'src/calc.js', line: 2, text: '# pragma: no cover' }];
  const v = decideWith(g);
  t.is(v.verdict, 'REJECT');
  t.deepEqual(codes(v), ['TEST_LOST', 'TAMPER_SUSPECTED']);
});
