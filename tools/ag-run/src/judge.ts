/**
 * Judge one execution: exit code, signal, timeout, report and runner summary together give
 * the outcome (PASS, FAIL, UNRUNNABLE, TIMED_OUT) and a finer kind. Only an exit 1 that the
 * report and summary confirm is FAIL; only an exit 0 they confirm is PASS.
 * @module
 */
import { deathKind, sandboxReachedCommand, type ProcessResult } from '@adversary-gate/core';
import type { Runner, TestResult } from '@adversary-gate/schemas';
import type { JunitReport } from './reports/junit.js';
import type { TapReport } from './reports/tap.js';
import { countTests, isFileEntry, mergeTests, type Counts } from './reports/test-list.js';
import { runnerSummary, saysNoTests } from './runners/summary.js';

/** The report one execution left, as read after the process group was gone. */
export type ReportRead =
  | { readonly source: 'none' }
  | { readonly source: 'tap'; readonly tap: TapReport }
  | { readonly source: 'junit'; readonly junit: JunitReport }
  | { readonly source: 'junit'; readonly problem: 'missing' | 'invalid'; readonly detail: string };

/** The verdict on one execution. */
export interface Judgement {
  readonly outcome: 'PASS' | 'FAIL' | 'UNRUNNABLE' | 'TIMED_OUT';
  readonly kind: string;
  readonly tests: TestResult[] | null;
  readonly report: 'tap' | 'junit' | 'none';
  /** One line on why, for UNRUNNABLE runs. */
  readonly detail: string;
}

const PYTEST_CODES: Readonly<Record<number, string>> = {
  2: 'interrupted',
  3: 'internal_error',
  4: 'usage_error',
  5: 'no_tests',
};

const unrunnable = (
  kind: string,
  detail: string,
  tests: TestResult[] | null,
  report: Judgement['report'],
): Judgement => ({ outcome: 'UNRUNNABLE', kind, tests, report, detail });

