/**
 * run.json, written by ag-run: what ran, how it ended, which tests it saw.
 * @module
 */
import * as v from 'valibot';
import { envelopeEntries } from '../envelope.js';
import { Count, NonNegative, Sha256 } from '../primitives.js';

/** How one execution of one command ended. Only `FAIL` counts as evidence against a patch. */
export const RunOutcome = v.picklist(['PASS', 'FAIL', 'UNRUNNABLE', 'TIMED_OUT']);

/** The runners whose exit codes and summaries ag-run knows. */
export const Runner = v.picklist(['generic', 'pytest', 'node', 'jest', 'vitest', 'mocha', 'ava']);
export type Runner = v.InferOutput<typeof Runner>;

/** A claim's classification across its rounds. */
export const ClaimStatus = v.picklist(['VERIFIED', 'REFUTED', 'UNVERIFIED']);

/** A test's outcome as a JUnit/TAP report tells it. */
export const TestOutcome = v.picklist(['passed', 'failed', 'skipped', 'todo', 'xfail', 'error']);

/** One test seen in a report. */
export const TestResult = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1)),
  outcome: TestOutcome,
});

/** One execution of one command in a throwaway copy of a tree. */
export const Execution = v.strictObject({
  /** The command as given. */
  command: v.string(),
  /** `baseline` or `patch`. */
  side: v.picklist(['baseline', 'patch']),
  /** 1-based round on the patch side; 1 on the baseline. */
  round: v.pipe(Count, v.minValue(1)),
  /** Exit code, or null when the process died by a signal, timed out or never started. */
  exit_code: v.nullable(v.pipe(v.number(), v.safeInteger())),
  /** Signal name (e.g. `SIGKILL`), or null. */
  signal: v.nullable(v.string()),
  timed_out: v.boolean(),
  outcome: RunOutcome,
  /**
   * A finer label for the outcome. PASS: `passed`; FAIL: `failed`; TIMED_OUT: `timeout`;
   * UNRUNNABLE: `no_tests`, `collection_error`, `report_missing`, `report_invalid`, `report_inconsistent`,
   * `summary_missing`, `file_ended_early`, `file_crashed`, `interrupted`, `internal_error`,
   * `usage_error`, `failures_exit_code`, `command_not_found`, `not_executable`, `exit_code`,
   * `signal`, `killed`, `rlimit_cpu`, `rlimit_fsize`, `rlimit_nproc`, `output_cap`, `spawn_error`, `sandbox_setup`.
   */
  kind: v.string(),
  /** Written by ag-run 0.1 and later (optional so older evidence still reads). The runner whose exit-code taxonomy judged the run (`generic`, `pytest`, `node`, `jest`, `vitest`, `mocha`, `ava`). */
  runner: v.optional(Runner),
  /** Where `tests` came from: a TAP stream on stdout, a JUnit XML report, or nowhere. */
  report: v.optional(v.picklist(['tap', 'junit', 'none'])),
  /** Tests the report (or runner summary) tells of; null when neither tells. */
  tests: v.nullable(v.array(TestResult)),
  stdout_tail: v.string(),
  stderr_tail: v.string(),
  stdout_bytes: Count,
  stderr_bytes: Count,
  truncated: v.boolean(),
  /** Processes of the run's group still alive after exit (killed, then recorded). */
  leftover_processes: Count,
});

/** One claim command, judged over its rounds. */
export const Claim = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1)),
  command: v.string(),
  baseline: v.nullable(Execution),
  patch: v.array(Execution),
  status: ClaimStatus,
  /**
   * Finer class: fixed, regression, new_bug, still_passing, new_test, still_failing (UNVERIFIED:
   * the patch fails only what the baseline failed), flaky, hang (REFUTED when the baseline
   * completed well within the limit), unrunnable, baseline_red.
   */
  class: v.string(),
  /**
   * Optional so older evidence still reads. Further executions
   * of this claim's command, made because a patch execution of it failed: one more on the
   * baseline (round 2…), and one more on the patch when it had a single round. The claim's
   * status is judged over these too.
   */
  reruns: v.optional(v.array(Execution)),
});

