/**
 * The answer file ag_mutate_judge.py writes: the mutants' differential check and the changed
 * functions' behaviour footprint, judged in a fresh interpreter apart from the tests.
 * @module
 */
import * as v from 'valibot';
import { FootprintFunction } from '@adversary-gate/schemas';
import { EquivalenceAnswer } from './equivalence.js';

/** What the artefact records of a function, but its repository path and name. */
const { file: _file, function: _function, ...measures } = FootprintFunction.entries;

/** One function's footprint as the judge writes it (`file` absolute, in the copy). */
export const FootprintAnswer = v.strictObject({
  ...measures,
  file: v.string(),
  qualname: v.pipe(v.string(), v.minLength(1)),
});
export type FootprintAnswer = v.InferOutput<typeof FootprintAnswer>;

/** The whole answer: whether the judge ended with nothing of pytest loaded, the mutants' answers by site index, the functions' footprints. */
export const JudgeAnswer = v.strictObject({
  runner_free: v.boolean(),
  mutants: v.record(v.string(), EquivalenceAnswer),
  functions: v.array(FootprintAnswer),
});
