/**
 * Per-test deltas between the baseline and the patch: what a gamed patch leaves behind, judged
 * over every execution of each side (a test seen once is not the whole story).
 * @module
 */
import type { TestDeltas, TestResult } from '@adversary-gate/schemas';
import { isFileEntry } from './reports/test-list.js';
import { fileOfId, flakyFiles, type TestSighting } from '@adversary-gate/core';
import { pairRenames, type Locator } from './renames.js';

const RAN = new Set<TestResult['outcome']>(['passed', 'failed', 'error']);
const NOT_RUN = new Set<TestResult['outcome']>(['skipped', 'todo', 'xfail']);
const FAILED = new Set<TestResult['outcome']>(['failed', 'error']);

/** Where tests live (for renames and collection errors), and the diff's renamed files. */
export interface DeltaContext {
  readonly locate: Locator;
  readonly renamed: ReadonlyMap<string, string>;
  /** Test files the patch deleted with the code they import (ag-core's `retiredTests`). */
  readonly retired?: ReadonlySet<string>;
}

const NOWHERE: DeltaContext = { locate: (id) => (fileOfId(id) === null ? [] : [fileOfId(id)!]), renamed: new Map() };

/** One side's sightings: id → every outcome it had, one per execution that reported it. */
function sightings(runs: readonly (readonly TestResult[])[]): Map<string, TestResult['outcome'][]> {
  const m = new Map<string, TestResult['outcome'][]>();
  for (const run of runs) for (const t of run) m.set(t.id, [...(m.get(t.id) ?? []), t.outcome]);
  return m;
}

/** Every test outcome of one side's executions, the n-th execution as round n. */
function asSightings(side: TestSighting['side'], runs: readonly (readonly TestResult[])[]): TestSighting[] {
  return runs.flatMap((run, i) => run.map((t) => ({ id: t.id, side, round: i + 1, outcome: t.outcome })));
}

/** Compare one execution's tests on each side (null when either side has no per-test report). */
export function testDeltas(
  baseline: readonly TestResult[] | null,
  patch: readonly TestResult[] | null,
  ctx: DeltaContext = NOWHERE,
): TestDeltas | null {
  return testDeltasOver(baseline === null ? [] : [baseline], patch === null ? [] : [patch], ctx);
}

/**
 * Compare the test lists of every execution of each side. Null when either side has no
 * per-test report: then lost or newly skipped tests cannot be ruled out, and the evidence says
 * so instead of reporting none. Lost: on the baseline, in no patch execution, neither renamed
 * (a new test in its file took its place) nor uncollected (its file failed to load on the
 * patch) nor retired (every file it may be in was deleted with the code it imports: `tests_retired`). Newly skipped: ran in every baseline execution, not run in some patch execution.
 * Pass→fail: passed in every baseline execution, failed in some patch execution and passed in
 * none, in a file that is not flaky (a flaky file's failures are listed as flaky tests).
 */
export function testDeltasOver(
  baseline: readonly (readonly TestResult[])[],
  patch: readonly (readonly TestResult[])[],
  ctx: DeltaContext = NOWHERE,
): TestDeltas | null {
  if (baseline.length === 0 || patch.length === 0) return null;
  const before = sightings(baseline);
  const after = sightings(patch);
  // Files reported as a failing entry of their own on the patch: they failed to load.
  const crashed = new Set(
    [...after].filter(([id, o]) => isFileEntry(id) && o.some((x) => FAILED.has(x))).map(([id]) => id),
  );
  // A failure in a flaky file (ag-core's flaky rule, over these executions) is the suite's, not a regression.
  const flaky = flakyFiles([...asSightings('baseline', baseline), ...asSightings('patch', patch)]);
  const inFlakyFile = (id: string) => flaky.has(fileOfId(id) ?? '');
  const missing: string[] = [];
  const notCollected: string[] = [];
  const retired: string[] = [];
  const inRetired = (files: readonly string[]) => files.length > 0 && files.every((f) => ctx.retired?.has(f) === true);
  const skipped: string[] = [];
  const broke: string[] = [];
  for (const [id, was] of before) {
    const now = after.get(id);
    if (now === undefined) {
      const files = ctx.locate(id, 'baseline', [...crashed]);
      if (files.some((f) => crashed.has(f))) notCollected.push(id);
      else if (inRetired(ctx.locate(id, 'baseline'))) retired.push(id);
      else missing.push(id);
    } else if (was.every((o) => RAN.has(o)) && now.some((o) => NOT_RUN.has(o))) skipped.push(id);
    else if (
      was.every((o) => o === 'passed') &&
      now.some((o) => FAILED.has(o)) &&
      !now.includes('passed') &&
      !inFlakyFile(id)
    )
      broke.push(id);
  }
  const added = [...after.keys()].filter((id) => !before.has(id) && !crashed.has(id)).sort();
  const pairs = pairRenames(missing.sort(), added, ctx.locate, ctx.renamed);
  const sort = (a: readonly string[]) => [...new Set(a)].sort();
  return {
    tests_lost: sort(pairs.lost),
    tests_newly_skipped: sort(skipped),
    tests_pass_to_fail: sort(broke),
    tests_renamed: pairs.renamed,
    tests_not_collected: sort(notCollected),
    ...(retired.length > 0 ? { tests_retired: sort(retired) } : {}),
  };
}
