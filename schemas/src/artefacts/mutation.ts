/**
 * mutation.json, written by ag-mutate: would the tests notice if the changed lines were wrong?
 * @module
 */
import * as v from 'valibot';
import { envelopeEntries } from '../envelope.js';
import { Footprint } from './footprint.js';
import { Count, LineNumber, Ratio, RelPath } from '../primitives.js';

/**
 * What became of one mutant. `equivalent`: it survived, and the differential check of its
 * function found no input on which it gives another outcome (probably equivalent, with the
 * evidence in `equivalence`); it counts neither for nor against the strength.
 */
export const MutantStatus = v.picklist(['killed', 'survived', 'timeout', 'stillborn', 'no_coverage', 'equivalent']);

/**
 * The differential check of a survivor's function: its versions called on the calls the
 * covering tests made (`recorded_calls`) and on neighbours of them (`inputs` in all).
 * `probably_equivalent` (the status is then `equivalent`): the same outcome on every input;
 * `distinguished`: `note` names an input that tells the mutant apart; `inconclusive`: `note`
 * says why nothing was concluded. The last two stay survivors.
 */
export const Equivalence = v.strictObject({
  verdict: v.picklist(['probably_equivalent', 'distinguished', 'inconclusive']),
  recorded_calls: Count,
  inputs: Count,
  note: v.string(),
});

/** Why suite_strength is null. */
export const StrengthNullReason = v.picklist([
  'no_source_changed',
  'budget_zero',
  'deletion_only',
  /**
   * The patch only removes lines of code, and every hunk needs no revert: it deletes whole
   * private definitions no file of the tree names any more (dead code), or only follows a
   * moved file's new name; or whole files nothing can load any more (`dead_files`). Nothing a
   * test could pin changed.
   */
  'dead_code_only',
  'baseline_red',
  'baseline_flaky',
  'no_mutants',
  /** Source changed, but none of its changed lines is executable (comments, blank lines, type-only text): nothing to mutate. */
  'no_executable_change',
  'engine_failure',
  /** The suite failed on a behaviour-neutral edit of the changed files: its kills would prove nothing. */
  'neutral_edit_failed',
  /**
   * A test failed on a canary, a behaviour-neutral edit inside a changed function's body (see
   * `canaries`): the tests read the source text or recognise the run, so their kills prove nothing.
   */
  'canary_killed',
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
  /** The function (or method) the mutant is in, `Class.method` where known; null at module level. */
  function: v.optional(v.nullable(v.string())),
  /**
   * How the deciding run ended when it was neither a pass nor a test failure (`exit 2`,
   * `signal SIGKILL`, `could not run: …`): such a run proves no kill, so the mutant is a survivor.
   */
  ended: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** Wall-clock time of the mutant's runs, in milliseconds (the clean-tree checks excluded). */
  duration_ms: v.optional(v.pipe(v.number(), v.minValue(0))),
  /** CPU time of the mutant's runs, in milliseconds (their processes, user + system), where it could be measured. */
  cpu_ms: v.optional(v.pipe(v.number(), v.minValue(0))),
  /** The differential check of a survivor's function, where it was asked (Python survivors in a function under pytest; JavaScript ones under node --test or mocha). */
  equivalence: v.optional(Equivalence),
  /**
   * True when the mutant only breaks the value's type (a function body emptied, `return undefined`
   * / `return None`, a computed value → `undefined` / `None`): any test that runs it and uses the
   * value fails, so its kill says little. Such a mutant counts toward the strength only as a miss,
   * or where the whole measured set holds no other kind (see `suite_strength`). Absent: false.
   */
  breaks_type: v.optional(v.boolean()),
});

/**
 * A revert mutant: one hunk of the diff (as `git diff -U0` splits them: a run of removed and
 * added lines) with the baseline's code put back (the removed lines replacing the added ones;
 * for a pure deletion, the deleted lines put back), judged exactly as a mutant is. It is never
 * counted in `counts`, `by_file` or the strength. `survived`/`no_coverage`: no test tells the
 * change from no change; `stillborn`: the reverted file did not compile or load here, and
 * `not_run`: the mutant budget (`--max`) left it out (neither is evidence either way).
 */
