/**
 * Runs the test command: a baseline on the unmutated tree (green twice, to see red or flaky:
 * one run recording which tests execute the changed code under the neutral edit, the other
 * ag-run's when bound to the same work, else its own), then each mutant in one of `jobs`
 * isolated copies, restored after every run.
 * @module
 */
import type { ProcessResult } from '@adversary-gate/core';
import type { Site } from '../engines/site.js';
import type { RunnerName } from '../runners/runner.js';
import { checkEquivalence } from './equivalence.js';
import { judgeMutant, selectionUses, type MutantVerdict } from './mutant-run.js';
import { instrumentation, type Instrumented } from './instrument.js';
import { neutrallyEdited, runNeutral, survivesNeutralEdit } from './neutral-edit.js';
import type { PriorRunUse } from '../prior-run.js';
import type { RunStatus } from './outcome.js';
import { StandaloneChecks } from './standalone.js';
import type { ExecOptions, ExecStatus } from './types.js';
import { Workspace } from './workspace.js';
import { mutantCpuBudget, mutantTimeout } from './limits.js';
import { judgingOrder } from '../select.js';
import { chooseWarmHost } from '../warm/choose.js';
import { WarmHosts } from '../warm/warm-hosts.js';

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

/** What execution produced. */
export interface ExecResult {
  readonly baseline: Baseline;
  readonly secondGreenRun: SecondGreenRun;
  /** Status per site, same order as the input; empty when the baseline was not green. */
  readonly statuses: readonly ExecStatus[];
  /** The test that killed each mutant, when the run named one (same order). */
  readonly killedBy: readonly (string | null)[];
  /** The wall-clock backstop of one mutant run (ms). */
  readonly mutantTimeoutMs: number;
  /** The CPU budget of one mutant run (ms), null when the baseline's CPU could not be measured (the wall limit alone). */
  readonly mutantCpuBudgetMs: number | null;
  /** Which tests the mutants ran. */
  readonly selection: { readonly runner: RunnerName; readonly mode: 'per-test' | 'per-test-file' | 'whole-command' };
  /** Problems of the harness itself (a sandbox that could not be built for a run). */
  readonly faults: readonly string[];
  /** The suite failed on a behaviour-neutral edit of the changed files (then no mutant ran). */
  readonly neutralEditFailed: boolean;
  /** Every mutant's verdict (same order as the input; empty when the baseline was not green). */
  readonly verdicts: readonly MutantVerdict[];
  /** Wall-clock time per phase (ms): baseline runs, mutant runs; and, for warm vitest hosts, their counts. */
  readonly phases: Readonly<Record<string, number>>;
  /** Whether the mutants were judged on warm vitest hosts, and why not or why they stopped (null: no reason). */
  readonly warmHost: { readonly used: boolean; readonly note: string | null };
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
 * again later on its own.
 */
async function baseline(
  ws: Workspace,
  opts: ExecOptions,
  texts: ReadonlyMap<string, string>,
  sites: readonly Site[],
): Promise<Baseline & { instrumented: Instrumented; neutralPassed: boolean; second: SecondGreenRun }> {
  const inst = instrumentation(ws, opts, neutrallyEdited(texts), sites);
  const runs: BaselineRunResult[] = [];
  const log = (kind: BaselineRunResult['kind'], result: ProcessResult) => {
    runs.push({ kind, result });
    return result;
  };
  const recording = Object.keys(inst.env).length > 0 || inst.command !== null;
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
  const secondBeside = async () => {
    const use = await prior;
    return use.used ? null : plainRun(own);
  };
  const sharded = inst.shardEnv !== undefined && ws.copies.length >= 2 && opts.priorGreen !== undefined;
  if (sharded) {
    const shards = await recordInShards(ws, opts, texts, inst);
    for (const r of shards) log('recorded', r);
    if (shards.every(isGreen)) return shardedBaseline(shards, await prior, () => plainRun(0), inst, runs);
    // A shard failed: the runs below judge, as if no shard had run.
  }
  let [r0, r1] =
    own === 1 ? await Promise.all([first(), secondBeside()]) : [await first(), (await prior).used ? null : undefined];
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
): Promise<Baseline & { instrumented: Instrumented; neutralPassed: boolean; second: SecondGreenRun }> {
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
  };
}

