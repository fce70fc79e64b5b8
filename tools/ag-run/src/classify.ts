/**
 * A claim's status over its rounds, with the finer class: VERIFIED only when every patch round
 * passed, REFUTED only when every patch round failed and some test is a regression or a new
 * failure (or, without per-test reports, the baseline passed), or when every round hung where
 * the baseline passed well within the limit; UNVERIFIED for everything else.
 * @module
 */
import type { Execution } from '@adversary-gate/schemas';
import { failureKinds, type CommandHistory } from './per-test.js';

/** A claim's status and class. */
export interface ClaimClass {
  readonly status: 'VERIFIED' | 'REFUTED' | 'UNVERIFIED';
  /**
   * fixed (fail → pass), still_passing (pass → pass), new_test (absent → pass), regression
   * (pass → fail), new_bug (absent → fail), still_failing (fail → fail: the patch fails only what
   * the baseline failed; UNVERIFIED), baseline_red (the baseline could not run, so nothing on the
   * patch is attributable), flaky (rounds, or the tests in them, disagree), hang (timed out),
   * unrunnable.
   */
  readonly class: string;
}

/** What else is known about the claim's command beyond its first baseline run and its rounds. */
export interface ClaimContext {
  /** Further executions of the claim's command (reruns on either side). */
  readonly reruns?: readonly Execution[];
  /** Every test of the command across every execution on both sides. */
  readonly history?: CommandHistory;
  /** The baseline passed the command (a clean run to the end) within half the time limit. */
  readonly baselinePassedInTime?: boolean;
}

/** True when the baseline run says the claim's tests are not there yet (a new test). */
function absent(b: Execution): boolean {
  return b.outcome === 'UNRUNNABLE' && b.kind === 'no_tests';
}

const cls = (status: ClaimClass['status'], c: string): ClaimClass => ({ status, class: c });

/** Classify one claim from its baseline run and its patch rounds; `rounds` is the number asked for. */
export function classifyClaim(
  baseline: Execution | null,
  patch: readonly Execution[],
  rounds: number,
  ctx: ClaimContext = {},
): ClaimClass {
  if (patch.length !== rounds || patch.length === 0) return cls('UNVERIFIED', 'unrunnable');
  const reruns = ctx.reruns ?? [];
  const patchAll = [...patch, ...reruns.filter((e) => e.side === 'patch')];
  const outcomes = new Set(patchAll.map((e) => e.outcome));
  if (outcomes.has('UNRUNNABLE')) return cls('UNVERIFIED', 'unrunnable');
  if (outcomes.size > 1)
    return cls('UNVERIFIED', outcomes.has('TIMED_OUT') && !outcomes.has('PASS') ? 'hang' : 'flaky');
  const only = patch[0]!.outcome;
  // A clean hang: the baseline passed the same command in half the limit, the patch never finished it.
  if (only === 'TIMED_OUT')
    return ctx.baselinePassedInTime === true ? cls('REFUTED', 'hang') : cls('UNVERIFIED', 'hang');
  if (only === 'PASS') {
    if (baseline === null) return cls('UNVERIFIED', 'baseline_red');
    if (baseline.outcome === 'FAIL') return cls('VERIFIED', 'fixed');
    if (baseline.outcome === 'PASS') return cls('VERIFIED', 'still_passing');
    if (absent(baseline)) return cls('VERIFIED', 'new_test');
    return cls('UNVERIFIED', 'baseline_red');
  }
  // every round FAIL: judge the tests that failed, when every round names them
  if (ctx.history !== undefined && patchAll.every((e) => e.tests !== null)) {
    const kinds = new Set(failureKinds(ctx.history).values());
    if (kinds.has('regression')) return cls('REFUTED', 'regression');
    if (kinds.has('new_failure')) return cls('REFUTED', 'new_bug');
    if (kinds.has('flaky')) return cls('UNVERIFIED', 'flaky');
    if (kinds.size > 0 && [...kinds].every((k) => k === 'already_failing')) return cls('UNVERIFIED', 'still_failing');
  }
  if (baseline === null) return cls('REFUTED', 'baseline_red');
  const before = [baseline, ...reruns.filter((e) => e.side === 'baseline')].map((e) => e.outcome);
  if (before.every((o) => o === 'PASS')) return cls('REFUTED', 'regression');
  if (before.every((o) => o === 'FAIL')) return cls('UNVERIFIED', 'still_failing');
  if (before.includes('PASS') && before.includes('FAIL')) return cls('UNVERIFIED', 'flaky');
  if (absent(baseline)) return cls('REFUTED', 'new_bug');
  return cls('REFUTED', 'baseline_red');
}
