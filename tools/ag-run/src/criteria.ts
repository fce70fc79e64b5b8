/**
 * Acceptance criteria from a claims file outside the patch, each judged from the per-test
 * outcomes: fix = failed on the baseline and passed every round on the patch; new = absent on
 * the baseline and passed every round; keep = passed on the baseline and every round. Every
 * criterion gets its own line, proven or not.
 * @module
 */
import * as v from 'valibot';
import type { CriterionResult, Execution, TestResult } from '@adversary-gate/schemas';

/** The claims file: `{"criteria": [{"id", "text", "kind", "tests"}]}`. */
export const ClaimsFile = v.strictObject({
  criteria: v.array(
    v.strictObject({
      id: v.pipe(v.string(), v.minLength(1)),
      text: v.string(),
      kind: v.picklist(['fix', 'new', 'keep']),
      tests: v.array(v.pipe(v.string(), v.minLength(1))),
    }),
  ),
});
export type ClaimsFile = v.InferOutput<typeof ClaimsFile>;

/** The executions a criterion is judged from. */
export interface Observations {
  /** Every baseline execution (claims and full suite). */
  readonly baseline: readonly Execution[];
  /** Each claim's patch rounds. */
  readonly patchRounds: readonly (readonly Execution[])[];
  /** The full suite on the patch, if it ran. */
  readonly fullPatch: Execution | null;
}

/**
 * Find a test in one report. A criterion names `file::name`; runners whose reports carry no
 * file (node's TAP) are matched on the name part after the first `::`.
 */
export function findTest(tests: readonly TestResult[], wanted: string): TestResult | undefined {
  const exact = tests.find((t) => t.id === wanted);
  if (exact !== undefined) return exact;
  const cut = wanted.indexOf('::');
  if (cut < 0) return undefined;
  const name = wanted.slice(cut + 2);
  return tests.find((t) => !t.id.includes('::') && t.id === name);
}

function judgeTest(id: string, kind: 'fix' | 'new' | 'keep', obs: Observations): string | null {
  const reported = obs.patchRounds.filter(
    (rounds) => rounds.length > 0 && rounds.every((e) => e.tests !== null && findTest(e.tests, id) !== undefined),
  );
  const patchRuns = [
    ...reported.flat(),
    ...(obs.fullPatch?.tests && findTest(obs.fullPatch.tests, id) ? [obs.fullPatch] : []),
  ];
  if (patchRuns.length === 0)
    return `${id} is not reported in every round of any claim or in the full suite on the patch`;
  const bad = patchRuns.find((e) => e.outcome !== 'PASS' || findTest(e.tests!, id)!.outcome !== 'passed');
  if (bad !== undefined)
    return `${id} did not pass on the patch (round ${bad.round}: ${findTest(bad.tests!, id)?.outcome ?? 'absent'}, run ${bad.outcome})`;
  const measured = obs.baseline.filter(
    (e) => e.tests !== null && (e.outcome === 'PASS' || e.outcome === 'FAIL' || e.kind === 'no_tests'),
  );
  if (measured.length === 0) return `no per-test report from the baseline: ${id}'s baseline state is unknown`;
  const before = measured.map((e) => findTest(e.tests!, id)?.outcome ?? 'absent');
  if (kind === 'new' && before.some((o) => o !== 'absent'))
    return `${id} already exists on the baseline (${before.find((o) => o !== 'absent')}), so it is not new`;
  if (kind === 'fix' && !(before.some((o) => o === 'failed' || o === 'error') && before.every((o) => o !== 'passed'))) {
    return `${id} did not fail on the baseline (${[...new Set(before)].join(', ')}), so the patch fixed nothing it shows`;
  }
  if (
    kind === 'keep' &&
    !(before.some((o) => o === 'passed') && before.every((o) => o === 'passed' || o === 'absent'))
  ) {
    return `${id} did not pass on the baseline (${[...new Set(before)].join(', ')})`;
  }
  return null;
}

const MOVE = { fix: 'failed on the baseline', new: 'absent on the baseline', keep: 'passed on the baseline' } as const;

/** Judge every criterion; each gets its own result line. */
export function judgeCriteria(file: ClaimsFile, obs: Observations): CriterionResult[] {
  return file.criteria.map((c) => {
    let why: string;
    let proven = false;
    if (c.tests.length === 0) why = 'the criterion names no test';
    else {
      const problems = c.tests.map((t) => judgeTest(t, c.kind, obs)).filter((p): p is string => p !== null);
      proven = problems.length === 0;
      why = proven ? `every test ${MOVE[c.kind]} and passed every round on the patch` : problems.join('; ');
    }
    return { id: c.id, text: c.text, kind: c.kind, tests: [...c.tests], proven, why };
  });
}