/**
 * Run the baseline, then every runnable site (`parses`); sites that do not parse are
 * stillborn without a run. Copies live in a fresh temporary folder, removed at the end.
 */
export async function execute(
  sites: readonly Site[],
  texts: ReadonlyMap<string, string>,
  opts: ExecOptions,
): Promise<ExecResult> {
  const runnable = sites.filter((s) => s.parses).length;
  const tw = performance.now();
  const ws = new Workspace(
    opts.tree,
    Math.max(1, Math.min(opts.jobs, Math.max(2, runnable))),
    opts.passEnv,
    opts.sandbox ?? 'none',
  );
  const workspaceMs = Math.round(performance.now() - tw);
  try {
    const t0 = performance.now();
    const base = await baseline(ws, opts, texts, sites);
    const phases: Record<string, number> = {
      workspace_ms: workspaceMs,
      baseline_runs_ms: Math.round(performance.now() - t0),
    };
    for (const kind of ['recorded', 'neutral', 'plain'] as const) {
      const own = base.runs.filter((r) => r.kind === kind);
      if (own.length > 0) phases[`baseline_${kind}_ms`] = Math.round(own.reduce((a, r) => a + r.result.durationMs, 0));
    }
    if (base.instrumented.counted !== undefined) phases.site_counter_files = base.instrumented.counted;
    const timeoutMs = mutantTimeout(base.durationMs, opts.timeoutFactor);
    const cpuBudgetMs = base.cpuMs === null ? null : mutantCpuBudget(base.cpuMs);
    const map = base.instrumented.map();
    const selection = {
      runner: opts.runner?.name ?? 'other',
      mode: map === null ? ('whole-command' as const) : map.mode,
    };
    const done0 = {
      baseline: base,
      secondGreenRun: base.second,
      mutantTimeoutMs: timeoutMs,
      mutantCpuBudgetMs: cpuBudgetMs,
      selection,
      faults: ws.faults,
      neutralEditFailed: false,
      phases,
      verdicts: [],
      warmHost: { used: false, note: null as string | null },
    };
    if (base.status !== 'green') return { ...done0, statuses: [], killedBy: [] };
    if (!base.neutralPassed) {
      const t1 = performance.now();
      const survives = await survivesNeutralEdit(ws, opts.command, texts, timeoutMs);
      phases.neutral_edit_ms = Math.round(performance.now() - t1);
      if (!survives) return { ...done0, neutralEditFailed: true, statuses: [], killedBy: [] };
    }
    const verdicts: MutantVerdict[] = new Array<MutantVerdict>(sites.length);
    const tally: Record<RunStatus, number> = { killed: 0, survived: 0, timeout: 0, stillborn: 0 };
    const bucket = (v: MutantVerdict) =>
      v.status === 'no_coverage' || v.status === 'equivalent' ? 'survived' : v.status;
    const order = judgingOrder(sites.length, opts.order ?? { kind: 'forward' });
    let next = 0;
    let done = 0;
    const standalone = new StandaloneChecks(ws, texts, opts.python ?? 'python3', opts.baselineTimeoutMs);
    const plan = chooseWarmHost(opts, ws.copies[0]!.root, map);
    const warm =
      'plan' in plan ? new WarmHosts(ws, plan.plan, { timeoutMs, cpuBudgetMs, baselineCpuMs: base.cpuMs }) : undefined;
    const ctx = {
      ws,
      opts,
      timeoutMs,
      cpuBudgetMs,
      texts,
      map,
      coverage: base.instrumented.v8(),
      cleanPasses: new Map<string, Promise<boolean>>(),
      cleanRuns: { runs: 0, ms: 0 },
      killers: new Map<string, Set<string>>(),
      ...(opts.runner?.name === 'mocha' ? { selectionUses: selectionUses(map, sites) } : {}),
      standalone,
      ...(warm !== undefined ? { warm } : {}),
    };
    const worker = async (w: number) => {
      // The mutants this copy's host judged since its last good clean check, and those to judge again.
      let pending: number[] = [];
      const again: number[] = [];
      for (;;) {
        if (warm !== undefined && pending.length > 0) {
          const last = again.length === 0 && next >= sites.length;
          const settled = await warm.settle(w, verdicts[pending[0]!]!.host!, last);
          if (settled === 'rejudge') again.push(...pending);
          if (settled !== 'keep') pending = [];
        }
        const redo = again.length > 0;
        const i = redo ? again.shift()! : next < sites.length ? order[next++]! : -1;
        if (i < 0) break;
        const verdict = await judgeMutant(ctx, w, sites[i]!);
        if (redo) {
          tally[bucket(verdicts[i]!)]--;
          warm!.stats.rejudged++;
        }
        verdicts[i] = verdict;
        tally[bucket(verdict)]++;
        // A timeout stands as a fresh run's would (its forks, or its host, were killed); the rest wait for a clean check.
        if (verdict.host !== undefined && verdict.status !== 'timeout') pending.push(i);
        if (!redo) done++;
        opts.onProgress?.(done, sites.length, tally);
      }
    };
    const t2 = performance.now();
    try {
      await Promise.all(ws.copies.map((_, w) => worker(w)));
    } finally {
      await warm?.close();
    }
    phases.mutants_ms = Math.round(performance.now() - t2);
    if (ctx.cleanRuns.runs > 0) {
      phases.subset_clean_runs = ctx.cleanRuns.runs;
      phases.subset_clean_ms = Math.round(ctx.cleanRuns.ms);
    }
    if (warm !== undefined) {
      phases.warm_host_mutants = verdicts.filter((v) => v.host !== undefined).length;
      phases.warm_host_starts = warm.stats.starts;
      phases.warm_host_clean_checks = warm.stats.checks;
      phases.warm_host_rejudged = warm.stats.rejudged;
      phases.warm_host_reused_fork_runs = warm.stats.reusedForks;
      phases.warm_host_stale_fork_runs = warm.stats.staleForks;
      const cleanCpuMs = warm.cleanCpuMs();
      if (cleanCpuMs !== null && cpuBudgetMs !== null) {
        phases.warm_host_clean_cpu_ms = cleanCpuMs;
        phases.warm_host_cpu_budget_ms = warm.budget();
      }
    }
    const warmHost = {
      used: warm !== undefined && warm.stats.mutants > 0,
      note: 'reason' in plan ? plan.reason : warm!.off,
    };
    phases.fresh_process_mutants = verdicts.filter(
      (v) => v.host === undefined && v.status !== 'stillborn' && v.status !== 'no_coverage',
    ).length;
    if (opts.checkEquivalence !== false) {
      const t3 = performance.now();
      const answers = await checkEquivalence(ctx, 0, sites, verdicts);
      if (answers.size > 0) phases.equivalence_ms = Math.round(performance.now() - t3);
      for (const [i, a] of answers)
        verdicts[i] = {
          ...verdicts[i]!,
          status: a.verdict === 'probably_equivalent' ? 'equivalent' : 'survived',
          equivalence: a,
        };
    }
    phases.mutant_runs_ms = verdicts.reduce((a, v) => a + (v.durationMs ?? 0), 0);
    if (verdicts.some((v) => v.cpuMs !== undefined))
      phases.mutant_runs_cpu_ms = verdicts.reduce((a, v) => a + (v.cpuMs ?? 0), 0);
    return {
      ...done0,
      warmHost,
      verdicts,
      statuses: verdicts.map((v) => v.status),
      killedBy: verdicts.map((v) => v.killedBy),
    };
  } finally {
    ws.dispose();
  }
}
