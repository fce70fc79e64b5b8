/**
 * Invariants of mutation.json, including a cross-check against the diff itself.
 * @module
 */
import type { MutationArtefact } from '@adversary-gate/schemas';
import { sameRatio } from './changed-lines.js';

/** The first broken invariant, or null. `sourceLines` is what the diff says changed. */
export function mutationProblem(m: MutationArtefact, sourceLines: Map<string, ReadonlySet<number>>, addedLines: Map<string, ReadonlySet<number>>): string | null {
  const tally = { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 };
  const ids = new Set<string>();
  for (const mutant of m.mutants) {
    if (ids.has(mutant.id)) return `mutant ${mutant.id} appears twice`;
    ids.add(mutant.id);
    tally[mutant.status]++;
    if (!addedLines.get(mutant.file)?.has(mutant.line)) return `mutant ${mutant.id} is on ${mutant.file}:${mutant.line}, not an added line of this diff`;
  }
  for (const key of Object.keys(tally) as (keyof typeof tally)[]) {
    if (tally[key] !== m.counts[key]) return `counts.${key} is ${m.counts[key]} but ${tally[key]} mutants have that status`;
  }
  const { killed, timeout, survived, no_coverage } = m.counts;
  const denominator = killed + timeout + survived + no_coverage;
  if (m.suite_strength === null) {
    if (m.reason === null) return 'suite_strength is null without a reason';
    if (m.reason === 'no_source_changed' && sourceLines.size > 0) return `reason no_source_changed, yet the diff changes source: ${[...sourceLines.keys()][0]}`;
  } else {
    if (m.reason !== null) return 'a reason is given for a strength that is not null';
    if (denominator === 0) return 'a strength with no killed or survived mutant';
    if (!sameRatio(m.suite_strength, (killed + timeout) / denominator)) return `suite_strength ${m.suite_strength} is not (killed+timeout)/(killed+timeout+survived+no_coverage)`;
  }
  return null;
}
