/**
 * Runs the test command: the baseline (baseline.ts), then each mutant in one of `jobs`
 * isolated copies, restored after every run (those judged ahead of the map keep that verdict).
 * @module
 */
import type { Site } from '../engines/site.js';
import type { RunnerName } from '../runners/runner.js';
import { judgeApart } from './equivalence.js';
import { judgeJsApart, mergeFootprints } from '../apart/js-judge.js';
import { moduleKind } from './instrument.js';
import type { Footprint } from '@adversary-gate/schemas';
import { judgeMutant, selectionUses, type MutantVerdict } from './mutant-run.js';
import { judgeAheadOfMap } from './ahead.js';
import { baseline, type Baseline, type SecondGreenRun } from './baseline.js';
import { survivesNeutralEdit } from './neutral-edit.js';
import { withRevertParts } from './test-map.js';
import type { RunStatus } from './outcome.js';
import { StandaloneChecks } from './standalone.js';
import type { ExecOptions, ExecStatus } from './types.js';
import { Workspace } from './workspace.js';
import { mutantCpuBudget, mutantTimeout } from './limits.js';
import { judgingOrder } from '../select.js';
import { chooseWarmHost } from '../warm/choose.js';
import { WarmHosts } from '../warm/warm-hosts.js';

export type { Baseline, BaselineRunResult, SecondGreenRun } from './baseline.js';

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
  /** The changed functions' behaviour footprint (absent: no changed Python or JavaScript function was judged). */
  readonly footprint?: Footprint;
}

/** A canary, a revert or an equality probe: judged as a mutant is, counted nowhere. */
const notMutant = (site: Site) => site.canary === true || site.revert !== undefined || site.probe !== undefined;

/** Below this share of its wall time on a CPU, a run was starved (a loaded machine, or a hang), not looping. */
const STARVED_CPU_SHARE = 0.75;

/**
 * A timeout on a fresh process that the wall clock stopped while it had less than
 * {@link STARVED_CPU_SHARE} of the time on a CPU and was within its CPU budget (or whose CPU
 * time is unknown): a loaded machine may have slowed it. Such a site is judged once more at
 * twice the wall limit, mutant, canary, revert or probe alike: a timeout is a kill, and load
 * must not raise a strength or accuse honest tests. A hang times out again; a loop, which
 * had the CPU, stands at once.
 */
export const slowedRun = (v: MutantVerdict, cpuBudgetMs: number | null): boolean =>
  v.status === 'timeout' &&
  v.host === undefined &&
  (v.cpuMs === undefined ||
    v.durationMs === undefined ||
    ((cpuBudgetMs === null || v.cpuMs < cpuBudgetMs) && v.cpuMs < STARVED_CPU_SHARE * v.durationMs));

/**
 * The sites other than canaries still to be judged, and whether every kill among them named
 * its test: a canary waits for them, then runs only the tests that killed (or, when a kill
 * named none, every covering test).
 */
