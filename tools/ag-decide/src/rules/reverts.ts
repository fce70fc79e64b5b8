/**
 * The revert rule over mutation.json's `reverts`: a revert mutant puts the baseline's code back
 * on one hunk; when it survives, no test tells the change from no change.
 *
 * - The patch added or changed a test (a test-class file of the diff gained lines): it claims
 *   to pin a behaviour, so every hunk must be told apart from the baseline's code. A revert that
 *   survived or that no test executes holds `STRENGTH_BELOW_FLOOR` naming the hunk; one that was
 *   not judged (`stillborn`: the reverted file did not compile or load; `not_run`: the mutant
 *   budget left it out) holds `STRENGTH_UNVERIFIED` naming it: not measured is never a pass.
 * - Tests untouched (a pure refactor: behaviour must not change): a surviving revert is the
 *   expected outcome and is only reported (mutation.json, ag-mutate's stderr).
 *
 * Disabled with the strength requirement (floor 0) or the measurement (budget 0), and silent
 * where the strength is void anyway (`canary_killed` holds on its own).
 * @module
 */
import type { MutationArtefact, Policy, Reason } from '@adversary-gate/schemas';
import { revertName } from '@adversary-gate/core';
import { listForMessage, reason } from '../reasons.js';

/** The revert reasons; `testsChanged`: the test files the patch added lines to (sorted). */
export function revertReasons(m: MutationArtefact, policy: Policy, testsChanged: readonly string[]): Reason[] {
  const reverts = m.reverts ?? [];
  if (reverts.length === 0 || testsChanged.length === 0) return [];
  if (policy.floors.suite_strength === 0 || m.reason === 'canary_killed' || m.reason === 'budget_zero') return [];
  const tests = listForMessage(testsChanged, 3);
  const out: Reason[] = [];
  const missed = reverts.filter((r) => r.status === 'survived' || r.status === 'no_coverage');
  if (missed.length > 0)
    out.push(
      reason(
        'STRENGTH_BELOW_FLOOR',
        'mutation',
        `the patch changes tests (${tests}), yet no test tells ${missed.length > 1 ? 'these hunks' : 'this hunk'} from the baseline's code: the revert mutant (the baseline's lines put back) ${missed.length > 1 ? 'survived on each' : 'survived'}: ${listForMessage(missed.map((r) => `${revertName(r)}${r.status === 'no_coverage' ? ' (no test executes it)' : ''}`))}`,
      ),
    );
  const unjudged = reverts.filter((r) => r.status === 'stillborn' || r.status === 'not_run');
  if (unjudged.length > 0)
    out.push(
      reason(
        'STRENGTH_UNVERIFIED',
        'mutation',
        `the patch changes tests (${tests}), but whether a test tells ${unjudged.length > 1 ? 'these hunks' : 'this hunk'} from the baseline's code was not measured: ${listForMessage(unjudged.map((r) => `${revertName(r)} (${r.status === 'not_run' ? 'the mutant budget left its revert out' : 'its revert did not compile or load'})`))}`,
      ),
    );
  return out;
}
