/**
 * The answer file ag_mutate_judge.py writes: what the changed Python functions and the
 * survivors' versions answered in a fresh interpreter apart from the tests, raw (the rules in
 * apart/rules.ts decide from it; see apart/py-evidence.ts).
 * @module
 */
import * as v from 'valibot';
import type { Shape as ShapeType } from '../apart/contract-rules.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const IntText = v.pipe(v.string(), v.regex(/^-?\d+$/));
/** Each input's outcomes in a row (null: that version could not be called). */
const Rows = v.nullable(v.array(v.array(v.string())));
/** Each input's one answer (null: that version could not be called). */
const Answers = v.nullable(v.array(v.string()));

/** One argument of a recorded call (apart/argument-rules.ts's ArgFact). */
const ArgFact = v.variant('kind', [
  v.strictObject({ kind: v.literal('none') }),
  v.strictObject({ kind: v.literal('bool') }),
  v.strictObject({ kind: v.literal('int'), value: IntText, exact: v.boolean() }),
  v.strictObject({ kind: v.literal('float'), value: v.string() }),
  v.strictObject({ kind: v.literal('str'), value: v.nullable(v.string()), size: Count }),
  v.strictObject({ kind: v.literal('sized'), size: Count }),
  v.strictObject({ kind: v.literal('other') }),
]);

/** A value's shape (ag_mutate_contract.py; apart/contract-rules.ts's Shape). */
export const Shape: v.GenericSchema<ShapeType> = v.lazy(() =>
  v.variant('t', [
    v.strictObject({ t: v.picklist(['none', 'bool', 'int', 'float', 'complex', 'str', 'bytes', 'mock', 'iter']) }),
    v.strictObject({ t: v.picklist(['seq', 'set']), items: v.array(Shape) }),
    v.strictObject({ t: v.literal('map'), keys: v.nullable(v.record(v.string(), Shape)), items: v.array(Shape) }),
    v.strictObject({ t: v.picklist(['object', 'raise']), type: v.string() }),
  ]),
);

/** A replaced collaborator: the calls its replacement answered in the tests, and the real one's two answers to each. */
const Contract = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1)),
  problem: v.nullable(v.string()),
  unpicklable: Count,
  mock_answers: Count,
  raises: v.array(v.string()),
  calls: v.array(
    v.strictObject({
      text: v.string(),
      mock: Shape,
      real: v.nullable(v.array(v.strictObject({ answer: v.string(), shape: v.nullable(Shape) }))),
    }),
  ),
});

/** The footprint's answers (ag_mutate_footprint.py); all null but `problem` when nothing could be asked. */
const FootprintAnswers = v.strictObject({
  /** Why nothing could be asked: the module could not be imported, the function read again. */
  problem: v.nullable(v.string()),
  parameters: v.nullable(v.strictObject({ positional: v.array(v.string()), other: Count })),
  /** The constants of the baseline's version of the function (null: the baseline has none). */
  baseline_literals: v.nullable(v.strictObject({ ints: v.array(IntText), strs: v.array(v.string()) })),
  /** A new function's constants once its keyed guards are made false (null: not new, or no such guard): `special` then compares with that version. */
  unguarded_literals: v.nullable(v.strictObject({ ints: v.array(IntText), strs: v.array(v.string()) })),
  twice: v.nullable(v.strictObject({ first: Rows, second: Rows, old: Rows })),
  runner: v.nullable(v.strictObject({ plain: Answers, again: Answers, marked: Answers })),
  /** The distinct recorded calls then their neighbours (null: no baseline version and no keyed guard). */
  special: v.nullable(v.strictObject({ patched: Answers, old: Answers })),
  /** The collaborators the tests replaced, judged against the real ones. */
  contracts: v.array(Contract),
});

/** The survivors' check's outcomes (ag_mutate_equiv.py's measure_mutants), mutants by site index. */
const EquivalenceOutcomes = v.strictObject({
  problem: v.nullable(v.string()),
  /** Every input as text, the distinct recorded calls first (empty: none was called). */
  inputs: v.array(v.string()),
  /** The module's own function on the distinct recorded calls. */
  live: Rows,
  /** The function rebuilt from the file's text, on every input. */
  reference: Rows,
  mutants: v.record(v.string(), Rows),
});

/** One function's answers (`file` absolute, in the copy). */
const FunctionAnswers = v.strictObject({
  file: v.string(),
  qualname: v.pipe(v.string(), v.minLength(1)),
  recorded_calls: Count,
  kept_calls: Count,
  unpicklable_calls: Count,
  /** Every loaded call as text, repeats kept, in order. */
  calls: v.array(v.string()),
  /** The distinct calls: their text and their arguments. */
  distinct: v.array(v.strictObject({ text: v.string(), args: v.array(ArgFact) })),
  footprint: v.nullable(FootprintAnswers),
  equivalence: v.nullable(EquivalenceOutcomes),
});
export type FunctionAnswers = v.InferOutput<typeof FunctionAnswers>;

/** The whole answer: whether the judge ended with nothing of pytest loaded, and each function's answers. */
export const JudgeAnswer = v.strictObject({
  runner_free: v.boolean(),
  functions: v.array(FunctionAnswers),
});
