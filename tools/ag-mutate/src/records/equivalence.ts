/**
 * The answer file ag_mutate_equiv.py writes: the differential check's verdict per mutant.
 * @module
 */
import * as v from 'valibot';

/** The check's answer for one mutant. */
export const EquivalenceAnswer = v.strictObject({
  verdict: v.picklist(['probably_equivalent', 'distinguished', 'inconclusive']),
  recorded_calls: v.pipe(v.number(), v.integer(), v.minValue(0)),
  inputs: v.pipe(v.number(), v.integer(), v.minValue(0)),
  note: v.string(),
});
export type EquivalenceAnswer = v.InferOutput<typeof EquivalenceAnswer>;

/** The whole answer file: each asked mutant's answer by its site index. */
export const EquivalenceAnswers = v.strictObject({ mutants: v.record(v.string(), EquivalenceAnswer) });
