/**
 * The differential check's verdict per mutant, as ag_mutate_judge.py writes it (see records/judge.ts).
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
