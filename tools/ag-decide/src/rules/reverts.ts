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
 * - A hunk the differential check judged to change no answer (its revert, called outside the
 *   tests on every recorded call and its neighbours, answers as the patch does: a memo cache, an
 *   extracted variable) holds nothing when another revert of the patch was killed and its own
 *   mutants show the inputs reached it (none unexecuted or told apart, no condition part
 *   equivalent); alone, the patch would change nothing a test sees, and it keeps holding.
 * - A hunk that only adds one `if` (`added_guard`: a fast path, an early return) changes no
 *   answer when the mutant that makes its condition false (the revert's own code) was judged
 *   equivalent by the differential check, no mutant of its lines went unrun, every mutant of its
 *   body was killed (the tests run the body and pin its every part) and another revert of the
 *   patch was killed (the patch changes what a test sees elsewhere): its surviving revert holds
 *   nothing. A guard whose body no test runs (a trigger on an input nobody passes), whose body
 *   answers differently where no test looks (a survivor or an equivalent mutant in it), or whose
 *   condition has a connective, a comparison or a number no input told apart (it reaches inputs
 *   nobody tried), keeps holding. ag-mutate records `added_guard` only where the budget judged
 *   every mutant of the hunk's lines.
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
  const missed = reverts.filter(
    (r) =>
      (r.status === 'survived' || r.status === 'no_coverage') &&
      !guardChangesNothing(m, r) &&
      !hunkChangesNoAnswer(m, r),
  );
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

type Revert = NonNullable<MutationArtefact['reverts']>[number];

/**
 * A surviving revert of one hunk that the differential check judged probably equivalent (the
 * function answers alike on every recorded call and its neighbours, the function's own
 * constants among them: a memo cache, an extracted variable), while another revert of the
 * patch was killed (the patch changes what a test sees elsewhere: it is no no-op "fix"), and
 * the hunk's own mutants say the inputs reached it: none unexecuted, none a survivor the
 * check told apart, no connective, comparison or number equivalent (a condition that reaches
 * inputs nobody tried). An added guard goes by its own rule alone.
 */
export function hunkChangesNoAnswer(m: MutationArtefact, r: Revert): boolean {
  if (r.status !== 'survived' || r.scope === 'file' || r.added_guard === true) return false;
  if (r.equivalence?.verdict !== 'probably_equivalent' || !anotherRevertKilled(m, r)) return false;
  return mutantsInHunk(m, r).every(
    (x) =>
      x.status === 'killed' ||
      x.status === 'timeout' ||
      x.status === 'stillborn' ||
      (x.status === 'equivalent' && !CONDITION_PARTS.has(x.operator)),
  );
}

/** Whether a revert of the patch other than `r` was killed: the patch changes what a test sees. */
function anotherRevertKilled(m: MutationArtefact, r: Revert): boolean {
  return (m.reverts ?? []).some((x) => x !== r && (x.status === 'killed' || x.status === 'timeout'));
}

/** The mutants on the patch lines `r` replaces. */
function mutantsInHunk(m: MutationArtefact, r: Revert): MutationArtefact['mutants'] {
  return m.mutants.filter((x) => x.file === r.file && x.line >= r.new_start && x.line < r.new_start + r.new_lines);
}

/** Mutants of a guard's condition that must not be equivalent for the guard to be read as changing nothing. */
const CONDITION_PARTS = new Set(['LogicalOperator', 'EqualityOperator', 'NumberLiteral']);

/** A surviving `added_guard` revert whose guard changes no answer (see the module's rule). */
export function guardChangesNothing(m: MutationArtefact, r: Revert): boolean {
  if (r.added_guard !== true || r.status !== 'survived' || !anotherRevertKilled(m, r)) return false;
  const inHunk = mutantsInHunk(m, r);
  const conditions = inHunk.filter((x) => x.operator === 'ConditionalExpression');
  if (conditions.length === 0) return false;
  const head = Math.min(...conditions.map((x) => x.line));
  const madeFalse = conditions.find((x) => x.line === head && /^false$/i.test(x.replacement));
  const body = inHunk.filter((x) => x.line > head);
  // A connective, a comparison or a number of the condition that no input told apart: the
  // condition reaches inputs no test or probe passes (`… or len(text) > 12`).
  const unprobed = inHunk.some((x) => x.line === head && x.status === 'equivalent' && CONDITION_PARTS.has(x.operator));
  return (
    !unprobed &&
    madeFalse?.status === 'equivalent' &&
    inHunk.every((x) => x.status !== 'no_coverage') &&
    body.length > 0 &&
    body.every((x) => x.status === 'killed' || x.status === 'timeout')
  );
}