/** The full suite on both sides: the collateral regression check. */
export const FullSuite = v.strictObject({
  command: v.string(),
  baseline: v.nullable(Execution),
  patch: v.nullable(Execution),
  /** The suite passed on the baseline and failed on the patch. */
  collateral_regression: v.optional(v.boolean()),
  /** The suite did not pass on the baseline (nothing after it is attributable to the patch). */
  baseline_red: v.optional(v.boolean()),
  /**
   * Optional so older evidence still reads. Further executions
   * of the full-suite command, made because it failed on the patch: at least one more per side.
   */
  reruns: v.optional(v.array(Execution)),
});

/** A test that disappeared while a new one appeared in the same (or the renamed) file. */
export const RenamedTest = v.strictObject({
  /** The baseline's id. */
  from: v.pipe(v.string(), v.minLength(1)),
  /** The patch's id that took its place. */
  to: v.pipe(v.string(), v.minLength(1)),
  /** The file both were found in (the patch's path when the file was renamed), or null. */
  file: v.nullable(v.string()),
});

/**
 * Per-test deltas between baseline and patch reports, over every full-suite execution of each
 * side that was not ended by a kill (timeout, signal, output cap, resource limit): such a run
 * reported only the tests it reached.
 */
export const TestDeltas = v.strictObject({
  /** On the baseline, on no patch execution, and nothing took its place. */
  tests_lost: v.array(v.string()),
  tests_newly_skipped: v.array(v.string()),
  /** Passed on every baseline execution, failed on every patch execution, never flaky. */
  tests_pass_to_fail: v.array(v.string()),
  /** Optional (older evidence has none): lost tests paired with the new test in their file (not in `tests_lost`). */
  tests_renamed: v.optional(v.array(RenamedTest)),
  /**
   * Optional (older evidence has none): baseline tests whose file failed to load on the patch
   * (a collection error, a crash before any test reported): not lost, not measured.
   */
  tests_not_collected: v.optional(v.array(v.string())),
  /**
   * Optional (absent when empty, and in older evidence): baseline tests absent on the patch
   * whose file the patch deleted together with the code it imports (`trusted_tests.retired`):
   * not lost, retired (HOLD `TEST_RETIRED`).
   */
  tests_retired: v.optional(v.array(v.string())),
});

/**
 * A flaky test of one command: it passed and failed among that command's executions on one
 * side, or it failed on the patch in a flaky file (one of whose tests passed and failed on one
 * side, or failed on the baseline). A test that failed in every run on both sides is never one
 * (it is failing: the baseline's red). The rule is ag-core's `flakyFindings`; ag-decide applies
 * it to `runs` and `file_runs` again.
 */
export const FlakyTest = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1)),
  command: v.string(),
  /** Every sighting of the test in that command's executions that ran to a verdict. */
  runs: v.array(
    v.strictObject({
      side: v.picklist(['baseline', 'patch']),
      round: v.pipe(Count, v.minValue(1)),
      outcome: TestOutcome,
    }),
  ),
  /**
   * Optional (older evidence has none; absent when the test's own runs show it flaky): the test
   * is flaky through its file, and these are every sighting of the other test of that file that
   * makes the file flaky (the first such by id), in that command's executions.
   */
  file_runs: v.optional(
    v.array(
      v.strictObject({
        id: v.pipe(v.string(), v.minLength(1)),
        side: v.picklist(['baseline', 'patch']),
        round: v.pipe(Count, v.minValue(1)),
        outcome: TestOutcome,
      }),
    ),
  ),
});

/** One acceptance criterion and whether its tests moved as its kind requires. */
export const CriterionResult = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1)),
  text: v.string(),
  kind: v.picklist(['fix', 'new', 'keep']),
  tests: v.array(v.string()),
  proven: v.boolean(),
  why: v.string(),
});

const WatchRole = v.picklist(['baseline', 'patch', 'evidence']);
const Change = v.picklist(['added', 'removed', 'changed']);

/**
 * Writes where the tests must not write. The original trees and the evidence directory are
 * snapshotted (metadata: type, mode, owner, size, inode, mtime, ctime) before the first
 * execution and after the last; every run's copy when its process group is gone and its
 * report read, and again at the end. Lists are capped at 50; totals are not.
 */