export const Revert = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1)),
  file: RelPath,
  /** The hunk's header, `@@ -old_start,old_lines +new_start,new_lines @@` (several hunks when one alone did not parse). */
  hunk: v.pipe(v.string(), v.minLength(1)),
  /** The old-side (baseline) lines put back: first line and count (0: nothing put back, a pure addition). */
  old_start: Count,
  old_lines: Count,
  /** The new-side (patch) lines replaced: first line and count (0: a pure deletion, put back before `new_start`). */
  new_start: Count,
  new_lines: Count,
  /** The replaced patch text and the baseline text put back (each shortened to 200 characters). */
  original: v.string(),
  replacement: v.string(),
  status: v.picklist(['killed', 'survived', 'timeout', 'stillborn', 'no_coverage', 'not_run']),
  killed_by: v.nullable(v.string()),
  function: v.optional(v.nullable(v.string())),
  /**
   * `file`: every hunk revert of the file put back at once (the file's part of the patch's tests
   * against the baseline's source: hunks that compensate each other each die alone, and survive
   * together); `hunk` its span. Absent: one hunk (or the few merged because one alone did not parse).
   */
  scope: v.optional(v.literal('file')),
  /**
   * True when the hunk only adds one `if` statement with no `else` (a fast path, an early
   * return): its revert is the code of the mutant that makes that condition false. Absent: false.
   */
  added_guard: v.optional(v.literal(true)),
  /**
   * A surviving revert of one hunk inside a named function, asked as a survivor is: called on
   * every recorded call and its neighbours outside the tests, does the function answer as the
   * patch's does? `probably_equivalent`: the hunk changes no answer any input tried shows (a
   * memo cache, a variable extracted), so no test could tell it apart. Absent: not asked.
   */
  equivalence: v.optional(Equivalence),
  ended: v.optional(v.pipe(v.string(), v.minLength(1))),
  duration_ms: v.optional(v.pipe(v.number(), v.minValue(0))),
  cpu_ms: v.optional(v.pipe(v.number(), v.minValue(0))),
});

/**
 * A canary: a behaviour-neutral edit of a changed function's body (a no-op statement with a
 * random token, `void "ag_…";` or `; b"ag_…"`), run exactly as a mutant is (same copies,
 * command, environment and selection of the tests that execute it). It must survive: a
 * test that fails on it reads the source text (`String(fn)`, `inspect.getsource`, the
 * file's bytes) or recognises a mutant run. Its outcome never counts toward the strength.
 * `status`: `survived` (every covering test passed), `no_coverage` (no test executes the
 * function: not run), `killed` or `timeout` (a test failed on it: `reason` is
 * `canary_killed`), `stillborn` (the edit did not compile or load here: no evidence either
 * way, a fault says so and the strength is unverified).
 */
export const Canary = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1)),
  file: RelPath,
  /** Where the edit starts (1-based line, column); not necessarily an added line. */
  line: LineNumber,
  column: Count,
  /** The function (or method) whose body was edited, `Class.method` where known; null when anonymous. */
  function: v.nullable(v.string()),
  /** The replaced text (empty for an insertion) and what replaced it. */
  original: v.string(),
  replacement: v.string(),
  status: v.picklist(['killed', 'survived', 'timeout', 'stillborn', 'no_coverage']),
  /** The test whose failure killed it, when the run named one. */
  killed_by: v.nullable(v.string()),
  /** How the deciding run ended when it was neither a pass nor a test failure. */
  ended: v.optional(v.pipe(v.string(), v.minLength(1))),
  duration_ms: v.optional(v.pipe(v.number(), v.minValue(0))),
  cpu_ms: v.optional(v.pipe(v.number(), v.minValue(0))),
});

