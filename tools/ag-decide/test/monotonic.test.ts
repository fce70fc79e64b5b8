// Property: worsening any single measurement never moves a verdict toward ACCEPT.
import test from 'ava';
import fc from 'fast-check';
import { decideWith, execution, golden, mutant } from './helpers/golden.js';

type Levels = Record<Dimension, number>;
type Golden = ReturnType<typeof golden>;

/** Each dimension lists its states from best to worst; every state keeps the artefact consistent. */
const DIMENSIONS = {
  coverage: 4, // covered lines 2, 1, 0; then source none
  trust: 2, // computed, untrusted
  strength: 3, // survivors 0, 1, 2
  claim: 3, // VERIFIED, UNVERIFIED, REFUTED
  lost: 2,
  skipped: 2,
  passToFail: 2,
  criterion: 2,
  oracleTouched: 2,
  fixture: 2,
  freeze: 2,
  tamper: 2,
  pragma: 2,
  fault: 2,
  unverified: 2,
} as const;
type Dimension = keyof typeof DIMENSIONS;
const NAMES = Object.keys(DIMENSIONS) as Dimension[];

function build(levels: Levels): Golden {
  const g = golden();
  const c = levels.coverage;
  if (c === 3)
    Object.assign(g.diffcov, {
      diff_coverage_source: 'none',
      diff_coverage_ratio: null,
      reason: 'no_coverage_report',
      files: [],
      totals: { measured: 0, covered: 0, uncovered: 0 },
    });
  else {
    const covered = 2 - c;
    g.diffcov.files[0].covered = covered === 2 ? [[2, 3]] : covered === 1 ? [[2, 2]] : [];
    g.diffcov.files[0].uncovered = covered === 2 ? [] : covered === 1 ? [[3, 3]] : [[2, 3]];
    g.diffcov.totals = { measured: 2, covered, uncovered: 2 - covered };
    g.diffcov.diff_coverage_ratio = covered / 2;
    if (levels.trust === 1)
      Object.assign(g.diffcov, {
        diff_coverage_source: 'untrusted',
        files: [],
        totals: { measured: 0, covered: 0, uncovered: 0 },
      });
  }
  const survivors = levels.strength;
  g.mutation.mutants = [
    mutant('m1', 2, survivors >= 2 ? 'survived' : 'killed'),
    mutant('m2', 3, survivors >= 1 ? 'survived' : 'killed'),
  ];
  g.mutation.counts = { killed: 2 - survivors, survived: survivors, timeout: 0, stillborn: 0, no_coverage: 0 };
  g.mutation.suite_strength = (2 - survivors) / 2;
  if (levels.claim === 1) {
    g.run.claims[0].patch = [execution('patch', 1), execution('patch', 2, 'FAIL'), execution('patch', 3)];
    g.run.claims[0].status = 'UNVERIFIED';
  } else if (levels.claim === 2) {
    g.run.claims[0].patch = [1, 2, 3].map((r) => execution('patch', r, 'FAIL'));
    g.run.claims[0].status = 'REFUTED';
  }
  if (levels.lost) g.run.test_deltas.tests_lost = ['t::lost'];
  if (levels.skipped) g.run.test_deltas.tests_newly_skipped = ['t::skipped'];
  if (levels.passToFail) g.run.test_deltas.tests_pass_to_fail = ['t::broken'];
  if (levels.criterion) g.run.criteria[0].proven = false;
  if (levels.oracleTouched) g.oracle.oracle_touched = [{ path: 'adversary-gate.json', pattern: 'adversary-gate.json' }];
  if (levels.fixture) Object.assign(g.oracle.fixtures[0], { actual: `sha256:${'9'.repeat(64)}`, changed: ['x.json'] });
  if (levels.freeze)
    g.oracle.freeze.entries = [
      { index: 0, nodeid: 't::x', expires: '2020-01-01', covers: ['src/calc.js'], status: 'expired' },
    ];
  if (levels.tamper)
    g.oracle.tampering = [{ kind: 'assertion_removed', path: 'test/calc.test.js', line: 2, detail: '-1 assertion' }];
  if (levels.pragma && g.diffcov.diff_coverage_source !== 'none')
    g.diffcov.pragmas = [{ path: 'src/calc.js', line: 2, text: '/* c8 ignore next */' }];
  if (levels.fault) g.run.faults = [{ code: 'RUNNER_CRASHED', message: 'x' }];
  if (levels.unverified)
    Object.assign(g.mutation, { suite_strength_unverified: true, foreign_changed_files: ['src/x.sql'] });
  return g;
}

const RANK = { ACCEPT: 0, HOLD: 1, REJECT: 2 } as const;
const levelsArb = fc.record(
  Object.fromEntries(NAMES.map((n) => [n, fc.integer({ min: 0, max: DIMENSIONS[n] - 1 })])) as Record<
    Dimension,
    fc.Arbitrary<number>
  >,
);

test('worsening one measurement never moves the verdict toward ACCEPT', (t) => {
  // fc.assert throws with the shrunk counter-example when the property fails.
  t.notThrows(() =>
    fc.assert(
      fc.property(levelsArb, fc.constantFrom(...NAMES), (levels, dim) => {
        fc.pre(levels[dim] < DIMENSIONS[dim] - 1);
        const before = decideWith(build(levels));
        const after = decideWith(build({ ...levels, [dim]: levels[dim] + 1 }));
        if (
          before.reasons.some((r) => r.code === 'EVIDENCE_INVALID') ||
          after.reasons.some((r) => r.code === 'EVIDENCE_INVALID')
        ) {
          throw new Error(
            `generator produced inconsistent evidence: ${JSON.stringify([...before.reasons, ...after.reasons])}`,
          );
        }
        return RANK[after.verdict] >= RANK[before.verdict];
      }),
      { numRuns: 400, seed: 20261130 },
    ),
  );
});

test('only the all-best state accepts', (t) => {
  const best = Object.fromEntries(NAMES.map((n) => [n, 0])) as Levels;
  t.is(decideWith(build(best)).verdict, 'ACCEPT');
  for (const dim of NAMES) {
    const worse = decideWith(build({ ...best, [dim]: DIMENSIONS[dim] - 1 }));
    t.not(worse.verdict, 'ACCEPT', dim);
  }
});