export const WriteWatch = v.strictObject({
  /** The directories compared (absolute paths). */
  watched: v.array(v.strictObject({ role: WatchRole, path: v.string() })),
  /** Directories that could not be watched meaningfully, and why (a world-writable evidence directory). */
  unwatched: v.array(v.strictObject({ role: WatchRole, path: v.string(), why: v.string() })),
  /** What changed in a watched directory while the tests ran; `sha256` of what is there now, for a regular file. */
  outside_changes: v.array(
    v.strictObject({ role: WatchRole, path: v.string(), change: Change, sha256: v.nullable(v.string()) }),
  ),
  outside_changes_total: Count,
  /** What changed in a run's copy after its process group was killed and its report read. */
  late_changes: v.array(
    v.strictObject({
      side: v.picklist(['baseline', 'patch']),
      round: v.pipe(Count, v.minValue(1)),
      command: v.string(),
      path: v.string(),
      change: Change,
    }),
  ),
  late_changes_total: Count,
});

/** At most this many paths are listed per list of `LeftBehind`; the totals are not capped. */
export const LEFT_BEHIND_LISTED = 50;

/**
 * What the tests' uids left where every uid may write (`/tmp`, `/var/tmp`, `/dev/shm`), found
 * and removed after each execution that ran as a fresh uid of its own (outside the run's own
 * copy, HOME and TMPDIR). Each path is normalized (ag-core's `normalizeLeftover`: the uid as
 * `<uid>`, a digit run as `<n>`, a random temporary part as `<random>`), so two runs of one
 * suite that leave the same temporary files compare equal. Lists are sorted, distinct and capped
 * at 50; totals count distinct normalized paths.
 */
export const LeftBehind = v.strictObject({
  /** Left by any baseline execution. */
  baseline: v.array(v.string()),
  baseline_total: Count,
  /** Left by any patch execution (the trusted execution included). */
  patch: v.array(v.string()),
  patch_total: Count,
  /** Left on the patch side and by no baseline execution: ag-decide holds on these (`TAMPER_SUSPECTED`). */
  patch_only: v.array(v.string()),
  patch_only_total: Count,
});

/** One path of the trusted tree the patch added, modified or deleted (a rename is its old path deleted and its new path added). */
const TrustedPathChange = v.strictObject({
  path: v.string(),
  change: v.picklist(['added', 'modified', 'deleted']),
  /**
   * Optional: the patch's path whose content this path takes. A code file the patch renamed
   * stays at its baseline path too (`change: modified`), with its patched content, so the
   * baseline's tests that import it by that path judge the patched code.
   */
  from: v.optional(v.string()),
});

/** One baseline test that passed on the baseline and does not pass in a trusted execution, and how it ended there. */
const TrustedFailure = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1)),
  outcome: v.picklist(['failed', 'error', 'skipped', 'todo', 'xfail', 'absent']),
});

/**
 * The perturbed pair (`trusted_tests.tree: baseline` only): the full suite once more on a copy of
 * the baseline tree and once more on the trusted tree, both under one environment that differs
 * from every other execution's: the clock moved forward (libfaketime: `LD_PRELOAD`, `FAKETIME`),
 * another time zone and locale, `CI` flipped, the gate's own variables removed, and with
 * `run_as: unprivileged` uids of another range than every other execution's. A baseline test
 * that passed in the perturbed baseline execution, in the trusted execution and on every
 * baseline execution, and does not pass in the perturbed trusted execution, is named: the
 * patched code behaves right only under the gate's environment, or only now.
 */
export const PerturbedPair = v.strictObject({
  /** The variables changed over every other execution's environment, sorted by name: a value set, or null (removed). */
  env: v.array(v.strictObject({ name: v.pipe(v.string(), v.minLength(1)), value: v.nullable(v.string()) })),
  /** Days the clock was moved forward, or null when it was not (libfaketime missing, or it did not move the clock). */
  clock_shift_days: v.nullable(v.pipe(Count, v.minValue(1))),
  /** The perturbed execution on the baseline tree (side `baseline`), or null when it was not made. */
  baseline: v.nullable(Execution),
  /** The perturbed execution on the trusted tree (side `patch`), or null when it was not made. */
  execution: v.nullable(Execution),
  /** The tests named, sorted by id (empty when nothing could be concluded: see `note`). */
  failed: v.array(TrustedFailure),
  /** What was not perturbed or not measured, and why (absent when everything was). */
  note: v.optional(v.pipe(v.string(), v.minLength(1))),
});

