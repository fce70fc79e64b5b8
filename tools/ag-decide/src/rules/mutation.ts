/**
 * Rules over mutation.json: strength, its reasons for being null, unverified source.
 * @module
 */
import type { DiffcovArtefact, MutationArtefact, Policy, Reason } from '@adversary-gate/schemas';
import { strengthTally } from '@adversary-gate/core';
import { listForMessage, reason } from '../reasons.js';

type Counts = MutationArtefact['counts'];

const caughtOf = (c: Counts) => c.killed + c.timeout;
const missedOf = (c: Counts) => c.survived + c.no_coverage;
const sameCounts = (a: Counts, b: Counts) => caughtOf(a) === caughtOf(b) && missedOf(a) === missedOf(b);

/**
 * The share of changed executable lines the policy lets go without a mutant
 * (`mutation.unmutated_line_share`, a ratio; default 0: every such line needs one).
 */
export function unmutatedShareAllowed(policy: Policy): number {
  return policy.mutation.unmutated_line_share;
}

/** The files and functions below the floor that are not the whole patch (the total has its own reason). */
function weakParts(m: MutationArtefact, floor: number): string[] {
  const out: string[] = [];
  for (const f of m.by_file ?? []) {
    const part = (name: string, strength: number | null, c: Counts) => {
      if (strength !== null && strength < floor && !sameCounts(c, m.counts))
        out.push(`${name} ${strength.toFixed(4)} (${caughtOf(c)} killed, ${missedOf(c)} survived)`);
    };
    part(f.file, f.suite_strength, f.counts);
    for (const fn of f.functions)
      if (!sameCounts(fn.counts, f.counts)) part(`${f.file} ${fn.name}()`, fn.suite_strength, fn.counts);
  }
  return out;
}

/** The canaries that did not survive, named with the test that failed on them. */
function killedCanaries(m: MutationArtefact): string {
  const killed = (m.canaries ?? []).filter((c) => c.status === 'killed' || c.status === 'timeout');
  return listForMessage(
    killed.map(
      (c) =>
        `${c.file}:${c.line}${c.function ? ` ${c.function}()` : ''} ${c.status === 'timeout' ? 'timed out' : `killed by ${c.killed_by ?? 'the whole test command'}`}`,
    ),
  );
}

/** Why suite_strength is null, in words a reviewer reads. */
function nullReason(m: MutationArtefact): string {
  const r = m.reason;
  if (r === 'canary_killed')
    return `canary_killed: a test failed on a canary, a behaviour-neutral edit inside a changed function (${killedCanaries(m)}); the tests read the source text (String(fn), inspect.getsource, the file's bytes) or recognise a mutant run, so their kills prove nothing`;
  if (r === 'baseline_red')
    return "baseline_red: ag-mutate's own run of the unmutated patch tree failed, so no mutant ran (see baseline_runs in mutation.json)";
  if (r === 'baseline_flaky')
    return "baseline_flaky: ag-mutate's own runs of the unmutated patch tree disagreed, so no mutant ran (see baseline_runs in mutation.json)";
  return r ?? 'no reason given';
}

/**
 * True when the coverage evidence backs ag-mutate's `no_executable_change`: a computed
 * measurement with no uncovered changed line (coverage tools such as V8's count comment lines
 * too, so a count of zero cannot be asked for), or nothing to cover. Coverage that left a
 * changed line unexecuted, or no coverage evidence at all, leaves the strength not measured.
 */
export function coverageSeesNoExecutableLine(d: DiffcovArtefact | undefined): boolean {
  if (d === undefined) return false;
  if (d.diff_coverage_source === 'computed') return d.totals.uncovered === 0;
  return d.diff_coverage_source === 'none' && d.unmeasured_files !== undefined && d.unmeasured_files.length === 0;
}

/** A deletion-only patch whose every hunk has a revert mutant, each killed (or timed out), and no unjudged source. */
function deletionPinned(m: MutationArtefact): boolean {
  const reverts = m.reverts ?? [];
  return (
    reverts.length > 0 &&
    reverts.every((r) => r.status === 'killed' || r.status === 'timeout') &&
    !m.suite_strength_unverified
  );
}

