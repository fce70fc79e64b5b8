/**
 * What a mutant's test run means: killed, survived or timeout. A run never makes a mutant
 * stillborn: that is proven apart from the tests, by the engine's parse or compile of the
 * mutated file before anything runs (`Site.parses`). A run that is neither a pass nor a test
 * failure (exit 2, a signal, a killed process group) proves no kill: the mutant survives,
 * and how the run ended is recorded; a run that could not start cannot tell either way.
 * @module
 */
import { commandRunner, type ProcessResult } from '@adversary-gate/core';

/** The status a mutant's run gives (stillborn and no_coverage are decided before any run). */
export type RunStatus = 'killed' | 'survived' | 'timeout' | 'stillborn';

/** A run's meaning, and how it ended when that was neither a pass nor a test failure. */
export interface RunVerdict {
  readonly status: RunStatus;
  /** `exit 2`, `signal SIGKILL`…: set when the run proves no kill although it did not pass. */
  readonly ended: string | null;
  /** True when the run could not start (the harness failed): its survivor status is a guess. */
  readonly unjudged: boolean;
}

/** True when the command runs pytest (ag-core's rule: the gate's `python3 -c '…pytest.main()'` too). */
export function isPytest(command: string): boolean {
  return commandRunner(command) === 'pytest';
}

/** True when the command runs mocha (it exits with its failure count). */
export function isMocha(command: string): boolean {
  return /(?:^|[\s/])(?:_?mocha)(?:\s|$)/.test(command);
}

/** mocha's exit N > 1 is a test failure only when its summary counts N failing. */
function mochaFailures(result: ProcessResult, command: string): boolean {
  const code = result.exitCode ?? 0;
  if (!isMocha(command) || code < 2 || code > 125) return false;
  return new RegExp(`(?:^|\\n)\\s*${code} failing\\b`).test(`${result.stdoutTail}\n${result.stderrTail}`);
}

/** True when the run was stopped at its wall-clock limit or past its CPU budget. */
export function timedOut(result: ProcessResult): boolean {
  return result.timedOut || result.cpuBudgetHit === true;
}

/**
 * Classify one mutant run.
 * - past its CPU budget, or timed out at the wall-clock backstop → timeout (counted as killed, listed);
 * - exit 0 → survived;
 * - exit 1 (every runner's "tests failed"; mocha: exit N with "N failing") → killed;
 * - anything else (another exit code, a signal, a process group killed, the sandbox or the
 *   spawn failing) → survived, with `ended` saying how: the tests did not report a failure.
 */
export function classifyRun(result: ProcessResult, command: string): RunVerdict {
  if (timedOut(result)) return { status: 'timeout', ended: null, unjudged: false };
  if (result.spawnError !== null)
    return { status: 'survived', ended: `could not run: ${result.spawnError}`, unjudged: true };
  if (result.signal !== null) return { status: 'survived', ended: `signal ${result.signal}`, unjudged: false };
  if (result.exitCode === 0) return { status: 'survived', ended: null, unjudged: false };
  if (result.exitCode === 1 || mochaFailures(result, command))
    return { status: 'killed', ended: null, unjudged: false };
  const code = result.exitCode;
  const signal = code !== null && code > 128 && code < 160 ? ` (signal ${code - 128})` : '';
  return { status: 'survived', ended: code === null ? 'no exit code' : `exit ${code}${signal}`, unjudged: false };
}

/** True when a run passed cleanly (what a clean-tree check asks). */
export function passed(result: ProcessResult): boolean {
  return !timedOut(result) && result.spawnError === null && result.signal === null && result.exitCode === 0;
}
