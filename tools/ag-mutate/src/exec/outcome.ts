/**
 * What a mutant's test run means: killed, survived, timeout or stillborn.
 * @module
 */
import type { ProcessResult } from '@adversary-gate/core';

/** The status of a mutant that ran (no_coverage is decided before any run). */
export type RunStatus = 'killed' | 'survived' | 'timeout' | 'stillborn';

/** True when the command runs pytest (its exit codes 2–5 mean "could not run the tests"). */
export function isPytest(command: string): boolean {
  return /(?:^|[\s/])(?:py\.test|pytest)(?:\s|$)|-m\s+pytest\b/.test(command);
}

const TS_ERROR = /\berror TS\d{3,5}:/;
/**
 * Import errors. A SyntaxError is not among them: the engine re-parses every mutant before
 * it runs, so a SyntaxError in a run is the code's own (an invalid RegExp, bad JSON), a kill.
 */
const LOAD_ERROR = /\b(?:ERR_MODULE_NOT_FOUND|Cannot find module|ImportError|ModuleNotFoundError)\b/;

/**
 * Classify one mutant run.
 * - timed out → timeout (counted as killed, listed);
 * - a signal, the output cap, or a spawn failure → stillborn (the run proves nothing);
 * - exit 0 → survived;
 * - a TypeScript compile error in the output, pytest's "could not run" codes 2–5, or an
 *   import error (module not found, ImportError) naming the mutated file → stillborn: the
 *   tests never ran against the mutant;
 * - any other non-zero exit → killed.
 */
export function classifyRun(result: ProcessResult, command: string, mutatedFile: string): RunStatus {
  if (result.timedOut) return 'timeout';
  if (result.spawnError !== null || result.outputCapHit || result.signal !== null || result.exitCode === null) return 'stillborn';
  if (result.exitCode === 0) return 'survived';
  const output = `${result.stdoutTail}\n${result.stderrTail}`;
  if (TS_ERROR.test(output)) return 'stillborn';
  if (isPytest(command) && result.exitCode >= 2 && result.exitCode <= 5) return 'stillborn';
  if (LOAD_ERROR.test(output) && loadErrorNames(output, mutatedFile)) return 'stillborn';
  return 'killed';
}

/** A load error whose report names the mutated file (path or file name) near the error. */
function loadErrorNames(output: string, file: string): boolean {
  const base = file.split('/').pop()!;
  const lines = output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!LOAD_ERROR.test(lines[i]!)) continue;
    const window = lines.slice(Math.max(0, i - 6), i + 6).join('\n');
    if (window.includes(file) || window.includes(base)) return true;
  }
  return false;
}
