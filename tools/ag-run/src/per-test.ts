/**
 * Per-test judgement across every execution of one command on each side: which tests are
 * flaky (ag-core's `flakyFindings`, the one home of the rule ag-decide checks the listing
 * with: passed and failed on the same side, or failed on the patch in a flaky file), which
 * failed on every patch execution after passing on every baseline execution (regressions),
 * which the baseline already failed. Pure; only executions that ran to a verdict (PASS or
 * FAIL) with a per-test report count.
 * @module
 */
import { flakyFindings, type TestSighting } from '@adversary-gate/core';
import type { Execution, FlakyTest, TestResult } from '@adversary-gate/schemas';

/** One sighting of a test: in which execution, with which outcome. */
export interface Seen {
  readonly side: 'baseline' | 'patch';
  readonly round: number;
  readonly outcome: TestResult['outcome'];
}

/** Every sighting of every test of one command, per side. */
export interface CommandHistory {
  readonly command: string;
  readonly baseline: ReadonlyMap<string, readonly Seen[]>;
  readonly patch: ReadonlyMap<string, readonly Seen[]>;
  /** Executions per side that ran to a verdict with a per-test report. */
  readonly measured: { readonly baseline: number; readonly patch: number };
}

/** How a test that failed on the patch is read. */
export type FailureKind = 'regression' | 'new_failure' | 'already_failing' | 'flaky' | 'unknown';

const isFail = (o: TestResult['outcome']) => o === 'failed' || o === 'error';

/** An execution whose per-test outcomes are evidence: it ran to a verdict the report confirms. */
export function measured(e: Execution): e is Execution & { tests: TestResult[] } {
  return (e.outcome === 'PASS' || e.outcome === 'FAIL') && e.tests !== null;
}

/** The history of one command from its executions (any order, both sides). */
export function commandHistory(command: string, executions: readonly Execution[]): CommandHistory {
  const sides = { baseline: new Map<string, Seen[]>(), patch: new Map<string, Seen[]>() };
  const count = { baseline: 0, patch: 0 };
  for (const e of executions) {
    if (e.command !== command || !measured(e)) continue;
    count[e.side]++;
    for (const t of e.tests) {
      const list = sides[e.side].get(t.id) ?? [];
      list.push({ side: e.side, round: e.round, outcome: t.outcome });
      sides[e.side].set(t.id, list);
    }
  }
  return { command, baseline: sides.baseline, patch: sides.patch, measured: count };
}

/** Every sighting of one command's history, as the flaky rule counts them: the baseline's, then the patch's. */
function sightingsOf(h: CommandHistory): TestSighting[] {
  const out: TestSighting[] = [];
  for (const side of [h.baseline, h.patch])
    for (const [id, seen] of side)
      for (const s of seen) out.push({ id, side: s.side, round: s.round, outcome: s.outcome });
  return out;
}

/**
 * Every flaky test of one command (ag-core's rule: passed and failed on one side, or failed on
 * the patch in a flaky file; never one red in every run on both sides), sorted by id, with all its sightings, and, when only its file
 * makes it flaky, every sighting of the test that makes the file so (`file_runs`): what
 * ag-decide applies the same rule to.
 */
export function flakyTests(h: CommandHistory): FlakyTest[] {
  return flakyFindings(sightingsOf(h)).map((f) => ({
    id: f.id,
    command: h.command,
    runs: f.runs.map((s) => ({ side: s.side, round: s.round, outcome: s.outcome })),
    ...(f.fileRuns.length > 0
      ? { file_runs: f.fileRuns.map((s) => ({ id: s.id, side: s.side, round: s.round, outcome: s.outcome })) }
      : {}),
  }));
}

/**
 * Every test that failed in some patch execution, and how it reads: `flaky` (passed and failed
 * on one side, or its file is flaky), `regression` (passed on every baseline execution, failed on every patch
 * execution), `new_failure` (never ran to a verdict on the baseline), `already_failing` (failed
 * on every baseline execution too), `unknown` (no baseline execution ran to a verdict, or the
 * baseline neither always passed nor always failed it).
 */
export function failureKinds(h: CommandHistory): Map<string, FailureKind> {
  const out = new Map<string, FailureKind>();
  const flaky = new Set(flakyFindings(sightingsOf(h)).map((f) => f.id));
  for (const [id, seen] of h.patch) {
    if (!seen.some((s) => isFail(s.outcome))) continue;
    const before = h.baseline.get(id) ?? [];
    if (flaky.has(id)) out.set(id, 'flaky');
    else if (h.measured.baseline === 0) out.set(id, 'unknown');
    else if (before.every((s) => s.outcome !== 'passed' && !isFail(s.outcome))) out.set(id, 'new_failure');
    else if (before.every((s) => s.outcome === 'passed')) out.set(id, 'regression');
    else if (before.every((s) => isFail(s.outcome))) out.set(id, 'already_failing');
    else out.set(id, 'unknown');
  }
  return out;
}
