/**
 * What the JavaScript footprint's runtime writes: the call recorder's record of one process
 * (runtime/call-recorder.cjs) and the judge's outcomes (runtime/js-judge.cjs). Internal, not
 * part of the public contract (see read.ts).
 * @module
 */
import * as v from 'valibot';
import { Shape } from './judge.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** One recorded call: its carried arguments and what it answered in the test process (null: it never returned). */
const RecordedCall = v.strictObject({ args: v.array(v.unknown()), answer: v.nullable(v.string()) });

/** The calls a collaborator's mock answered inside the function's calls: their arguments and the answers' shapes. */
const MockCalls = v.strictObject({
  unrecordable: Count,
  calls: v.array(v.strictObject({ args: v.array(v.unknown()), shape: Shape })),
});

/** One process's record: its node, and per function key (`file#name`) the calls it made and its mocked collaborators'. */
export const CallsRecord = v.strictObject({
  executable: v.string(),
  functions: v.record(
    v.string(),
    v.strictObject({
      observed: Count,
      unrecordable: Count,
      calls: v.array(RecordedCall),
      mocks: v.optional(v.record(v.string(), MockCalls)),
    }),
  ),
});
export type CallsRecord = v.InferOutput<typeof CallsRecord>;

/** The judge's answer: per job, each input's outcomes in a row (null: the job could not be answered, `error` says why). */
export const JsJudgeAnswer = v.strictObject({
  jobs: v.array(
    v.strictObject({
      outcomes: v.nullable(v.array(v.array(v.string()))),
      error: v.nullable(v.string()),
    }),
  ),
});
export type JsJudgeAnswer = v.InferOutput<typeof JsJudgeAnswer>;
