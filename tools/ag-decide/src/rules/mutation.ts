/**
 * Rules over mutation.json: strength, its reasons for being null, unverified source.
 * @module
 */
import type { MutationArtefact, Policy, Reason } from '@adversary-gate/schemas';
import { listForMessage, reason } from '../reasons.js';

/** Reasons, the measurement, and what was disabled. */
export function mutationReasons(m: MutationArtefact, policy: Policy): { reasons: Reason[]; measurement: { value: number | null; source: string }; disabled: string[] } {
  const reasons: Reason[] = [];
  const disabled: string[] = [];
  const floor = policy.floors.suite_strength;
  if (floor === 0) disabled.push('suite_strength: floor is 0 (requirement disabled, not satisfied)');
  if (m.shard !== null) {
    reasons.push(reason('STRENGTH_NOT_MEASURED', 'mutation', `this is shard ${m.shard.index}/${m.shard.count}, not a merged result`));
  }
  if (m.suite_strength_unverified || m.foreign_changed_files.length > 0 || m.deleted_files.length > 0) {
    const what = [...m.foreign_changed_files.map((f) => `${f} (no engine)`), ...m.deleted_files.map((f) => `${f} (deleted)`)];
    reasons.push(reason('STRENGTH_UNVERIFIED', 'mutation', `changed source no engine judged${what.length ? `: ${listForMessage(what)}` : ''}`));
  }
  if (m.suite_strength === null) {
    if (m.reason === 'budget_zero') disabled.push('suite_strength: mutation budget is 0 (measurement disabled)');
    else if (m.reason !== 'no_source_changed') {
      reasons.push(reason('STRENGTH_NOT_MEASURED', 'mutation', `suite strength was not measured (${m.reason ?? 'no reason given'})`));
    }
  } else if (floor > 0 && m.suite_strength < floor) {
    const { killed, timeout, survived, no_coverage } = m.counts;
    reasons.push(
      reason(
        'STRENGTH_BELOW_FLOOR',
        'mutation',
        `suite strength ${m.suite_strength.toFixed(4)} (${killed + timeout} killed, ${survived + no_coverage} survived) is below the floor ${floor}`,
      ),
    );
  }
  return { reasons, measurement: { value: m.suite_strength, source: m.engine }, disabled };
}