/** Judge one execution; pure. */
export function judge(runner: Runner, result: ProcessResult, sandboxed: boolean, read: ReportRead): Judgement {
  const report: Judgement['report'] = read.source;
  // Every test case as reported: a title a suite repeats (`it.each` rows with one name) is
  // one id in `tests` but counts as often as it ran, as the runner's summary counts it.
  const reported =
    read.source === 'tap' ? read.tap.tests : read.source === 'junit' && 'junit' in read ? read.junit.tests : null;
  const tests = reported === null ? null : mergeTests(reported);
  if (result.spawnError !== null) return unrunnable('spawn_error', result.spawnError, null, report);
  if (
    sandboxed &&
    !result.timedOut &&
    !result.outputCapHit &&
    result.processCapHit !== true &&
    !sandboxReachedCommand(result.statusText ?? '')
  ) {
    return unrunnable('sandbox_setup', `the sandbox could not be built: ${lastLine(result.stderrTail)}`, null, report);
  }
  const death = deathKind(result);
  if (death === 'timeout')
    return { outcome: 'TIMED_OUT', kind: 'timeout', tests, report, detail: 'killed at the timeout' };
  if (death !== null) return unrunnable(death, `ended by ${result.signal ?? `exit ${result.exitCode}`}`, tests, report);
  const code = result.exitCode ?? -1;
  const summary =
    read.source === 'tap' ? read.tap.summary : runnerSummary(runner, result.stdoutTail, result.stderrTail);
  const reportCounts = reported === null ? null : countTests(reported);
  if (
    saysNoTests(runner, result.stdoutTail, result.stderrTail) ||
    summary?.total === 0 ||
    reportCounts?.total === 0 ||
    (runner === 'pytest' && code === 5)
  ) {
    return unrunnable('no_tests', 'no test was executed', tests, report);
  }
  // mocha exits with its failure count: exit N with N failing is a test failure, counted by its
  // printed summary or, when a file reporter prints none, by its report.
  const counted = summary ?? reportCounts;
  const mochaFailures = runner === 'mocha' && code > 1 && counted !== null && counted.failed === code;
  if (code !== 0 && code !== 1 && !mochaFailures) {
    if (runner === 'pytest' && code === 2 && collectionErrors(tests).length > 0) {
      return unrunnable(
        'collection_error',
        `pytest exit 2: test files failed to load (collection error): ${collectionErrors(tests).join(', ')}`,
        tests,
        report,
      );
    }
    if (runner === 'pytest' && PYTEST_CODES[code] !== undefined)
      return unrunnable(PYTEST_CODES[code]!, `pytest exit ${code}`, tests, report);
    // The shell's own codes come first: mocha never ran when the command was not found.
    if (code === 127)
      return unrunnable('command_not_found', 'exit 127: the shell could not find the command', tests, report);
    if (code === 126) return unrunnable('not_executable', 'exit 126: the command is not executable', tests, report);
    if (runner === 'mocha' && code > 1)
      return unrunnable(
        'failures_exit_code',
        `mocha exit ${code} does not match the ${summary?.failed ?? 'unknown'} failures its summary counts`,
        tests,
        report,
      );
    return unrunnable('exit_code', `exit ${code} is neither a pass nor a test failure`, tests, report);
  }
  if (read.source === 'junit' && 'problem' in read)
    return unrunnable(`report_${read.problem}`, read.detail, null, report);
  if (read.source === 'tap') {
    if (read.tap.summary === null)
      return unrunnable('report_missing', 'the TAP stream has no summary (# tests/# pass/# fail)', tests, report);
    const files = read.tap.filesWithoutTests;
    if (files.length > 0) {
      const crashed = files.some((f) => tests?.find((x) => x.id === f)?.outcome !== 'passed');
      return crashed
        ? unrunnable(
            'file_crashed',
            `test files failed before reporting any test (load error, crash): ${files.join(', ')}`,
            tests,
            report,
          )
        : unrunnable(
            'file_ended_early',
            `test files reported no tests of their own (exited early?): ${files.join(', ')}`,
            tests,
            report,
          );
    }
  }
  if (
    read.source === 'junit' &&
    'junit' in read &&
    read.junit.declared !== null &&
    !sameCounts(read.junit.declared, countTests(read.junit.tests))
  ) {
    return unrunnable(
      'report_inconsistent',
      'the JUnit report declares other counts than its test cases',
      tests,
      report,
    );
  }
  const knownRunner = runner !== 'generic';
  if (knownRunner && summary === null && runner !== 'node') {
    if (runner === 'pytest' || reportCounts === null)
      return unrunnable('summary_missing', `no ${runner} summary in the output`, tests, report);
  }
  if (
    summary !== null &&
    reportCounts !== null &&
    read.source === 'junit' &&
    (summary.failed !== reportCounts.failed || summary.passed !== reportCounts.passed)
  ) {
    return unrunnable(
      'report_inconsistent',
      `runner summary (${fmt(summary)}) and report (${fmt(reportCounts)}) disagree`,
      tests,
      report,
    );
  }
  const witness = summary ?? reportCounts;
  const failing =
    witness === null
      ? null
      : witness.failed +
        (summary !== null && 'cancelled' in summary ? (summary as { cancelled: number }).cancelled : 0);
  if (failing !== null && (code === 0) !== (failing === 0)) {
    return unrunnable(
      'report_inconsistent',
      `exit ${code} but the ${summary !== null ? 'summary' : 'report'} counts ${failing} failing`,
      tests,
      report,
    );
  }
  return code === 0
    ? { outcome: 'PASS', kind: 'passed', tests, report, detail: '' }
    : { outcome: 'FAIL', kind: 'failed', tests, report, detail: '' };
}

/** Test files a report names as failing entries of their own: they failed to load. */
function collectionErrors(tests: readonly TestResult[] | null): string[] {
  return (tests ?? [])
    .filter((t) => (t.outcome === 'error' || t.outcome === 'failed') && isFileEntry(t.id))
    .map((t) => t.id);
}

function sameCounts(a: Counts, b: Counts): boolean {
  return a.total === b.total && a.failed === b.failed;
}

function fmt(c: Counts): string {
  return `${c.passed} passed, ${c.failed} failed`;
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? '';
}
