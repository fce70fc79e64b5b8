/**
 * The records ag-mutate's hooks write during a recording run (runtime/record-entry.cjs,
 * runtime/mocha-hook.cjs, runtime/site-counter.cjs, python/pytest-plugin) and during a mutant run (the mocha hook's
 * list of tests started). Internal, not part of the public contract (see read.ts).
 * @module
 */
import * as v from 'valibot';

const Ms = v.pipe(v.number(), v.minValue(0));
const Offsets = v.array(v.pipe(v.number(), v.integer(), v.minValue(0)));
const Lines = v.array(v.pipe(v.number(), v.integer(), v.minValue(0)));

/** runtime/record-entry.cjs, one per Node process: the test file it ran for (null: none), whether it was that file's own process, how long it lived. */
export const EntryRecord = v.strictObject({
  unit: v.nullable(v.string()),
  root: v.boolean(),
  ms: Ms,
});

/** The pytest plugin, one per process: test node id ('' = outside every test) → file → lines run; durations per test. */
export const TraceRecord = v.strictObject({
  tests: v.record(v.string(), v.record(v.string(), Lines)),
  durations: v.record(v.string(), Ms),
});

/** The mocha hook, one per mocha process: which site offsets ran in each unit (test or test file). */
export const MochaRecord = v.strictObject({
  pid: v.pipe(v.number(), v.integer()),
  /** `test`: units are test ids (`file::full title`); `file`: units are test files. */
  granularity: v.picklist(['test', 'file']),
  /** Unit → absolute file → the site offsets that ran while the unit ran. */
  units: v.record(v.string(), v.record(v.string(), Offsets)),
  /** Site offsets that ran outside every unit (loading, hooks before the first test). */
  outside: v.record(v.string(), Offsets),
  /** Absolute file → extent of the script V8 ran (its text length when not transformed). */
  extents: v.record(v.string(), v.number()),
  durations: v.record(v.string(), Ms),
});
export type MochaRecord = v.InferOutput<typeof MochaRecord>;

/** runtime/site-counter.cjs, one per process or thread that ran a changed file without the mocha hook. */
export const CounterRecord = v.strictObject({
  pid: v.pipe(v.number(), v.integer()),
  thread: v.pipe(v.number(), v.integer()),
  /** Absolute file → the site offsets counted. */
  files: v.record(v.string(), Offsets),
  /** Absolute file → the length the instrumented file reports (its text's before the counters). */
  lengths: v.record(v.string(), v.number()),
});

/** The mocha hook, in the recording run: the test files that hold the suite's tests. */
export const MochaTestFiles = v.array(v.string());

/** One line of the mocha hook's list of the tests a mutant run started (a JSON string: the test id). */
export const RanLine = v.string();