/**
 * The trusted tests against the patched code: the full suite run once in a tree whose tests,
 * runner configuration and installed packages are the baseline's. For a patch that changes any
 * file that is not a test (`tree: baseline`): a copy of the baseline tree (its installed
 * packages) with the patch's changes to everything but tests, runner configuration, setup
 * files, package manifests and lock files, and `node_modules` applied on top. For a test-only
 * patch (`tree: patch`, and evidence written before `tree` existed): a copy of the patch tree
 * with the test files (and runner configuration) the patch changed, deleted or renamed put
 * back in their baseline version.
 */
export const TrustedTests = v.strictObject({
  command: v.string(),
  /**
   * The files the patch changed, deleted or renamed whose baseline version the trusted tree
   * keeps, on their baseline path; `renamed_to`: the patch's new path (absent from the trusted
   * tree unless `from_patch` lists it).
   */
  files: v.array(
    v.strictObject({
      path: v.string(),
      change: v.picklist(['modified', 'deleted', 'renamed']),
      renamed_to: v.nullable(v.string()),
    }),
  ),
  /** The trusted execution (side `patch`), or null when no full-suite command ran. */
  execution: v.nullable(Execution),
  /** Baseline tests that passed on every baseline execution and did not pass in the trusted execution. */
  failed: v.array(TrustedFailure),
  /**
   * Optional (older evidence has none; read as `patch`): the tree the trusted tree was built
   * from. `baseline`: the baseline tree and its installed packages, with `from_patch` applied;
   * `patch`: the patch tree with `files` put back (a patch that changed only tests).
   */
  tree: v.optional(v.picklist(['baseline', 'patch'])),
  /** Optional: the patch's changes the trusted tree has, path by path, sorted. */
  from_patch: v.optional(v.array(TrustedPathChange)),
  /**
   * Optional: the patch's changes the trusted tree does not have (the baseline's version
   * stays; an added file is absent), path by path, sorted, each with its `kind`: `test` (a
   * test file), `runner_config` (runner configuration, `conftest.py`, `jest.setup.*`,
   * `setupTests.*`), `setup_file` (a file the baseline's runner configuration or full-suite
   * command names as a setup or require file), `package` (a package manifest or lock file) or
   * `installed` (a path under a `node_modules` directory).
   */
  held_back: v.optional(
    v.array(
      v.strictObject({
        ...TrustedPathChange.entries,
        kind: v.picklist(['test', 'runner_config', 'setup_file', 'package', 'installed']),
      }),
    ),
  ),
  /**
   * Optional: test files the patch deletes together with a code file they import (their
   * subject), sorted. The trusted tree deletes them too (they could only fail to load there),
   * and their tests are not counted as failed.
   */
  retired: v.optional(
    v.array(v.strictObject({ path: v.string(), subjects: v.pipe(v.array(v.string()), v.minLength(1)) })),
  ),
  /**
   * Optional (`tree: baseline` only): identifier renames of the patch's code that a test file
   * the patch edits follows (the baseline's test has the `baseline` name, the patch's the
   * `patch` name). The trusted tree's copies of `files` (patched code) carry the baseline names
   * again, in code only (strings and comments stay as the patch has them), so the baseline's
   * tests call the patched code by the names they know. Each rename is whole and one-to-one over
   * the changed code files: the baseline name is gone from the patched ones, the patch name
   * absent from the baseline ones.
   */
  renamed_back: v.optional(
    v.strictObject({
      names: v.pipe(
        v.array(
          v.strictObject({ baseline: v.pipe(v.string(), v.minLength(1)), patch: v.pipe(v.string(), v.minLength(1)) }),
        ),
        v.minLength(1),
      ),
      files: v.pipe(v.array(v.string()), v.minLength(1)),
    }),
  ),
  /** Optional (`tree: baseline` only; older evidence has none): see PerturbedPair. */
  perturbed: v.optional(PerturbedPair),
});

