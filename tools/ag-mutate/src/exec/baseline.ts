/**
 * The baseline: the unmutated suite green twice before any mutant's verdict counts. One run
 * records which tests execute the changed code under the neutral edit (split over two copies,
 * or with mutants judged ahead of its map in the copies ag-run's run frees); the other is
 * ag-run's when bound to the same work, else ag-mutate's own plain run.
 * @module
 */
import type { ProcessResult } from '@adversary-gate/core';
import type { Site } from '../engines/site.js';
import type { PriorRunUse } from '../prior-run.js';
import type { AheadResult } from './ahead.js';
import { instrumentation, type Instrumented } from './instrument.js';
import { neutrallyEdited, runNeutral } from './neutral-edit.js';
import type { ExecOptions } from './types.js';
import type { Workspace } from './workspace.js';

/** One run of the unmutated tree, and what it was for. */
export interface BaselineRunResult {
  readonly kind: 'recorded' | 'neutral' | 'plain';
  readonly result: ProcessResult;
}

/** The baseline's verdict and the timing it gives the mutants. */
export interface Baseline {
  readonly status: 'green' | 'red' | 'flaky';
  /** The slower of the runs that ran as the mutants do, without the recording (ms): the mutants' timing. */
  readonly durationMs: number;
  /** The CPU time of the same runs (ms; the larger), null when it could not be measured: the mutants' CPU budget. */
  readonly cpuMs: number | null;
  readonly results: readonly ProcessResult[];
  /** Every run of the unmutated tree, in the order they were taken. */
  readonly runs: readonly BaselineRunResult[];
}

/** Where the baseline's second green run came from, and why a given run.json was not taken. */
export interface SecondGreenRun {
  readonly source: 'run_json' | 'own';
  readonly note: string | null;
}

/** The baseline with what the recording gave the mutants, and the mutants judged ahead of its map. */
export interface BaselineOutcome extends Baseline {
  readonly instrumented: Instrumented;
  readonly neutralPassed: boolean;
  readonly second: SecondGreenRun;
  readonly ahead: ReadonlyMap<number, AheadResult>;
}

const isGreen = (r: ProcessResult) =>
  r.exitCode === 0 && !r.timedOut && r.signal === null && !r.outputCapHit && r.spawnError === null;

/**
 * Two green runs of the unmutated suite. The first records what the tests execute and
 * carries the neutral edit (it only appends to each changed file, so every recorded offset
 * and line holds): one run answers "green?", "which tests reach each site?" and "does the
 * suite survive the neutral edit?". The second is ag-run's full-suite run on the patch when
 * it is bound to the same work (`priorGreen`), else a plain run (beside the first with two
 * copies, after it with one). When the first fails, it is run again without the recording
 * (a recording must not change the outcome), then plainly; the neutral edit is then asked
 * again later on its own. `ahead` judges mutants in the other copies while the first runs,
 * when ag-run's run stands for the second and the patch changed test files.
 */