/**
 * An equality probe: one per equality hook the patch adds or changes in a changed file (a
 * JavaScript/TypeScript class method named `equals`, `isEqual` or `equal`, a Python `__eq__`),
 * and one per such hook the patch left as it was in a class it gives public fields the hook
 * does not read,
 * the hook made strict and judged exactly as a mutant is (same copies, command, environment and
 * selection of the tests that execute the hook). The probe answers "not equal" wherever the
 * strict comparison tells the two values apart, and the patch's own answer elsewhere: the
 * baseline's hook where the baseline has the same one (`comparison: baseline`), else a strict
 * field-by-field comparison (`fields`: JavaScript, the same prototype and every own enumerable
 * key deeply and strictly equal; Python, `type(other) is type(self)` and the instance state,
 * `vars()` and `__slots__`, equal, `NotImplemented` for another type). `status`: `killed` or
 * `timeout` (a test passes only because the hook equates values that differ: ag-decide holds
 * `EQUALITY_LOOSENED`), `survived` and `no_coverage` (nothing to say), `stillborn` (the probe did
 * not compile or load here, or could not be built for the hook) and `not_run` (past the run's
 * probe limit): not measured, an `EQUALITY_PROBE_UNJUDGED` fault says so. Never counted toward
 * the strength.
 */
export const EqualityProbe = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1)),
  file: RelPath,
  /** Where the hook is defined (its `def`, or its method name): 1-based line and column. */
  line: LineNumber,
  column: Count,
  /** The hook, `Class.method` (`<anonymous>.equals` for a class with no name). */
  hook: v.pipe(v.string(), v.minLength(1)),
  /**
   * What the probe compares through: the baseline's own hook, every field strictly, or (a hook
   * the patch left as it was, in a class it gives new public fields) the patch's own hook with
   * those fields equal too (`new_fields`, named in `fields`).
   */
  comparison: v.picklist(['baseline', 'fields', 'new_fields']),
  /** With `new_fields`: the public fields the patch gives the class that the hook does not read. */
  fields: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  /** The replaced text (empty for an insertion) and what replaced it (shortened to 200 characters). */
  original: v.string(),
  replacement: v.string(),
  status: v.picklist(['killed', 'survived', 'timeout', 'stillborn', 'no_coverage', 'not_run']),
  /** The test whose failure killed it, when the run named one. */
  killed_by: v.nullable(v.string()),
  ended: v.optional(v.pipe(v.string(), v.minLength(1))),
  duration_ms: v.optional(v.pipe(v.number(), v.minValue(0))),
  cpu_ms: v.optional(v.pipe(v.number(), v.minValue(0))),
});

/** Mutants per status; `equivalent` only when some are (it is in no denominator). */
const Counts = v.strictObject({
  killed: Count,
  survived: Count,
  timeout: Count,
  stillborn: Count,
  no_coverage: Count,
  equivalent: v.optional(Count),
});

/** The strength of one part of the patch (a changed file or a function in it): the floor applies to each. */
const PartStrength = {
  suite_strength: v.nullable(Ratio),
  counts: Counts,
};

/** Strength per changed file, and per function in it where the engine knows the function. */
export const FileStrength = v.strictObject({
  file: RelPath,
  ...PartStrength,
  functions: v.array(v.strictObject({ name: v.pipe(v.string(), v.minLength(1)), ...PartStrength })),
});

/** Changed executable source lines of one file on which no mutant was measured. */
export const UnmutatedLines = v.strictObject({
  file: RelPath,
  lines: v.array(LineNumber),
});

