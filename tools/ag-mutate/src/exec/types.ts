/**
 * The types execution and the judgement of one mutant share (so neither imports the other's).
 * @module
 */
import type { Runner } from '../runners/runner.js';
import type { MutantOrder } from '../select.js';
import type { RunStatus } from './outcome.js';
import type { PriorRunUse } from '../prior-run.js';

/**
 * A mutant's status: what its run meant, no_coverage when no test executes its code, or
 * equivalent when it survived and the differential check of its function found no input
 * that tells it apart.
 */
export type ExecStatus = RunStatus | 'no_coverage' | 'equivalent';

/** How to run the tests. */
export interface ExecOptions {
  readonly tree: string;
  readonly command: string;
  /** The command each mutant runs (e.g. the test command with its runner's bail flag); default `command`. */
  readonly mutantCommand?: string;
  readonly jobs: number;
  readonly timeoutFactor: number;
  /** Wall-clock limit of one baseline run (ms). */
  readonly baselineTimeoutMs: number;
  readonly passEnv: readonly string[];
  /** Files (tree-relative) whose V8 coverage the baseline records, to find uncovered mutants. */
  readonly coverFiles?: ReadonlySet<string>;
  /** Python files (tree-relative) whose per-test line coverage the baseline records (pytest only). */
  readonly pythonFiles?: ReadonlySet<string>;
  /** The runner recognised from the command (default: none, every mutant runs the whole command). */
  readonly runner?: Runner;
  /** False: record nothing per test, every mutant runs the whole command (default true). */
  readonly selectTests?: boolean;
  /** False: no differential check of the survivors (default true: Python survivors under pytest are checked). */
  readonly checkEquivalence?: boolean;
  /** Each changed file's baseline text (null: the patch added it), for the footprint's baseline versions. */
  readonly baselineTexts?: ReadonlyMap<string, string | null>;
  /** The named Python functions that hold a changed line: each gets a behaviour footprint. */
  readonly changedFunctions?: readonly { readonly file: string; readonly function: string }[];
  /** auto: a vitest project whose config allows it judges its mutants on warm vitest hosts; off: fresh processes (default auto). */
  readonly warmHost?: 'auto' | 'off';
  /** The order the mutants are judged in (default forward). */
  readonly order?: MutantOrder;
  /** Run every command inside bubblewrap (probed by the caller). */
  readonly sandbox?: 'none' | 'bwrap';
  /** The interpreter that checks, apart from the tests, whether a mutated Python module imports (default python3). */
  readonly python?: string;
  /** Whether ag-run's run.json stands for the second baseline run (absent: ag-mutate runs it). */
  readonly priorGreen?: Promise<PriorRunUse>;
  /** Test files the patch changed (tree-relative): mocha mutants run them during the recording, when a copy is free. */
  readonly changedTests?: readonly string[];
  /** Called after each mutant with (done, total, tallies). */
  readonly onProgress?: (done: number, total: number, tally: Readonly<Record<RunStatus, number>>) => void;
}
