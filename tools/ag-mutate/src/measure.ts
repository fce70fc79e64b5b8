/**
 * The measurement: from a diff and the patch tree to mutation.json.
 * @module
 */
import path from 'node:path';
import {
  gitTreeId,
  InputError,
  passedEnvSha256,
  readInside,
  type BoundDiff,
  type FileClass,
} from '@adversary-gate/core';
import type { Mutant, MutationArtefact } from '@adversary-gate/schemas';
import { buildArtefact } from './artefact.js';
import { languageOf, sortChanges, type MutableFile } from './changes.js';
import { EngineParseError, jsAnalysis } from './engines/js.js';
import { pythonAnalysis } from './engines/python.js';
import { judgedReverts } from './revert-plan.js';
import { mutantId, type CanarySpot, type Site } from './engines/site.js';
import { canaryRecord, freshCanarySeed, judgeCanaries, planCanaries } from './canary.js';
import { execute, type BaselineRunResult } from './exec/execute.js';
import { baselineText } from './exec/baseline-text.js';
import type { ExecOptions } from './exec/types.js';
import type { MutantVerdict } from './exec/mutant-run.js';
import { unmutatedLines } from './parts.js';
import { detectRunner } from './runners/runner.js';
import { selectSites, shardSites, type MutantOrder, type Shard } from './select.js';
import { priorRunUse, type PriorRun, type PriorRunUse } from './prior-run.js';

type Fault = MutationArtefact['faults'][number];

/** Everything the measurement needs; defaults are applied by the CLI. */
export interface MutateOptions {
  readonly diff: BoundDiff;
  readonly tree: string;
  readonly command: string;
  /** What each mutant runs instead of `command` (same tests, e.g. with the runner's bail flag). */
  readonly mutantCommand?: string;
  /** Mutant budget; null = every site. */
  readonly max: number | null;
  readonly jobs: number;
  readonly timeoutFactor: number;
  readonly baselineTimeoutMs: number;
  readonly shard: Shard | null;
  readonly python: string;
  readonly passEnv: readonly string[];
  readonly classify: (path: string) => FileClass;
  /** The policy file that shaped `classify`, listed among the inputs. */
  readonly policyInput?: { readonly role: 'policy'; readonly path: string; readonly sha256: `sha256:${string}` } | null;
  /** ag-run's run.json (`--run`): its full-suite execution on the patch may stand for the second baseline run. */
  readonly priorRun?: PriorRun;
  readonly onProgress?: ExecOptions['onProgress'];
  /** Run every command inside bubblewrap (the caller has probed that it works). */
  readonly sandbox?: 'none' | 'bwrap';
  /** False: every mutant runs the whole command, whatever the runner (default true). */
  readonly selectTests?: boolean;
  /** auto: vitest mutants on warm hosts where the config allows it; off: every mutant fresh (default off). */
  readonly warmHost?: 'auto' | 'off';
  /** The order the mutants are judged in (default forward). */
  readonly order?: MutantOrder;
  /** False: no differential check of the survivors (default true). */
  readonly checkEquivalence?: boolean;
  /** The seed that draws the canaries (`--canary-seed`; default: fresh random bits, recorded in mutation.json). */
  readonly canarySeed?: number;
}

/** The largest changed file read (a source file past it is no source a person reviews). */
const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

/** Read a changed file from the tree and check it is the diff's new side. @throws InputError */
function readChanged(tree: string, file: MutableFile, diff: BoundDiff): string {
  const full = path.join(tree, file.path);
  // Never through a link (a committed link may lead to a FIFO or /dev/zero a test creates), a
  // regular file only, of a bounded size.
  const read = readInside(tree, file.path, MAX_SOURCE_BYTES);
  if (!read.ok) throw new InputError(full, `a file the diff changes ${read.problem}; is --tree the patch side?`);
  const text = read.data.toString('utf8');
  const changed = diff.model.files.find((f) => f.path === file.path)!;
  const lines = text.split('\n');
  changed.addedLines.forEach((n, i) => {
    if ((lines[n - 1] ?? '').replace(/\r$/, '') !== changed.addedText[i]) {
      throw new InputError(
        full,
        `line ${n} differs from the diff's added line; --tree is not the patch side of --diff`,
      );
    }
  });
  return text;
}

/** The baseline text of each changed file (null: added, or the diff does not rebuild it). */
function baselineTexts(
  files: readonly MutableFile[],
  texts: ReadonlyMap<string, string>,
  diff: BoundDiff,
): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const f of files) {
    const changed = diff.model.files.find((c) => c.path === f.path);
    if (changed !== undefined) out.set(f.path, baselineText(texts.get(f.path)!, changed));
  }
  return out;
}