export async function baseline(
  ws: Workspace,
  opts: ExecOptions,
  texts: ReadonlyMap<string, string>,
  sites: readonly Site[],
  ahead?: (recording: Promise<unknown>, testFilesOut: string) => Promise<Map<number, AheadResult>>,
): Promise<BaselineOutcome> {
  const inst = instrumentation(ws, opts, neutrallyEdited(texts), sites);
  const runs: BaselineRunResult[] = [];
  const log = (kind: BaselineRunResult['kind'], result: ProcessResult) => {
    runs.push({ kind, result });
    return result;
  };
  const recording = Object.keys(inst.env).length > 0 || inst.command !== null || inst.texts !== undefined;
  const edited = (extra: Record<string, string> = {}, command = opts.command, written?: ReadonlyMap<string, string>) =>
    runNeutral(ws, 0, command, texts, opts.baselineTimeoutMs, extra, written);
  const plainRun = async (i: number) => {
    const r = await ws.run(i, opts.command, opts.baselineTimeoutMs);
    ws.copies[i]!.restore();
    return log('plain', r);
  };
  const first = async () =>
    log(recording ? 'recorded' : 'neutral', await edited(inst.env, inst.command ?? opts.command, inst.texts));
  // The second run: ag-run's when bound, else our own plain run (decided once the tree's id is known).
  const own = ws.copies.length >= 2 ? 1 : 0;
  const prior = opts.priorGreen ?? Promise.resolve<PriorRunUse>({ used: false, why: '' });
  // With ag-run's run standing for the second, copy 1 judges mutants ahead of the map when the
  // patch changed test files (they kill most mutants); else the recording is split in two.
  const aheadOn =
    ahead !== undefined &&
    inst.testFilesOut !== undefined &&
    own === 1 &&
    opts.priorGreen !== undefined &&
    (opts.changedTests?.length ?? 0) > 0;
  let aheadResults = new Map<number, AheadResult>();
  const sharded = !aheadOn && inst.shardEnv !== undefined && ws.copies.length >= 2 && opts.priorGreen !== undefined;
  if (sharded) {
    const shards = await recordInShards(ws, opts, texts, inst);
    for (const r of shards) log('recorded', r);
    if (shards.every(isGreen)) return shardedBaseline(shards, await prior, () => plainRun(0), inst, runs);
    // A shard failed: the runs below judge, as if no shard had run.
  }
  const firstRun = first();
  const secondBeside = async () => {
    const use = await prior;
    if (!use.used) return plainRun(own);
    if (aheadOn) aheadResults = await ahead(firstRun, inst.testFilesOut!);
    return null;
  };
  let [r0, r1] =
    own === 1 ? await Promise.all([firstRun, secondBeside()]) : [await firstRun, (await prior).used ? null : undefined];
  if (r1 === undefined) r1 = await plainRun(0);
  const use = await prior;
  const second: SecondGreenRun =
    r1 === null
      ? { source: 'run_json', note: null }
      : { source: 'own', note: opts.priorGreen === undefined || use.used ? null : use.why };
  let instrumented = inst;
  let neutralPassed = isGreen(r0);
  // The first run ran with the recording: the mutants' limits come from a run that did not
  // record, when there is one.
  let untimed = recording;
  if (!neutralPassed) {
    instrumented = inst.discard();
    if (recording && (r1 === null || isGreen(r1))) {
      r0 = log('neutral', await edited());
      neutralPassed = isGreen(r0);
    }
    if (!neutralPassed) r0 = await plainRun(0);
    untimed = false;
  }
  const results = r1 === null ? [r0] : [r0, r1];
  // ag-run's run, when it stands for the second, was green: a failing run of ours beside it is flaky.
  const green = [...results.map(isGreen), ...(r1 === null ? [true] : [])];
  const status = green.every(Boolean) ? 'green' : green.some(Boolean) ? 'flaky' : 'red';
  // The mutants run without the recording, which slows a run (V8 coverage of every process,
  // mocha's per-test snapshots): their limit comes from the runs that were not recorded, or
  // from the recorded one when it is the only one (a longer limit, never a shorter one).
  const timed = untimed && results.length > 1 ? results.slice(1) : results;
  const cpu = timed.map((r) => r.cpuMs);
  return {
    status,
    durationMs: Math.max(...timed.map((r) => r.durationMs)),
    cpuMs: cpu.every((c) => c !== undefined) ? Math.max(...cpu) : null,
    results,
    runs,
    instrumented,
    neutralPassed,
    second,
    // Judged ahead of a map that was not made: left to be judged again.
    ahead: instrumented === inst ? aheadResults : new Map(),
  };
}

/**
 * The recorded run split in two: each of the first two copies runs every other test file
 * (the neutral edit and the recording in both), beside each other. Used when ag-run's green
 * run of the whole suite stands for the second: the suite as one command has passed there.
 */
function recordInShards(
  ws: Workspace,
  opts: ExecOptions,
  texts: ReadonlyMap<string, string>,
  inst: Instrumented,
): Promise<ProcessResult[]> {
  return Promise.all(
    [0, 1].map((i) =>
      runNeutral(
        ws,
        i,
        inst.command ?? opts.command,
        texts,
        opts.baselineTimeoutMs,
        { ...inst.env, ...inst.shardEnv!(i, 2) },
        inst.texts,
      ),
    ),
  );
}

/**
 * The baseline from green shards: ag-run's run stands for the second green run when bound,
 * else a plain run of the whole command follows (`plain`). The mutants' limits come from the
 * shards together (their wall-clock and CPU time added: the whole suite's, and more), or from
 * the plain run.
 */
async function shardedBaseline(
  shards: readonly ProcessResult[],
  use: PriorRunUse,
  plain: () => Promise<ProcessResult>,
  instrumented: Instrumented,
  runs: readonly BaselineRunResult[],
): Promise<BaselineOutcome> {
  const cpu = shards.map((r) => r.cpuMs);
  const together: ProcessResult = {
    ...shards[0]!,
    durationMs: shards.reduce((a, r) => a + r.durationMs, 0),
    ...(cpu.every((c) => c !== undefined) ? { cpuMs: cpu.reduce((a, c) => a + c!, 0) } : {}),
  };
  const r1 = use.used ? null : await plain();
  const timed = r1 ?? together;
  const status = r1 === null || isGreen(r1) ? 'green' : 'flaky';
  return {
    status,
    durationMs: timed.durationMs,
    cpuMs: timed.cpuMs ?? null,
    results: r1 === null ? [together] : [together, r1],
    runs,
    instrumented,
    neutralPassed: true,
    second: r1 === null ? { source: 'run_json', note: null } : { source: 'own', note: use.used ? null : use.why },
    ahead: new Map(),
  };
}
