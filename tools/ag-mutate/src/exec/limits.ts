/**
 * The limits of one mutant run, from the clean runs of the unmutated tree: a CPU budget that
 * ends a loop, and a wall-clock backstop for a run that hangs without using CPU.
 * @module
 */

/** Extra slack added to every mutant timeout (process start jitter). */
export const TIMEOUT_SLACK_MS = 2000;

/** The per-mutant wall-clock limit, a backstop: the measured baseline time × factor, plus a fixed slack. */
export function mutantTimeout(baselineMs: number, factor: number): number {
  return Math.ceil(baselineMs * factor) + TIMEOUT_SLACK_MS;
}

/** The CPU a mutant run may use beyond twice the clean run's (ms). */
export const CPU_SLACK_MS = 2000;

/**
 * The per-mutant CPU budget: twice the clean run's CPU time plus 2 CPU-seconds. CPU time
 * does not grow when the machine is loaded (wall time does), so a mutant that is only slowed
 * by other work is never stopped by it; an infinite loop is, long before the wall limit.
 */
export function mutantCpuBudget(baselineCpuMs: number): number {
  return Math.ceil(2 * baselineCpuMs) + CPU_SLACK_MS;
}
