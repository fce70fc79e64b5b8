/**
 * run.json, written by ag-run: what ran, how it ended, which tests it saw.
 * @module
 */
import * as v from 'valibot';
import { envelopeEntries } from '../envelope.js';
import { Count, NonNegative } from '../primitives.js';

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
   * UNRUNNABLE: `no_tests`, `report_missing`, `report_invalid`, `report_inconsistent`,
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
  /** Finer class: fixed, regression, new_bug, still_passing, flaky, hang, unrunnable, baseline_red. */
  class: v.string(),
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
});

/** Per-test deltas between baseline and patch reports. */
export const TestDeltas = v.strictObject({
  tests_lost: v.array(v.string()),
  tests_newly_skipped: v.array(v.string()),
  tests_pass_to_fail: v.array(v.string()),
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
  outside_changes: v.array(v.strictObject({ role: WatchRole, path: v.string(), change: Change, sha256: v.nullable(v.string()) })),
  outside_changes_total: Count,
  /** What changed in a run's copy after its process group was killed and its report read. */
  late_changes: v.array(
    v.strictObject({ side: v.picklist(['baseline', 'patch']), round: v.pipe(Count, v.minValue(1)), command: v.string(), path: v.string(), change: Change }),
  ),
  late_changes_total: Count,
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
  /** Written by ag-run 0.1 and later (optional so older evidence still reads): writes outside the tree copies and after the kill. */
  write_watch: v.optional(WriteWatch),
  /**
   * Whose uid the tests ran as: `unprivileged` (ag-run ran as root and gave every execution a
   * fresh uid of its own, so RLIMIT_NPROC holds and root-owned files are read-only) or
   * `caller` (ag-run's own uid).
   */
  run_as: v.optional(v.picklist(['caller', 'unprivileged'])),
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