interface Collected {
  sites: Site[];
  /** Where a canary can go in each function that holds an added line. */
  canarySpots: CanarySpot[];
  /** Changed lines that hold code that runs (statements, case labels), per file. */
  executable: Map<string, number[]>;
  unjudged: boolean;
}

async function collectSites(
  files: readonly MutableFile[],
  texts: Map<string, string>,
  python: string,
  faults: Fault[],
): Promise<Collected> {
  const sites: Site[] = [];
  const canarySpots: CanarySpot[] = [];
  const executable = new Map<string, number[]>();
  let unjudged = false;
  for (const f of files.filter((x) => x.language === 'js')) {
    try {
      const a = jsAnalysis(f.path, texts.get(f.path)!, f.lines);
      sites.push(...a.sites);
      canarySpots.push(...a.canarySpots);
      executable.set(f.path, a.executable);
    } catch (error) {
      if (!(error instanceof EngineParseError)) throw error;
      faults.push({ code: 'ENGINE_PARSE_ERROR', message: error.message });
      unjudged = true;
    }
  }
  const py = files.filter((x) => x.language === 'python');
  if (py.length > 0) {
    try {
      const answer = await pythonAnalysis(
        python,
        py.map((f) => ({ path: f.path, text: texts.get(f.path)!, lines: f.lines })),
      );
      for (const [file, result] of answer) {
        if (result instanceof EngineParseError) {
          faults.push({ code: 'ENGINE_PARSE_ERROR', message: result.message });
          unjudged = true;
        } else {
          sites.push(...result.sites);
          canarySpots.push(...result.canarySpots);
          executable.set(file, result.executable);
        }
      }
    } catch (error) {
      faults.push({ code: 'ENGINE_FAILURE', message: (error as Error).message });
      unjudged = true;
    }
  }
  return { sites, canarySpots, executable, unjudged };
}

function toMutant(site: Site, verdict: MutantVerdict): Mutant {
  return {
    id: mutantId(site.file, site.line, site.column, site.operator, site.replacement, String(site.end - site.start)),
    file: site.file,
    line: site.line,
    column: site.column,
    operator: site.operator,
    original: site.original,
    replacement: site.replacement,
    status: verdict.status,
    killed_by: verdict.killedBy ?? null,
    ...(site.function !== undefined ? { function: site.function } : {}),
    ...(verdict.ended != null ? { ended: verdict.ended } : {}),
    ...(verdict.durationMs !== undefined ? { duration_ms: verdict.durationMs } : {}),
    ...(verdict.cpuMs !== undefined ? { cpu_ms: verdict.cpuMs } : {}),
    ...(verdict.equivalence !== undefined ? { equivalence: { ...verdict.equivalence } } : {}),
    ...(site.breaksType === true ? { breaks_type: true } : {}),
  };
}

const TAIL_CHARS = 4000;

/** Why a baseline run was not green, or null. */
function problemOf(r: BaselineRunResult['result']): string | null {
  if (r.spawnError !== null) return `could not run: ${r.spawnError}`;
  if (r.timedOut) return 'timeout';
  if (r.signal !== null) return `signal ${r.signal}`;
  return r.exitCode === 0 ? null : `exit ${r.exitCode}`;
}

/** A baseline run as the artefact records it: how it ended, how long it took, the tail of its output. */
function baselineRun({ kind, result: r }: BaselineRunResult): NonNullable<MutationArtefact['baseline_runs']>[number] {
  return {
    kind,
    exit_code: r.exitCode,
    signal: r.signal,
    timed_out: r.timedOut,
    duration_ms: Math.round(r.durationMs),
    stdout_bytes: r.stdoutBytes,
    stderr_bytes: r.stderrBytes,
    stdout_tail: r.stdoutTail.slice(-TAIL_CHARS),
    stderr_tail: r.stderrTail.slice(-TAIL_CHARS),
    problem: problemOf(r),
  };
}

/** Whether `opts.priorRun` stands for the second baseline run, once the patch tree's id is known. */
function priorGreen(opts: MutateOptions, patchTreeId: Promise<string | undefined>): Promise<PriorRunUse> {
  return patchTreeId.then((patchTree) =>
    priorRunUse(opts.priorRun!.value, {
      diffSha256: opts.diff.sha256,
      patchTree,
      command: opts.command,
      sandbox: opts.sandbox ?? 'none',
      passEnvSha256: passedEnvSha256(opts.passEnv),
    }),
  );
}