/** Reasons, the measurement, and what was disabled. `diffcov` vouches for `no_executable_change`. */
export function mutationReasons(
  m: MutationArtefact,
  policy: Policy,
  diffcov?: DiffcovArtefact,
): { reasons: Reason[]; measurement: { value: number | null; source: string }; disabled: string[] } {
  const reasons: Reason[] = [];
  const disabled: string[] = [];
  const floor = policy.floors.suite_strength;
  if (floor === 0) disabled.push('suite_strength: floor is 0 (requirement disabled, not satisfied)');
  if (m.shard !== null) {
    reasons.push(
      reason(
        'STRENGTH_NOT_MEASURED',
        'mutation',
        `this is shard ${m.shard.index}/${m.shard.count}, not a merged result`,
      ),
    );
  }
  if (m.suite_strength_unverified || m.foreign_changed_files.length > 0 || m.deleted_files.length > 0) {
    const what = [
      ...m.foreign_changed_files.map((f) => `${f} (no engine)`),
      ...m.deleted_files.map((f) => `${f} (deleted)`),
    ];
    reasons.push(
      reason(
        'STRENGTH_UNVERIFIED',
        'mutation',
        `changed source no engine judged${what.length ? `: ${listForMessage(what)}` : ''}`,
      ),
    );
  }
  if (m.suite_strength === null) {
    if (m.reason === 'budget_zero') disabled.push('suite_strength: mutation budget is 0 (measurement disabled)');
    else if (m.reason === 'no_executable_change' && !coverageSeesNoExecutableLine(diffcov)) {
      reasons.push(
        reason(
          'STRENGTH_NOT_MEASURED',
          'mutation',
          'suite strength was not measured (no_executable_change: ag-mutate found no executable changed line, and the coverage evidence does not back it: a changed line was not executed, or coverage was not measured)',
        ),
      );
    } else if (m.reason === 'deletion_only' && deletionPinned(m)) {
      // Only removed lines, and every hunk's revert (the deleted code put back) was killed: the tests pin the deletion.
    } else if (
      m.reason !== 'no_source_changed' &&
      m.reason !== 'no_executable_change' &&
      m.reason !== 'dead_code_only'
    ) {
      reasons.push(reason('STRENGTH_NOT_MEASURED', 'mutation', `suite strength was not measured (${nullReason(m)})`));
    }
  } else if (floor > 0 && m.suite_strength < floor) {
    const { caught, missed, left_out } = strengthTally(m.mutants);
    const out = left_out > 0 ? `; ${left_out} type-breaking kill${left_out > 1 ? 's' : ''} not counted` : '';
    reasons.push(
      reason(
        'STRENGTH_BELOW_FLOOR',
        'mutation',
        `suite strength ${m.suite_strength.toFixed(4)} (${caught} killed, ${missed} survived${out}) is below the floor ${floor}`,
      ),
    );
  }
  if (m.suite_strength !== null && floor > 0) {
    const weak = weakParts(m, floor);
    if (weak.length > 0)
      reasons.push(
        reason(
          'STRENGTH_BELOW_FLOOR',
          'mutation',
          `part of the patch is below the floor ${floor}: ${listForMessage(weak)}`,
        ),
      );
  }
  if (m.suite_strength !== null && m.unmutated_lines !== undefined) {
    const count = m.unmutated_lines.reduce((a, u) => a + u.lines.length, 0);
    const allowed = unmutatedShareAllowed(policy);
    const share = count / Math.max(1, m.executable_line_count ?? count);
    if (count > 0 && share > allowed) {
      const where = m.unmutated_lines.map((u) => `${u.file}:${listForMessage(u.lines.map(String), 10)}`);
      reasons.push(
        reason(
          'STRENGTH_UNVERIFIED',
          'mutation',
          `${count} changed line${count > 1 ? 's' : ''} no mutant measured (the strength says nothing of ${count > 1 ? 'them' : 'it'}): ${listForMessage(where)}`,
        ),
      );
    }
  }
  return { reasons, measurement: { value: m.suite_strength, source: m.engine }, disabled };
}
