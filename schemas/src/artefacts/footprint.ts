/**
 * The behaviour footprint of a change (mutation.json's `footprint`): the calls the tests made
 * into each changed function, judged again apart from the test process.
 * @module
 */
import * as v from 'valibot';
import { Count, RelPath } from '../primitives.js';

/**
 * What the footprint saw in one function, each naming the call (as Python text, shortened).
 * `stateful`: the same call answers differently the second time, and the patch made it so (the
 * function is new, or the baseline's version answers the same twice); `runner_dependent`: the
 * function answers differently when the test runner is loaded; `special_case`: the patch changes
 * the answer at this recorded call and at none of the neighbouring inputs; `mock_contradicted`: a
 * collaborator of the function (a function of the project it calls) was replaced in the tests by
 * one whose answer at this call (`call` names the collaborator's call) cannot be the real one's,
 * which answers a value of another kind (a float where it answers an int, a key it never has).
 */
export const FootprintFinding = v.strictObject({
  kind: v.picklist(['stateful', 'runner_dependent', 'special_case', 'mock_contradicted']),
  call: v.pipe(v.string(), v.minLength(1)),
  detail: v.string(),
});

/** The repeated calls: how many were made twice, and how many answered differently. */
export const FootprintRepeats = v.strictObject({ checked: Count, differed: Count });

/** The baseline's version against the patch's: where their answers differ. */
export const FootprintBaseline = v.strictObject({
  recorded_differ: Count,
  neighbours: Count,
  neighbours_differ: Count,
});

/** One changed function's footprint. */
export const FootprintFunction = v.strictObject({
  file: RelPath,
  function: v.pipe(v.string(), v.minLength(1)),
  /** Calls the tests made into it (repeats included); `kept`: the ones recorded (a cap); `distinct`: without repeats. */
  recorded_calls: Count,
  kept_calls: Count,
  distinct_calls: Count,
  /** Calls whose arguments could not be carried out of the test process (not picklable, or needing a test's module). */
  unpicklable_calls: Count,
  /** False: some question could not be answered (`note` says which and why); findings made are kept either way. */
  measured: v.boolean(),
  note: v.nullable(v.string()),
  /** The recorded calls each made twice in a row: how many, and how many answered differently (null: not made). */
  repeats: v.nullable(FootprintRepeats),
  /**
   * The baseline's version against the patch's: distinct recorded calls and neighbouring inputs
   * (those where a version returned normally) where their answers differ; for a new function,
   * the same against itself with its guards keyed on exact values made false (`if year ==
   * 1900: return …`); null for a new function with no such guard, or when it could not be
   * compared.
   */
  baseline: v.nullable(FootprintBaseline),
  findings: v.array(FootprintFinding),
});

/**
 * The footprint of the whole run. `measured`: the recording run and the judge both answered
 * (each function then says what it could measure); `not_measured`: they did not (`note` says
 * why; a HOLD); `not_applicable`: the footprint is built for Python under pytest and
 * JavaScript under node --test or mocha, with a per-test map, and this run had none, or no changed function a test covers (`note`).
 */
export const Footprint = v.strictObject({
  status: v.picklist(['measured', 'not_measured', 'not_applicable']),
  note: v.nullable(v.string()),
  functions: v.array(FootprintFunction),
});

export type Footprint = v.InferOutput<typeof Footprint>;
export type FootprintFunction = v.InferOutput<typeof FootprintFunction>;
