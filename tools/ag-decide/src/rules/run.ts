/**
 * Rules over run.json: claims, the full suite, per-test deltas, acceptance criteria, writes
 * outside the tree copies.
 * @module
 */
import type { Reason, RunArtefact } from '@adversary-gate/schemas';
import { listForMessage, reason } from '../reasons.js';

/** Every reason the run evidence gives. */
export function runReasons(run: RunArtefact): Reason[] {
  const out: Reason[] = [];
  if (run.claims.length === 0) out.push(reason('CLAIM_UNVERIFIED', 'run', 'the run evidence holds no claim: nothing was verified'));
  for (const claim of run.claims) {
    if (claim.status === 'REFUTED') {
      out.push(reason('CLAIM_FAILED', 'run', `claim ${claim.id} failed on the patch in every round (${claim.class})`));
    } else if (claim.status === 'UNVERIFIED') {
      out.push(reason('CLAIM_UNVERIFIED', 'run', `claim ${claim.id} is unverified (${claim.class})`));
    }
  }
  const base = run.full_suite.baseline;
  const patch = run.full_suite.patch;
  if (base === null) out.push(reason('CLAIM_UNVERIFIED', 'run', 'the full suite did not run on the baseline'));
  else if (base.outcome !== 'PASS') out.push(reason('BASELINE_RED', 'run', `the full suite is ${base.outcome} on the baseline (${base.kind})`));
  if (patch === null) out.push(reason('CLAIM_UNVERIFIED', 'run', 'the full suite did not run on the patch'));
  else if (patch.outcome === 'FAIL' && base?.outcome === 'PASS') {
    out.push(reason('COLLATERAL_REGRESSION', 'run', 'the full suite passed on the baseline and fails on the patch'));
  } else if (patch.outcome === 'UNRUNNABLE' || patch.outcome === 'TIMED_OUT') {
    out.push(reason('CLAIM_UNVERIFIED', 'run', `the full suite is ${patch.outcome} on the patch (${patch.kind})`));
  }
  const deltas = run.test_deltas;
  if (deltas === null) {
    out.push(reason('CLAIM_UNVERIFIED', 'run', 'no per-test report on both sides: lost or newly skipped tests could not be checked'));
  } else {
    if (deltas.tests_lost.length > 0) {
      out.push(reason('TEST_LOST', 'run', `tests present on the baseline are absent on the patch: ${listForMessage(deltas.tests_lost)}`));
    }
    if (deltas.tests_newly_skipped.length > 0) {
      out.push(reason('TEST_SKIPPED', 'run', `tests newly skipped, todo or filtered: ${listForMessage(deltas.tests_newly_skipped)}`));
    }
    if (deltas.tests_pass_to_fail.length > 0) {
      out.push(reason('COLLATERAL_REGRESSION', 'run', `tests that passed on the baseline fail on the patch: ${listForMessage(deltas.tests_pass_to_fail)}`));
    }
  }
  for (const c of run.criteria) {
    if (!c.proven) out.push(reason('CRITERION_UNPROVEN', 'run', `criterion ${c.id} is not proven: ${c.why}`));
  }
  out.push(...writeWatchReasons(run));
  return out;
}

/**
 * Writes the tests must not make: into the original trees or the evidence directory while they
 * ran, or into a run's copy after its process group was killed and its report read. Tampering
 * suspected (HOLD), not proven: a watched directory can also change by another hand in the
 * same window, and the writes may not have changed any measured number.
 */
export function writeWatchReasons(run: RunArtefact): Reason[] {
  const w = run.write_watch;
  if (w === undefined) return [];
  const out: Reason[] = [];
  if (w.outside_changes_total > 0) {
    const listed = w.outside_changes.map((c) => `${c.role}:${c.path} (${c.change})`);
    out.push(reason('TAMPER_SUSPECTED', 'run', `the tests wrote outside their tree copy (${w.outside_changes_total} changes): ${listForMessage(listed)}`));
  }
  if (w.late_changes_total > 0) {
    const listed = w.late_changes.map((c) => `${c.side} round ${c.round}:${c.path} (${c.change})`);
    out.push(reason('TAMPER_SUSPECTED', 'run', `files of a run's copy changed after its processes were killed and its report read (${w.late_changes_total} changes): ${listForMessage(listed)}`));
  }
  return out;
}