/** Measure suite strength on the diff's added lines. @throws InputError when the tree does not match the diff */
export async function measureMutation(opts: MutateOptions): Promise<MutationArtefact> {
  const started = performance.now();
  const changes = sortChanges(opts.diff.model, opts.classify);
  const faults: Fault[] = [];
  // The patch tree as the tests found it (the link to the installed packages a pipeline adds
  // left out), hashed beside the rest: the tests run in copies, never in the tree itself.
  const treeIdStarted = performance.now();
  let treeIdMs = 0;
  const patchTreeId = gitTreeId(opts.tree, ['node_modules']).then(
    (id): string | undefined => {
      treeIdMs = Math.round(performance.now() - treeIdStarted);
      return id;
    },
    (e: unknown) => {
      treeIdMs = Math.round(performance.now() - treeIdStarted);
      faults.unshift({
        code: 'TREE_ID',
        message: `the patch tree's git id could not be computed: ${e instanceof Error ? e.message : String(e)}`,
      });
      return undefined;
    },
  );
  const unbound = {
    diffSha256: opts.diff.sha256,
    inputs: [
      { role: 'diff', path: opts.diff.file, sha256: opts.diff.sha256 },
      ...(opts.policyInput ? [opts.policyInput] : []),
      ...(opts.priorRun ? [{ role: 'run', path: opts.priorRun.file, sha256: opts.priorRun.sha256 }] : []),
    ],
    foreign: changes.foreign,
    deleted: changes.deleted,
    budget: opts.max,
    shard: opts.shard,
    engine: 'ag-mutate' as const,
    sandbox: opts.sandbox ?? 'none',
  };
  const bound = async () => ({ ...unbound, patchTree: await patchTreeId });
  const nothing = async (reason: NonNullable<MutationArtefact['reason']>, unjudged = false) =>
    buildArtefact({
      ...(await bound()),
      faults,
      mutants: [],
      reason,
      unjudged,
      timing: { total_ms: Math.round(performance.now() - started) },
    });
  const anyChange =
    changes.sourceAdded || changes.foreign.length + changes.deleted.length + changes.linesRemovedOnly.length > 0;
  if (!anyChange) return nothing('no_source_changed');
  const texts = new Map(changes.mutable.map((f) => [f.path, readChanged(opts.tree, f, opts.diff)]));
  const removedOnly = changes.linesRemovedOnly.filter((p) => languageOf(p) !== null);
  for (const p of removedOnly)
    texts.set(p, readChanged(opts.tree, { path: p, language: languageOf(p)!, lines: new Set() }, opts.diff));
  if (opts.max === 0) return nothing('budget_zero');
  // Only removed lines: no mutant, but their reverts run where an engine reads the file.
  if (!changes.sourceAdded && removedOnly.length === 0) return nothing('deletion_only');
  const sitesStarted = performance.now();
  const {
    sites,
    canarySpots,
    executable,
    unjudged: engineUnjudged,
  } = await collectSites(changes.mutable, texts, opts.python, faults);
  // Reverts in every file an engine read (its sites, or only removed lines), within their own budget.
  const unread = new Set(faults.filter((f) => f.code === 'ENGINE_PARSE_ERROR').map((f) => f.message.split(':')[0]));
  const reverts = await judgedReverts({
    files: [...changes.mutable.map((f) => f.path), ...removedOnly].filter((p) => !unread.has(p)),
    texts,
    model: opts.diff.model,
    python: opts.python,
    spots: canarySpots,
    max: opts.max,
    shard: opts.shard,
  });
  const sitesMs = Math.round(performance.now() - sitesStarted);
  let unjudged = engineUnjudged;
  const noReverts = reverts.run.length === 0;
  if (sites.length === 0 && executable.size === 0 && noReverts)
    return nothing(!changes.sourceAdded ? 'deletion_only' : unjudged ? 'engine_failure' : 'no_mutants', unjudged);
  const selected = selectSites(sites, opts.max);
  // Reached: a line on which a selected mutant that compiles starts (the same in every shard).
  const unmutated = unmutatedLines(
    executable,
    new Set(selected.filter((x) => x.parses).map((x) => `${x.file}\0${x.line}`)),
  );
  const executableLines = [...executable.values()].reduce((n, l) => n + l.length, 0);
  const noneReason = (): NonNullable<MutationArtefact['reason']> =>
    !changes.sourceAdded
      ? 'deletion_only'
      : sites.length === 0 && executableLines === 0 && !unjudged
        ? 'no_executable_change'
        : sites.length === 0 && unjudged
          ? 'engine_failure'
          : 'no_mutants';
  const mine = shardSites(selected, opts.shard);
  if (mine.length === 0 && noReverts) return nothing(noneReason(), unjudged);
  const runner =
    opts.selectTests === false
      ? { name: detectRunner(opts.command).name, nodeTestPrefix: null }
      : detectRunner(opts.command);
  // The canaries ride in the judging list among the mutants, judged as they are.
  const canarySeed = opts.canarySeed ?? freshCanarySeed();
  // The reverts' functions may hold canaries too: a test that reads a function's text would kill its revert.
  const plan = planCanaries([...canarySpots, ...reverts.spots], [...mine, ...reverts.run], texts, canarySeed);
  const judged = plan.judged;
  const judgedFiles = [...changes.mutable.map((f) => f.path), ...removedOnly];
  const exec = await execute(judged, texts, {
    tree: opts.tree,
    command: opts.command,
    mutantCommand: opts.mutantCommand,
    jobs: opts.jobs,
    timeoutFactor: opts.timeoutFactor,
    baselineTimeoutMs: opts.baselineTimeoutMs,
    passEnv: opts.passEnv,
    coverFiles: new Set(judgedFiles.filter((p) => languageOf(p) === 'js')),
    pythonFiles:
      opts.selectTests === false ? new Set() : new Set(judgedFiles.filter((p) => languageOf(p) === 'python')),
    runner,
    selectTests: opts.selectTests !== false,
    checkEquivalence: opts.checkEquivalence !== false,
    sandbox: opts.sandbox ?? 'none',
    warmHost: opts.warmHost ?? 'off',
    order: opts.order,
    python: opts.python,
    onProgress: opts.onProgress,
    changedTests: changes.tests,
    baselineTexts: baselineTexts(changes.mutable, texts, opts.diff),
    changedFunctions: canarySpots.flatMap((c) => (c.function !== null ? [{ file: c.file, function: c.function }] : [])),
    ...(opts.priorRun !== undefined ? { priorGreen: priorGreen(opts, patchTreeId) } : {}),
  });
  for (const message of exec.faults) faults.push({ code: 'SANDBOX_SETUP', message });
  const testSelection = exec.selection;
  const common = await bound();
  const timing = {
    total_ms: Math.round(performance.now() - started),
    tree_id_ms: treeIdMs,
    sites_ms: sitesMs,
    ...exec.phases,
    baseline_ms: Math.round(exec.baseline.durationMs),
    mutant_timeout_ms: exec.mutantTimeoutMs,
    ...(exec.baseline.cpuMs !== null ? { baseline_cpu_ms: Math.round(exec.baseline.cpuMs) } : {}),
    ...(exec.mutantCpuBudgetMs !== null ? { mutant_cpu_budget_ms: exec.mutantCpuBudgetMs } : {}),
  };
  const baselineRuns = exec.baseline.runs.map(baselineRun);
  const rest = {
    ...common,
    faults,
    unjudged,
    timing,
    testSelection,
    baselineRuns,
    secondGreenRun: exec.secondGreenRun,
  };
  if (exec.baseline.status !== 'green') {
    return buildArtefact({
      ...rest,
      mutants: [],
      reason: exec.baseline.status === 'red' ? 'baseline_red' : 'baseline_flaky',
    });
  }
  // The verdict of each judged site, by site.
  const verdictOf = new Map(judged.map((site, i) => [site, exec.verdicts[i]!]));
  if (exec.neutralEditFailed) return buildArtefact({ ...rest, mutants: [], reason: 'neutral_edit_failed' });
  const unrun = exec.verdicts.filter(
    (v, i) => v.unjudged === true && judged[i]!.canary !== true && judged[i]!.revert === undefined,
  ).length;
  if (unrun > 0) {
    const them = unrun > 1 ? 'they are' : 'it is';
    faults.push({
      code: 'MUTANT_UNJUDGED',
      message: `${unrun} mutant${unrun > 1 ? 's' : ''} could not be judged (a run that could not start, or a stillborn check that could not tell); ${them} counted as surviving and the strength is unverified`,
    });
    unjudged = true;
  }
  const mutants = mine.map((site) => toMutant(site, verdictOf.get(site)!));
  const canaries = plan.canaries.map((site) => canaryRecord(site, verdictOf.get(site)!));
  const canaryUnrun = plan.canaries.filter((site) => verdictOf.get(site)!.unjudged === true).length;
  if (canaryUnrun > 0) {
    faults.push({
      code: 'CANARY_UNJUDGED',
      message: `${canaryUnrun} canar${canaryUnrun > 1 ? 'ies' : 'y'} could not be judged (a run that could not start): whether the tests read the source text is unknown, and the strength is unverified`,
    });
    unjudged = true;
  }
  const judgedCanaries = judgeCanaries(canaries);
  faults.push(...judgedCanaries.faults);
  if (judgedCanaries.faults.length > 0) unjudged = true;
  return buildArtefact({
    ...rest,
    unjudged,
    mutants,
    canaries,
    canarySeed,
    reverts: reverts.records(verdictOf),
    ...(exec.footprint !== undefined ? { footprint: exec.footprint } : {}),
    reason: judgedCanaries.killed ? 'canary_killed' : mine.length === 0 ? noneReason() : null,
    unmutatedLines: unmutated,
    executableLineCount: executableLines,
  });
}
