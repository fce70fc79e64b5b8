/**
 * The answer file ag_mutate_judge.py writes: the mutants' differential check and the changed
 * functions' behaviour footprint, judged in a fresh interpreter apart from the tests.
 * @module
 */
import * as v from 'valibot';
import { FootprintBaseline, FootprintFinding, FootprintRepeats } from '@adversary-gate/schemas';
import { EquivalenceAnswer } from './equivalence.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** One function's footprint as the judge writes it (`file` absolute, in the copy). */
export const FootprintAnswer = v.strictObject({
  file: v.string(),
  qualname: v.pipe(v.string(), v.minLength(1)),
  recorded_calls: Count,
  kept_calls: Count,
  distinct_calls: Count,
  unpicklable_calls: Count,
  measured: v.boolean(),
  note: v.nullable(v.string()),
  repeats: v.nullable(FootprintRepeats),
  baseline: v.nullable(FootprintBaseline),
  findings: v.array(FootprintFinding),
});
export type FootprintAnswer = v.InferOutput<typeof FootprintAnswer>;

/** The whole answer: whether the judge ended with nothing of pytest loaded, the mutants' answers by site index, the functions' footprints. */
export const JudgeAnswer = v.strictObject({
  runner_free: v.boolean(),
  mutants: v.record(v.string(), EquivalenceAnswer),
  functions: v.array(FootprintAnswer),
});
