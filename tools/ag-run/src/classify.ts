/**
 * A claim's status over its rounds, with the finer class: VERIFIED only when every patch round
 * passed, REFUTED only when every patch round failed, UNVERIFIED for everything else.
 * @module
 */
import type { Execution } from '@adversary-gate/schemas';

/** A claim's status and class. */
export interface ClaimClass {
  readonly status: 'VERIFIED' | 'REFUTED' | 'UNVERIFIED';
  /**
   * fixed (fail → pass), still_passing (pass → pass), new_test (absent → pass), regression
   * (pass → fail), new_bug (absent → fail), still_failing (fail → fail), baseline_red (the
   * baseline could not run, so nothing on the patch is attributable), flaky (rounds
   * disagree), hang (timed out), unrunnable.
   */
  readonly class: string;
}

/** True when the baseline run says the claim's tests are not there yet (a new test). */
function absent(b: Execution): boolean {
  return b.outcome === 'UNRUNNABLE' && b.kind === 'no_tests';
}

/** Classify one claim from its baseline run and its patch rounds; `rounds` is the number asked for. */
export function classifyClaim(baseline: Execution | null, patch: readonly Execution[], rounds: number): ClaimClass {
  if (patch.length !== rounds || patch.length === 0) return { status: 'UNVERIFIED', class: 'unrunnable' };
  const outcomes = new Set(patch.map((e) => e.outcome));
  if (outcomes.has('UNRUNNABLE')) return { status: 'UNVERIFIED', class: 'unrunnable' };
  if (outcomes.size > 1) return { status: 'UNVERIFIED', class: outcomes.has('TIMED_OUT') && !outcomes.has('PASS') ? 'hang' : 'flaky' };
  const only = patch[0]!.outcome;
  if (only === 'TIMED_OUT') return { status: 'UNVERIFIED', class: 'hang' };
  if (only === 'PASS') {
    if (baseline === null) return { status: 'UNVERIFIED', class: 'baseline_red' };
    if (baseline.outcome === 'FAIL') return { status: 'VERIFIED', class: 'fixed' };
    if (baseline.outcome === 'PASS') return { status: 'VERIFIED', class: 'still_passing' };
    if (absent(baseline)) return { status: 'VERIFIED', class: 'new_test' };
    return { status: 'UNVERIFIED', class: 'baseline_red' };
  }
  // every round FAIL
  if (baseline === null) return { status: 'REFUTED', class: 'baseline_red' };
  if (baseline.outcome === 'PASS') return { status: 'REFUTED', class: 'regression' };
  if (baseline.outcome === 'FAIL') return { status: 'REFUTED', class: 'still_failing' };
  if (absent(baseline)) return { status: 'REFUTED', class: 'new_bug' };
  return { status: 'REFUTED', class: 'baseline_red' };
}