/** One run of the unmutated patch tree by ag-mutate itself (its baseline). */
export const BaselineRun = v.strictObject({
  /** `recorded` (with the coverage recording), `neutral` (the behaviour-neutral edit), `plain`. */
  kind: v.picklist(['recorded', 'neutral', 'plain']),
  exit_code: v.nullable(v.number()),
  signal: v.nullable(v.string()),
  timed_out: v.boolean(),
  duration_ms: v.pipe(v.number(), v.minValue(0)),
  /** Bytes written on stdout and stderr. */
  stdout_bytes: Count,
  stderr_bytes: Count,
  /** The last characters of stdout and stderr (at most 4000 each). */
  stdout_tail: v.string(),
  stderr_tail: v.string(),
  /** Why the run was not green (null when it was): `exit 1`, `signal SIGKILL`, `timeout`, `could not run: …`. */
  problem: v.nullable(v.string()),
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
  /**
   * caught / (caught + missed) over the mutants that count (ag-core's `strengthTally`): every
   * mutant that does not only break types (`breaks_type`), killed or timed out (caught) or
   * survived or uncovered (missed), plus the type-breaking ones that were missed; when no other
   * mutant counts, the type-breaking ones alone. Null with a `reason`.
   */
  suite_strength: v.nullable(Ratio),
  suite_strength_unverified: v.boolean(),
  reason: v.nullable(StrengthNullReason),
  counts: Counts,
  foreign_changed_files: v.array(RelPath),
  deleted_files: v.array(RelPath),
  /**
   * Source files the patch deleted whole that nothing can load any more (a private Python
   * module, `_name.py`, that no code file of the tree names): dead code, not in
   * `deleted_files`. Absent: none.
   */
  dead_files: v.optional(v.array(RelPath)),
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
  /** Strength per changed file (and function): absent in older files and imports without positions. */
  by_file: v.optional(v.array(FileStrength)),
  /** Changed executable source lines no mutant measured (none, or only stillborn ones); absent when not computed. */
  unmutated_lines: v.optional(v.array(UnmutatedLines)),
  /** How many changed lines hold code that runs (statements, case labels): the denominator of the unmutated share. */
  executable_line_count: v.optional(Count),
  /** ag-mutate's own runs of the unmutated patch tree, before any mutant. */
  baseline_runs: v.optional(v.array(BaselineRun)),
  /**
   * Where the baseline's second green run came from (present when the baseline ran): `run_json`,
   * ag-run's full-suite execution on the patch (`--run`), bound to the same diff, patch tree,
   * command, sandbox and passed environment; or `own`, a `plain` run in `baseline_runs`.
   * `note`: why a given run.json was not taken (null otherwise).
   */
  second_green_run: v.optional(
    v.strictObject({ source: v.picklist(['run_json', 'own']), note: v.nullable(v.string()) }),
  ),
  /**
   * The canaries this run judged beside the mutants (one per changed function, a few at most),
   * none of them counted in `counts`, `by_file` or the strength; absent in older files, imports
   * and runs that judged no mutant.
   */
  canaries: v.optional(v.array(Canary)),
  /** The seed that chose the canaries' functions, tokens and places in the judging list (`--canary-seed`); absent in a merge. */
  canary_seed: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4294967295))),
  /**
   * The behaviour footprint of the changed Python (pytest) and JavaScript (node --test, mocha) functions (see `Footprint`);
   * absent in older files, imports and runs that judged no mutant.
   */
  footprint: v.optional(Footprint),
  /**
   * One revert mutant per hunk with an executable change in a file an engine judged (see
   * `Revert`), in no count and no strength; absent in older files, imports and runs that judged
   * no mutant.
   */
  reverts: v.optional(v.array(Revert)),
  /**
   * One equality probe per equality hook the patch adds or changes (see `EqualityProbe`), in no
   * count and no strength; absent in older files, imports and runs that judged no mutant.
   */
  equality_probes: v.optional(v.array(EqualityProbe)),
});

export type MutationArtefact = v.InferOutput<typeof MutationArtefact>;
export type Mutant = v.InferOutput<typeof Mutant>;
export type FileStrength = v.InferOutput<typeof FileStrength>;
export type BaselineRun = v.InferOutput<typeof BaselineRun>;
export type Canary = v.InferOutput<typeof Canary>;
export type Revert = v.InferOutput<typeof Revert>;
export type EqualityProbe = v.InferOutput<typeof EqualityProbe>;
