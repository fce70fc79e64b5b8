/**
 * mutation.json, written by ag-mutate: would the tests notice if the changed lines were wrong?
 * @module
 */
import * as v from 'valibot';
import { envelopeEntries } from '../envelope.js';
import { Count, LineNumber, Ratio, RelPath } from '../primitives.js';

/** What became of one mutant. */
export const MutantStatus = v.picklist(['killed', 'survived', 'timeout', 'stillborn', 'no_coverage']);

/** Why suite_strength is null. */
export const StrengthNullReason = v.picklist([
  'no_source_changed',
  'budget_zero',
  'deletion_only',
  'baseline_red',
  'baseline_flaky',
  'no_mutants',
  'engine_failure',
  /** The suite failed on a behaviour-neutral edit of the changed files: its kills would prove nothing. */
  'neutral_edit_failed',
]);

/** One mutant. */
export const Mutant = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1)),
  file: RelPath,
  line: LineNumber,
  column: Count,
  operator: v.string(),
  original: v.string(),
  replacement: v.string(),
  status: MutantStatus,
  /** The test that killed it, when known. */
  killed_by: v.nullable(v.string()),
});

/**
 * Which tests each mutant ran: the runner recognised from the test command and how far
 * its tests could be narrowed to those that execute the mutated code.
 * - `per-test`: only the tests (pytest node ids) whose run executed the mutant's lines;
 * - `per-test-file`: only the test files whose process executed the mutant's code;
 * - `whole-command`: the whole test (or mutant) command.
 */
export const TestSelection = v.strictObject({
  runner: v.picklist(['node-test', 'pytest', 'mocha', 'vitest', 'jest', 'other']),
  mode: v.picklist(['per-test', 'per-test-file', 'whole-command']),
});

/** The mutation artefact. */
export const MutationArtefact = v.strictObject({
  ...envelopeEntries('mutation'),
  suite_strength: v.nullable(Ratio),
  suite_strength_unverified: v.boolean(),
  reason: v.nullable(StrengthNullReason),
  counts: v.strictObject({ killed: Count, survived: Count, timeout: Count, stillborn: Count, no_coverage: Count }),
  foreign_changed_files: v.array(RelPath),
  deleted_files: v.array(RelPath),
  mutants: v.array(Mutant),
  /** The mutant budget (`--max`), null when unbounded. */
  budget: v.nullable(Count),
  /** The shard this file holds (`{index: K, count: N}`), or null for a whole run. */
  shard: v.nullable(v.strictObject({ index: v.pipe(Count, v.minValue(1)), count: v.pipe(Count, v.minValue(1)) })),
  /** Where the mutants came from: the built-in engines or an imported report. */
  engine: v.picklist(['ag-mutate', 'stryker-import']),
  /** Whether the mutant runs were inside bubblewrap (as in run.json); absent for an import. */
  sandbox: v.optional(v.picklist(['none', 'bwrap'])),
  /** Which tests each mutant ran; absent for an import. */
  test_selection: v.optional(TestSelection),
});

export type MutationArtefact = v.InferOutput<typeof MutationArtefact>;
export type Mutant = v.InferOutput<typeof Mutant>;
