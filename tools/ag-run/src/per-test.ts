/**
 * Per-test judgement across every execution of one command on each side: which tests are
 * flaky (passed and failed on the same side, or failed on the patch in a flaky file), which
 * failed on every patch execution after passing on every baseline execution (regressions),
 * which the baseline already failed. A file is flaky when one of its tests passed and failed
 * on one side or failed on the baseline: a time-budgeted suite fails a different set of its
 * tests from run to run, so a sibling's failure on the patch is no evidence against it.
 * Pure; only executions that ran to a verdict (PASS or FAIL) with a per-test report count.
 * @module
 */
import type { Execution, FlakyTest, TestResult } from '@adversary-gate/schemas';
import { fileOfId } from './renames.js';

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

/** True when a test both passed and failed among these sightings. */
export function flakyIn(seen: readonly Seen[] | undefined): boolean {
  return seen !== undefined && seen.some((s) => s.outcome === 'passed') && seen.some((s) => isFail(s.outcome));
}

/**
 * The test files (from the ids, where they carry one) with a test that passed and failed on
 * one side, or that failed in a baseline execution. `baseline` and `patch` give each id's
 * outcomes, one per execution.
 */
export function flakyFiles(
  baseline: ReadonlyMap<string, readonly TestResult['outcome'][]>,
  patch: ReadonlyMap<string, readonly TestResult['outcome'][]>,
): Set<string> {
  const mixed = (o: readonly TestResult['outcome'][] | undefined) =>
    o !== undefined && o.includes('passed') && o.some(isFail);
  const out = new Set<string>();
  for (const id of new Set([...baseline.keys(), ...patch.keys()])) {
    const file = fileOfId(id);
    if (file === null) continue;
    if (mixed(baseline.get(id)) || mixed(patch.get(id)) || (baseline.get(id) ?? []).some(isFail)) out.add(file);
  }
  return out;
}

const outcomes = (m: ReadonlyMap<string, readonly Seen[]>) =>
  new Map([...m].map(([id, seen]) => [id, seen.map((s) => s.outcome)]));

/** The flaky files of one command's history ({@link flakyFiles}). */
function flakyFilesOf(h: CommandHistory): Set<string> {
  return flakyFiles(outcomes(h.baseline), outcomes(h.patch));
}

/** True when a test both passed and failed on one side. */
export function isFlaky(h: CommandHistory, id: string): boolean {
  return flakyIn(h.baseline.get(id)) || flakyIn(h.patch.get(id));
}

/** True when a test is flaky, or failed on the patch in a file of `files`. */
function flakyHere(h: CommandHistory, id: string, files: ReadonlySet<string>): boolean {
  if (isFlaky(h, id)) return true;
  const file = fileOfId(id);
  return file !== null && files.has(file) && (h.patch.get(id) ?? []).some((s) => isFail(s.outcome));
}

/** Every flaky test of one command (a flaky file's failures on the patch included) with all its sightings, sorted by id. */
export function flakyTests(h: CommandHistory): FlakyTest[] {
  const files = flakyFilesOf(h);
  const ids = new Set([...h.baseline.keys(), ...h.patch.keys()].filter((id) => flakyHere(h, id, files)));
  return [...ids].sort().map((id) => ({
    id,
    command: h.command,
    runs: [...(h.baseline.get(id) ?? []), ...(h.patch.get(id) ?? [])].map((s) => ({
      side: s.side,
      round: s.round,
      outcome: s.outcome,
    })),
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
  const files = flakyFilesOf(h);
  for (const [id, seen] of h.patch) {
    if (!seen.some((s) => isFail(s.outcome))) continue;
    const before = h.baseline.get(id) ?? [];
    if (flakyHere(h, id, files)) out.set(id, 'flaky');
    else if (h.measured.baseline === 0) out.set(id, 'unknown');
    else if (before.every((s) => s.outcome !== 'passed' && !isFail(s.outcome))) out.set(id, 'new_failure');
    else if (before.every((s) => s.outcome === 'passed')) out.set(id, 'regression');
    else if (before.every((s) => isFail(s.outcome))) out.set(id, 'already_failing');
    else out.set(id, 'unknown');
  }
  return out;
}
