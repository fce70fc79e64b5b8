/**
 * What a mutant's test run means: killed, survived or timeout. A run never makes a mutant
 * stillborn: that is proven apart from the tests, by the engine's parse or compile of the
 * mutated file before anything runs (`Site.parses`). A run that is neither a pass nor a test
 * failure (exit 2, a signal, a killed process group) proves no kill: the mutant survives,
 * and how the run ended is recorded; a run that could not start cannot tell either way.
 * @module
 */
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
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

/** mocha's reporter options on a command line: `--reporter-option K=V[,K=V…]`, `--reporter-options`, `-O`, with `=` or a space. */
const REPORTER_OPTION = /(?:^|\s)(?:--reporter-options?|-O)(?:=|\s+)(?:'([^']*)'|"([^"]*)"|([^\s'"]+))(?=\s|$)/g;

/**
 * The file a mocha command's reporter writes (its last `output` reporter option, as the gate
 * wires mocha's xunit reporter: `--reporter=xunit --reporter-option=output=.ag-junit.xml`),
 * relative to the run's working directory; null when the command is not mocha's or names no
 * such file, or one that is absolute or outside that directory (shared by parallel copies).
 */
export function mochaReportFile(command: string): string | null {
  if (!isMocha(command)) return null;
  let file: string | null = null;
  for (const m of command.matchAll(REPORTER_OPTION))
    for (const pair of (m[1] ?? m[2] ?? m[3] ?? '').split(',')) {
      const [key, value, ...more] = pair.split('=');
      if (key === 'output' && value !== undefined && more.length === 0) file = value;
    }
  if (file === null || file === '') return null;
  const rel = path.posix.normalize(file);
  if (path.posix.isAbsolute(rel) || rel === '.' || rel === '..' || rel.startsWith('../')) return null;
  return rel;
}

/**
 * What a per-test report (mocha's xunit, or JUnit XML) says: true when it is whole (a
 * `<testsuite>` or `<testsuites>` closed at its end) and lists a failed test (a `<failure>` or
 * `<error>` element, or a suite's `failures`/`errors` count above 0); false when it is whole and
 * lists none; null when it is no whole report (absent, cut short, something else).
 */
export function reportListsFailures(xml: string): boolean | null {
  // Text a test printed (CDATA) or a comment is never markup.
  const text = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  if (!/<testsuites?[\s>]/.test(text) || !/<\/testsuites?>\s*$/.test(text)) return null;
  if (/<(?:failure|error)[\s/>]/.test(text)) return true;
  for (const tag of text.matchAll(/<testsuites?\s[^>]*>/g))
    for (const count of tag[0].matchAll(/\s(?:failures|errors)\s*=\s*["'](\d+)["']/g))
      if (Number(count[1]) > 0) return true;
  return false;
}

/**
 * mocha's exit N > 1 (its failure count) is a test failure when its summary counts N failing,
 * or when its per-test report, written by this run, lists a failed test (the xunit reporter
 * writing to a file prints no summary). Never exit 0 (a report rewritten after a passing
 * run, by the code under test, says nothing the exit code did not) nor a signal.
 */
function mochaFailures(result: ProcessResult, command: string, report?: () => string | null): boolean {
  const code = result.exitCode ?? 0;
  if (!isMocha(command) || code < 2) return false;
  const output = stripVTControlCharacters(`${result.stdoutTail}\n${result.stderrTail}`);
  if (code <= 125 && new RegExp(`(?:^|\\n)\\s*${code} failing\\b`).test(output)) return true;
  const xml = report?.() ?? null;
  return xml !== null && reportListsFailures(xml) === true;
}

/** True when the run was stopped at its wall-clock limit or past its CPU budget. */
export function timedOut(result: ProcessResult): boolean {
  return result.timedOut || result.cpuBudgetHit === true;
}

/**
 * Classify one mutant run; `report` reads the per-test report this run wrote (mocha's, see
 * `mochaReportFile`; null when there is none), asked only when the exit code alone cannot tell.
 * - past its CPU budget, or timed out at the wall-clock backstop → timeout (counted as killed, listed);
 * - exit 0 → survived;
 * - exit 1 (every runner's "tests failed"; mocha: exit N with "N failing", or with its
 *   per-test report listing a failed test) → killed;
 * - anything else (another exit code, a signal, a process group killed, the sandbox or the
 *   spawn failing) → survived, with `ended` saying how: the tests did not report a failure.
 */
export function classifyRun(result: ProcessResult, command: string, report?: () => string | null): RunVerdict {
  if (timedOut(result)) return { status: 'timeout', ended: null, unjudged: false };
  if (result.spawnError !== null)
    return { status: 'survived', ended: `could not run: ${result.spawnError}`, unjudged: true };
  if (result.signal !== null) return { status: 'survived', ended: `signal ${result.signal}`, unjudged: false };
  if (result.exitCode === 0) return { status: 'survived', ended: null, unjudged: false };
  if (result.exitCode === 1 || mochaFailures(result, command, report))
    return { status: 'killed', ended: null, unjudged: false };
  const code = result.exitCode;
  const signal = code !== null && code > 128 && code < 160 ? ` (signal ${code - 128})` : '';
  return { status: 'survived', ended: code === null ? 'no exit code' : `exit ${code}${signal}`, unjudged: false };
}

/** True when a run passed cleanly (what a clean-tree check asks). */
export function passed(result: ProcessResult): boolean {
  return !timedOut(result) && result.spawnError === null && result.signal === null && result.exitCode === 0;
}
