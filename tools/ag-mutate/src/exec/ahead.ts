/**
 * Mutants judged ahead of the map (mocha): while copy 0 records the baseline, and ag-run's
 * green run stands for the second so that the other copies would be idle, they run each
 * mutant with the test files the patch changed (loaded alone, whole, bailing at the first
 * failure). Nothing here needs the map: a kill stands when the same files pass on the clean
 * tree (one run, before any mutant), as every subset kill does; a pass says that those files'
 * tests passed, and the mutant's other covering tests are run once the map is known. The
 * results count only when the recording is green (the caller decides).
 * @module
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Site } from '../engines/site.js';
import { MochaTestFiles } from '../records/hooks.js';
import { readRecord } from '../records/read.js';
import { mutantCpuBudget, mutantTimeout } from './limits.js';
import {
  cleanRun,
  killStands,
  mutantRuns,
  noteKiller,
  selection,
  type Attempt,
  type MutantContext,
  type MutantVerdict,
  type RunAhead,
  type Spent,
} from './mutant-run.js';
import type { TestMap } from './test-map.js';
import { withMochaRequire } from '../runners/runner.js';
import { MOCHA_HOOK } from '../package-files.js';
import { passed } from './outcome.js';

/** What the mutants judged ahead left: a verdict, or the files whose tests passed, by site index. */
export type AheadResult = { readonly verdict: MutantVerdict } | RunAhead;

/** How often the hook's list of test files is looked for while the recording starts (ms). */
const POLL_MS = 25;

/**
 * A mutant run while the baseline is being recorded (no map yet): the `selection` (the test
 * files the patch changed, whose clean run has passed) once. A kill that stands is the
 * mutant's verdict; a pass says those files' tests passed (the rest is judged with the map);
 * anything else (a timeout under the selection's own limits, an odd ending) says nothing.
 */
async function judgeAhead(
  ctx: MutantContext,
  w: number,
  site: Site,
  selection: Attempt,
  files: ReadonlySet<string>,
): Promise<{ verdict: MutantVerdict } | RunAhead | null> {
  if (!site.parses) return null;
  const spent: Spent = { ms: 0, cpuMs: 0 };
  const v = await mutantRuns(ctx, w, site, spent).run(selection.command, selection.env);
  const cost = { ms: Math.round(spent.ms), cpuMs: spent.cpuMs === null ? null : Math.round(spent.cpuMs) };
  if (v.ended !== null) return null;
  if (v.status === 'survived') return { passedFiles: files, ...cost };
  if (v.status !== 'killed') return null;
  const killedBy = selection.killer();
  if (!(await killStands(ctx, w, selection))) return null;
  noteKiller(ctx, site, killedBy);
  const verdict: MutantVerdict = {
    status: 'killed',
    killedBy,
    ended: null,
    unjudged: false,
    durationMs: cost.ms,
    ...(cost.cpuMs !== null ? { cpuMs: cost.cpuMs } : {}),
  };
  return { verdict };
}

/**
 * The selection of whole test files run ahead of the map (mocha): `files` in order, every
 * other test file of `testFiles` left unloaded, checked on the clean tree as one (`shared`).
 */
function aheadSelection(
  ctx: MutantContext,
  w: number,
  files: readonly string[],
  testFiles: ReadonlySet<string>,
): Attempt | null {
  const mocha = withMochaRequire(ctx.opts.mutantCommand ?? ctx.opts.command, MOCHA_HOOK);
  if (mocha === null) return null;
  const map: TestMap = { mode: 'per-test-file', testFiles, coverers: () => ({ kind: 'unknown' }) };
  return selection(
    { ...ctx, map },
    `ahead${w}`,
    mocha,
    {},
    files.map((id) => ({ id, ms: 0 })),
    true,
    true,
  );
}

/** The hook's list of test files, once written; null when the recording ended without one. */
async function testFilesOnceLoaded(file: string, recorded: () => boolean): Promise<string[] | null> {
  for (;;) {
    const files = readRecord(MochaTestFiles, file);
    if (files !== null) return files;
    if (recorded()) return null;
    await delay(POLL_MS);
  }
}

/**
 * Judge mutants in `copies` (in `order`, from the front) until `recording` settles. `ctx`
 * holds the shared clean-check memory and killers; its limits are replaced by the changed
 * files' own clean run's. Returns what each judged site left (the order taken is `order`'s prefix).
 */
export async function judgeAheadOfMap(
  ctx: MutantContext,
  copies: readonly number[],
  sites: readonly Site[],
  order: readonly number[],
  changedTests: readonly string[],
  testFilesOut: string,
  recording: Promise<unknown>,
): Promise<Map<number, AheadResult>> {
  const results = new Map<number, AheadResult>();
  // A run still going once the recording has ended is let go on for as long as the recording
  // took, then ended (its mutant is judged after the map): a changed test file that hangs alone
  // never holds the mutants back for the suite's whole limit.
  const started = performance.now();
  const late = new AbortController();
  let recorded = false;
  void recording.finally(() => {
    recorded = true;
    setTimeout(() => late.abort(), performance.now() - started).unref();
  });
  const loaded = await testFilesOnceLoaded(testFilesOut, () => recorded);
  if (loaded === null || copies.length === 0) return results;
  const testFiles = new Set(loaded);
  const files = changedTests.filter((f) => testFiles.has(f));
  if (files.length === 0) return results;
  const w0 = copies[0]!;
  const first = aheadSelection(ctx, w0, files, testFiles);
  if (first?.shared === undefined) return results;
  // The clean run of the files: it confirms every kill below and gives their limits.
  const clean = await cleanRun(ctx, w0, first.shared, ctx.opts.baselineTimeoutMs, late.signal);
  ctx.cleanPasses.set(first.shared.key!, Promise.resolve(passed(clean)));
  if (!passed(clean) || recorded) return results;
  const limited: MutantContext = {
    ...ctx,
    signal: late.signal,
    timeoutMs: mutantTimeout(clean.durationMs, ctx.opts.timeoutFactor),
    cpuBudgetMs: clean.cpuMs === undefined ? null : mutantCpuBudget(clean.cpuMs),
  };
  const judged = new Set(files);
  let next = 0;
  const worker = async (w: number) => {
    while (!recorded && next < order.length) {
      const i = order[next++]!;
      // Made per mutant: each run starts with no failure and no list of started tests.
      const selection = aheadSelection(limited, w, files, testFiles)!;
      const result = await judgeAhead(limited, w, sites[i]!, selection, judged);
      if (result !== null) results.set(i, result);
    }
  };
  await Promise.all(copies.map(worker));
  return results;
}