/**
 * The Python interpreter a test command runs (ag-core's `pythonInterpreter`): the word of the
 * command that names it, the file the runs' PATH gives for it and its version, beside the file
 * and version the caller's PATH gives for the same word (a fresh uid searches only some of
 * the caller's PATH entries). A path is null when it could not be told.
 */
export const Interpreter = v.strictObject({
  command: v.string(),
  name: v.pipe(v.string(), v.minLength(1)),
  path: v.nullable(v.string()),
  version: v.nullable(v.string()),
  caller_path: v.nullable(v.string()),
  caller_version: v.nullable(v.string()),
});

/** The run artefact. */
export const RunArtefact = v.strictObject({
  ...envelopeEntries('run'),
  sandbox: v.picklist(['none', 'bwrap']),
  rounds: v.pipe(Count, v.minValue(1)),
  seed: v.nullable(v.pipe(v.number(), v.safeInteger())),
  runner: v.string(),
  claims: v.array(Claim),
  full_suite: FullSuite,
  /** null when no per-test report was available on both sides. */
  test_deltas: v.nullable(TestDeltas),
  criteria: v.array(CriterionResult),
  /**
   * Optional so older evidence still reads: the flaky tests (see FlakyTest), per command, with
   * every round they were seen in.
   */
  tests_flaky: v.optional(v.array(FlakyTest)),
  /**
   * Optional: present when the patch changed any file that is not a test, or changed, deleted
   * or renamed a test file (before `tree` existed: only in the latter case).
   */
  trusted_tests: v.optional(TrustedTests),
  /** Written by ag-run 0.1 and later (optional so older evidence still reads): writes outside the tree copies and after the kill. */
  write_watch: v.optional(WriteWatch),
  /**
   * Optional (absent when the tests ran as the caller's uid, whose own files there cannot be
   * told apart, and in older evidence): see LeftBehind.
   */
  left_behind: v.optional(LeftBehind),
  /**
   * Whose uid the tests ran as: `unprivileged` (ag-run ran as root and gave every execution a
   * fresh uid of its own, so RLIMIT_NPROC holds and root-owned files are read-only) or
   * `caller` (ag-run's own uid).
   */
  run_as: v.optional(v.picklist(['caller', 'unprivileged'])),
  /**
   * Written by ag-run 0.1 and later (optional so older evidence still reads): a digest of the
   * caller variables every execution was given (`--pass-env`: each name, sorted, with its value
   * or null), never the values. ag-mutate compares it with its own before it takes the
   * full-suite execution on the patch as one of its baseline runs.
   */
  pass_env_sha256: v.optional(Sha256),
  /**
   * Optional (absent when no test command names a Python interpreter, and in older evidence):
   * the interpreter each such command ran, one entry per command, in the order given.
   */
  interpreters: v.optional(v.array(Interpreter)),
  limits: v.strictObject({
    timeout_seconds: NonNegative,
    output_cap_bytes: Count,
    cpu_seconds: v.optional(Count),
    file_size_bytes: v.optional(Count),
    /** RLIMIT_DATA (writable private memory). */
    data_bytes: v.optional(Count),
    open_files: v.optional(Count),
    /** RLIMIT_NPROC (tasks of the run's uid); only set, and only enforced, with `run_as: unprivileged`. */
    processes: v.optional(Count),
  }),
});

export type RunArtefact = v.InferOutput<typeof RunArtefact>;
export type Execution = v.InferOutput<typeof Execution>;
export type Claim = v.InferOutput<typeof Claim>;
export type TestResult = v.InferOutput<typeof TestResult>;
export type TestDeltas = v.InferOutput<typeof TestDeltas>;
export type CriterionResult = v.InferOutput<typeof CriterionResult>;
export type FullSuite = v.InferOutput<typeof FullSuite>;
export type WriteWatch = v.InferOutput<typeof WriteWatch>;
export type LeftBehind = v.InferOutput<typeof LeftBehind>;
export type FlakyTest = v.InferOutput<typeof FlakyTest>;
export type Interpreter = v.InferOutput<typeof Interpreter>;
export type TrustedTests = v.InferOutput<typeof TrustedTests>;
export type PerturbedPair = v.InferOutput<typeof PerturbedPair>;
export type RenamedTest = v.InferOutput<typeof RenamedTest>;
