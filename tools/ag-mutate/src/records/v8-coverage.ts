/**
 * The files V8 writes under `NODE_V8_COVERAGE`, one per process. Only what ag-mutate reads
 * is checked (other fields pass), and a script's block ranges only for the scripts it wants
 * (a test process reports thousands of scripts). Internal, not part of the public contract
 * (see read.ts).
 * @module
 */
import * as v from 'valibot';

/** A coverage file: the scripts the process ran (their functions checked apart, by `V8Functions`). */
export const V8CoverageFile = v.looseObject({
  result: v.array(v.looseObject({ url: v.string(), functions: v.unknown() })),
});

/** One script's functions and their block ranges. */
export const V8Functions = v.array(
  v.looseObject({
    ranges: v.array(
      v.looseObject({
        startOffset: v.pipe(v.number(), v.integer(), v.minValue(0)),
        endOffset: v.pipe(v.number(), v.integer(), v.minValue(0)),
        count: v.pipe(v.number(), v.minValue(0)),
      }),
    ),
  }),
);