function othersTally(sites: readonly Site[]) {
  let left = sites.filter((s) => s.canary !== true).length;
  let named = true;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  if (left === 0) done();
  return {
    judged(v: MutantVerdict): void {
      if ((v.status === 'killed' || v.status === 'timeout') && v.killedBy === null) named = false;
      if (--left === 0) done();
    },
    async killerTests(killers: ReadonlyMap<string, ReadonlySet<string>>): Promise<{ killerTests?: Set<string> }> {
      await all;
      return named ? { killerTests: new Set([...killers.values()].flatMap((k) => [...k])) } : {};
    },
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
    // What every judgement shares, ahead of the map and after it: clean checks, known killers.
    const memory = {
      cleanPasses: new Map<string, Promise<boolean>>(),
      cleanRuns: { runs: 0, ms: 0 },
      killers: new Map<string, Set<string>>(),
    };
    const order = judgingOrder(sites.length, opts.order ?? { kind: 'forward' });
    const aheadCtx = {
      ws,
      opts,
      timeoutMs: opts.baselineTimeoutMs,
      cpuBudgetMs: null,
      texts,
      map: null,
      coverage: new Map(),
      ...memory,
    };
    const ahead = (recording: Promise<unknown>, testFilesOut: string) =>
      judgeAheadOfMap(
        aheadCtx,
        ws.copies.map((_, w) => w).slice(1),
        sites,
        order,
        opts.changedTests ?? [],
        testFilesOut,
        recording,
      );
    const base = await baseline(ws, opts, texts, sites, ahead);
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
    const map = withRevertParts(base.instrumented.map());
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
      ...memory,
      ...(opts.runner?.name === 'mocha' ? { selectionUses: selectionUses(map, sites) } : {}),
      standalone,
      ...(warm !== undefined ? { warm } : {}),
    };
    // With a test map the canaries go last: each runs the tests whose kills count, known once
    // every other site is judged (warm hosts, which redo, serve only runs without a map).
    const canariesLast = map !== null;
    const judging = canariesLast
      ? [...order.filter((i) => sites[i]!.canary !== true), ...order.filter((i) => sites[i]!.canary === true)]
      : order;
    const others = othersTally(sites);
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
        const i = redo ? again.shift()! : next < sites.length ? judging[next++]! : -1;
        if (i < 0) break;
        const early = redo ? undefined : base.ahead.get(i);
        const own =
          canariesLast && sites[i]!.canary === true ? { ...ctx, ...(await others.killerTests(memory.killers)) } : ctx;
        let verdict =
          early !== undefined && 'verdict' in early ? early.verdict : await judgeMutant(own, w, sites[i]!, early);
        // Stopped by the wall clock alone, within its CPU budget: slowed (a loaded machine), not
        // shown to loop or to be told apart: judged once more with twice the wall time.
        if (slowedRun(verdict, ctx.cpuBudgetMs))
          verdict = await judgeMutant({ ...own, timeoutMs: ctx.timeoutMs * 2 }, w, sites[i]!);
        if (!redo && sites[i]!.canary !== true) others.judged(verdict);
        // A canary or a revert is judged as a mutant is, but is no mutant: it is in no tally.
        const counted = !notMutant(sites[i]!);
        if (redo) {
          if (counted) tally[bucket(verdicts[i]!)]--;
          warm!.stats.rejudged++;
        }
        verdicts[i] = verdict;
        if (counted) tally[bucket(verdict)]++;
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
    const aheadMutants = [...base.ahead].filter(([i]) => !notMutant(sites[i]!));
    if (aheadMutants.length > 0) {
      phases.ahead_mutants = aheadMutants.length;
      phases.ahead_kills = aheadMutants.filter(([, r]) => 'verdict' in r).length;
    }
    if (ctx.cleanRuns.runs > 0) {
      phases.subset_clean_runs = ctx.cleanRuns.runs;
      phases.subset_clean_ms = Math.round(ctx.cleanRuns.ms);
    }
    const mutantVerdicts = verdicts.filter((_, i) => !notMutant(sites[i]!));
    if (warm !== undefined) {
      phases.warm_host_mutants = mutantVerdicts.filter((v) => v.host !== undefined).length;
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
    phases.fresh_process_mutants = mutantVerdicts.filter(
      (v) => v.host === undefined && v.status !== 'stillborn' && v.status !== 'no_coverage',
    ).length;
    // The survivors' differential check and the changed Python functions' footprint, apart from the tests.
    const t3 = performance.now();
    // A probe is never asked about, nor a revert of a whole file: their survival is the finding. A
    // surviving revert of one hunk is asked as a survivor is (does the hunk change any answer?); its
    // status stays `survived` and ag-decide reads the answer.
    const asked = verdicts.map((v, i) =>
      sites[i]!.probe !== undefined || sites[i]!.revert?.scope === 'file' ? { ...v, status: 'killed' as const } : v,
    );
    const apart = await judgeApart(
      ctx,
      0,
      sites,
      asked,
      opts.baselineTexts ?? new Map(),
      opts.checkEquivalence !== false,
    );
    Object.assign(phases, apart.phases);
    // The same questions for the changed JavaScript functions, from the calls the recording run recorded.
    const jsApart = await judgeJsApart(
      ctx,
      0,
      sites,
      asked,
      opts.baselineTexts ?? new Map(),
      opts.checkEquivalence !== false,
      base.instrumented.calls,
      (f) => moduleKind(ws.copies[0]!.root, f),
    );
    if (jsApart.phases.footprint_judge_ms !== undefined)
      phases.footprint_judge_ms = (phases.footprint_judge_ms ?? 0) + jsApart.phases.footprint_judge_ms;
    for (const [i, a] of jsApart.answers) apart.answers.set(i, a);
    const footprint = mergeFootprints(apart.footprint, jsApart.footprint);
    if (apart.answers.size > 0) phases.equivalence_ms = Math.round(performance.now() - t3);
    for (const [i, a] of apart.answers)
      verdicts[i] = {
        ...verdicts[i]!,
        status: a.verdict === 'probably_equivalent' ? 'equivalent' : 'survived',
        equivalence: a,
      };
    phases.mutant_runs_ms = mutantVerdicts.reduce((a, v) => a + (v.durationMs ?? 0), 0);
    if (mutantVerdicts.some((v) => v.cpuMs !== undefined))
      phases.mutant_runs_cpu_ms = mutantVerdicts.reduce((a, v) => a + (v.cpuMs ?? 0), 0);
    const canaryVerdicts = verdicts.filter((_, i) => sites[i]!.canary === true);
    if (canaryVerdicts.length > 0) {
      phases.canaries = canaryVerdicts.length;
      phases.canary_runs_ms = canaryVerdicts.reduce((a, v) => a + (v.durationMs ?? 0), 0);
    }
    const revertVerdicts = verdicts.filter((_, i) => sites[i]!.revert !== undefined);
    if (revertVerdicts.length > 0) {
      phases.reverts = revertVerdicts.length;
      phases.revert_runs_ms = revertVerdicts.reduce((a, v) => a + (v.durationMs ?? 0), 0);
    }
    return {
      ...done0,
      warmHost,
      ...(footprint !== undefined ? { footprint } : {}),
      verdicts,
      statuses: verdicts.map((v) => v.status),
      killedBy: verdicts.map((v) => v.killedBy),
    };
  } finally {
    ws.dispose();
  }
}
