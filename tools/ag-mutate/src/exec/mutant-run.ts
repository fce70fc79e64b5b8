/**
 * One mutant: decide from the baseline's coverage which tests to run (none: no_coverage;
 * some: those tests, likely killers first, until the first kill; unknown: the whole
 * command), write it into a copy, run, restore. Every run is a fresh process, so every
 * kill is a fresh-process kill. A kill by a subset of the tests is kept only when the same
 * subset passes on the unmutated tree (a stateful suite can fail when run in another order
 * or without its earlier tests); otherwise the whole command judges the mutant.
 * @module
 */
import { readInside, type ProcessResult } from '@adversary-gate/core';
import { lstatSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { applySite, type Site } from '../engines/site.js';
import { nodeTestFileCommand, withMochaRequire } from '../runners/runner.js';
import type { ExecOptions, ExecStatus } from './types.js';
import { MOCHA_HOOK } from '../package-files.js';
import { pytestPluginEnv } from './instrument.js';
import { classifyRun, mochaReportFile, passed, type RunVerdict } from './outcome.js';
import {
  holdsKiller,
  killersFirst,
  orderTests,
  unitFile,
  type Coverers,
  type TestMap,
  type TestUnit,
} from './test-map.js';
import { neverRan, type CoverageMap } from './v8-coverage.js';
import { RanLine } from '../records/hooks.js';
import { parseRecord } from '../records/read.js';
import { StandaloneChecks } from './standalone.js';
import type { Workspace } from './workspace.js';
import type { EquivalenceAnswer } from '../apart/rules.js';
import type { WarmHosts } from '../warm/warm-hosts.js';

/** What became of one mutant, and the test that killed it when a run named one. */
export interface MutantVerdict {
  readonly status: ExecStatus;
  readonly killedBy: string | null;
  /** How the deciding run ended when it was neither a pass nor a test failure. */
  readonly ended?: string | null;
  /** The deciding run could not start: the survivor status is not a measurement. */
  readonly unjudged?: boolean;
  /** Wall-clock time of the mutant's own runs (ms). */
  readonly durationMs?: number;
  /** CPU time of the mutant's own runs (ms), when it could be measured. */
  readonly cpuMs?: number;
  /** The differential check of its function, when it survived and was asked. */
  readonly equivalence?: EquivalenceAnswer;
  /** The warm host that judged it (its generation); absent: fresh processes. */
  readonly host?: number;
}

/** What every mutant of one execution shares. */
export interface MutantContext {
  readonly ws: Workspace;
  readonly opts: ExecOptions;
  /** The wall-clock backstop of each run (ms). */
  readonly timeoutMs: number;
  /** The CPU budget of each run of a mutant (ms); null: the wall limit alone. */
  readonly cpuBudgetMs: number | null;
  readonly texts: ReadonlyMap<string, string>;
  readonly map: TestMap | null;
  readonly coverage: CoverageMap;
  /** Whether a subset command passes on the unmutated tree, by command and selection (computed once). */
  readonly cleanPasses: Map<string, Promise<boolean>>;
  /** The clean-tree runs those checks took: how many, and their wall-clock time (ms). */
  readonly cleanRuns: { runs: number; ms: number };
  /** Per mutated file, the tests whose confirmed kill of one of its mutants named them: tried first for the next. */
  readonly killers: Map<string, Set<string>>;
  /** How many mutants each mocha selection serves, by its test list (`selectionUses`): a shared one is checked whole, once. */
  readonly selectionUses?: ReadonlyMap<string, number>;
  /** The stillborn checks apart from the tests (absent: none beyond the engine's parse). */
  readonly standalone?: StandaloneChecks;
  /** The warm vitest hosts, when the whole command may be judged on one (absent: fresh processes). */
  readonly warm?: WarmHosts;
  /** Ends the mutant runs still going as timeouts (the runs ahead of the map, once they are late). */
  readonly signal?: AbortSignal;
  /** The tests whose kills count, once every kill named its test: a canary runs those of its covering tests (absent: all). */
  readonly killerTests?: ReadonlySet<string>;
}

const NO_KILLERS: ReadonlySet<string> = new Set();

/** A run's verdict and the output it was read from. */
type Ran = RunVerdict & { readonly output: string };

function coverersOf(ctx: MutantContext, site: Site): Coverers {
  if (ctx.map !== null) return forCanary(ctx, site, ctx.map.coverers(site));
  const starts = site.revert?.parts?.map((p) => p.start) ?? [site.start];
  return starts.every((s) => neverRan(ctx.coverage, site.file, s) === true) ? { kind: 'none' } : { kind: 'unknown' };
}

/**
 * A canary checks the kills that count: of its covering tests, those that killed a mutant or a
 * revert (a test that killed nothing adds nothing to the strength, whatever it reads). All of
 * them when a kill named no test or none of them killed.
 */
function forCanary(ctx: MutantContext, site: Site, cov: Coverers): Coverers {
  if (site.canary !== true || ctx.killerTests === undefined || cov.kind !== 'tests') return cov;
  const tests = cov.tests.filter(holdsKiller(ctx.killerTests));
  return tests.length === 0 ? cov : { kind: 'tests', tests };
}

/** What a mutant's runs have cost so far: wall-clock and CPU time (ms; CPU null once a run could not measure it). */
export interface Spent {
  ms: number;
  cpuMs: number | null;
}

/**
 * Run once, under the CPU budget and the wall-clock backstop. Past either the run is a
 * timeout (counted as a kill); there is no second run: CPU time does not grow with the
 * machine's load, so a mutant that is only slowed by other work stays within its budget.
 */
async function once(
  ctx: MutantContext,
  w: number,
  command: string,
  extra: Record<string, string>,
  spent: Spent,
): Promise<Ran> {
  // The per-test report the command writes (mocha's xunit file), removed first: only what this run wrote is read.
  const rel = mochaReportFile(command);
  const report = rel === null ? null : reportInCopy(ctx.ws.copies[w]!.root, rel);
  if (report !== null) rmSync(report, { force: true });
  const r = await ctx.ws.run(w, command, ctx.timeoutMs, extra, ctx.cpuBudgetMs ?? undefined, ctx.signal);
  spent.ms += r.durationMs;
  spent.cpuMs = spent.cpuMs === null || r.cpuMs === undefined ? null : spent.cpuMs + r.cpuMs;
  const read = report === null || rel === null ? undefined : () => readReport(ctx.ws.copies[w]!.root, rel);
  return { ...classifyRun(r, command, read), output: stripVTControlCharacters(`${r.stdoutTail}\n${r.stderrTail}`) };
}

/**
 * The report file `rel` in the copy at `root`, or null when a folder on the way is a link (the
 * copy's dependency links lead into the original tree, which is never written to, nor removed from).
 */
function reportInCopy(root: string, rel: string): string | null {
  const parts = path.posix.dirname(rel).split('/');
  let dir = root;
  for (const part of parts.filter((p) => p !== '.')) {
    dir = path.join(dir, part);
    try {
      if (lstatSync(dir).isSymbolicLink()) return null;
    } catch {
      break; // not there yet: the reporter creates it
    }
  }
  return path.join(root, rel);
}

/** The largest per-test report read. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/**
 * A per-test report's text; null when there is none, or it is not a regular file reached
 * without a link (the tests wrote it: a link to a FIFO or /dev/zero must not hang or flood us).
 */
function readReport(root: string, rel: string): string | null {
  const read = readInside(root, rel, MAX_REPORT_BYTES);
  return read.ok ? read.data.toString('utf8') : null;
}

/** One way of running the tests for a mutant: a command, its extra environment, and how to name the killer. */
export interface Attempt {
  readonly command: string;
  readonly env: Record<string, string>;
  /** A key for the clean-tree check (null: the whole command, never checked). */
  readonly key: string | null;
  readonly killer: () => string | null;
  /** The cheaper clean-tree check of a kill, when the run says which tests it ran up to the failure (mocha). */
  readonly confirm?: () => Attempt | null;
  /** The whole selection on the clean tree, when other mutants run the same selection (mocha): one check for all. */
  readonly shared?: Attempt;
}

/** The subset runs for a mutant that some tests cover, likely killers first. */
function attempts(ctx: MutantContext, w: number, site: Site, cov: Coverers): Attempt[] {
  const { opts } = ctx;
  const command = opts.mutantCommand ?? opts.command;
  if (cov.kind !== 'tests') return [];
  const ordered = orderTests(cov.tests, site.file);
  // Where a unit is a test file (a process, or the files a mocha run loads), the files that
  // killed earlier mutants of this file run first, on their own; per-test units keep their order.
  const killers = ctx.map?.mode === 'per-test-file' ? (ctx.killers.get(site.file) ?? NO_KILLERS) : NO_KILLERS;
  const runs = killersFirst(ordered, site.file, killers);
  if (ctx.map?.mode === 'per-test-file' && opts.runner?.nodeTestPrefix != null) {
    const runner = opts.runner;
    return runs
      .flatMap((r) => r.units)
      .map((unit) => {
        const cmd = nodeTestFileCommand(runner, unit.id);
        return { command: cmd, env: {}, key: cmd, killer: () => unit.id };
      });
  }
  const mocha = opts.runner?.name === 'mocha' ? withMochaRequire(command, MOCHA_HOOK) : null;
  if (ctx.map === null || (opts.runner?.name !== 'pytest' && mocha === null)) return [];
  if (mocha === null)
    return [selection(ctx, `select${w}`, command, pytestPluginEnv(opts.passEnv), ordered, false, false)];
  // mocha loads every test file it is given: the likely killers' files alone start faster.
  return runs.map((r, i) => selection(ctx, `select${w}-${i}`, mocha, {}, r.units, true, r.known));
}

/** One run of a selection of tests (written to a scratch folder of its own), bailing at the first failure. */
export function selection(
  ctx: MutantContext,
  scratch: string,
  run: string,
  baseEnv: Record<string, string>,
  units: readonly TestUnit[],
  mocha: boolean,
  known: boolean,
): Attempt {
  const dir = ctx.ws.scratch(scratch);
  const select = path.join(dir, 'tests.txt');
  const failed = path.join(dir, 'failed.txt');
  // pytest's plugin reads one node id a line; the mocha hook a JSON list (titles may hold anything).
  const list = mocha ? JSON.stringify(units.map((t) => t.id)) : units.map((t) => `${t.id}\n`).join('');
  writeFileSync(select, list);
  rmSync(failed, { force: true });
  const killer = () => {
    try {
      return readFileSync(failed, 'utf8') || null;
    } catch {
      return null; // a timeout, or no failure reported
    }
  };
  const env = { ...baseEnv, AG_MUTATE_SELECT: select, AG_MUTATE_FAILED: failed };
  if (!mocha) return { command: run, env, key: `${run}\0${list}`, killer };
  const ran = path.join(dir, 'ran.jsonl');
  rmSync(ran, { force: true });
  const skip = skippedTestFiles(ctx.map, units, dir);
  const key = `${run}\0${list}\0${skip.key}`;
  const shared = known || (ctx.selectionUses?.get(list) ?? 0) > 1;
  return {
    command: run,
    env: { ...env, ...skip.env, AG_MUTATE_RAN: ran },
    key,
    killer,
    confirm: () => ranUpToFailure(dir, run, ran, killer(), skip),
    ...(shared
      ? { shared: { command: run, env: { ...skip.env, AG_MUTATE_SELECT: select }, key, killer: () => null } }
      : {}),
  };
}

/**
 * How many mutants each mocha selection serves, keyed by its test list as the mocha hook reads
 * it: computed from the baseline's map before any mutant runs, the same in every copy.
 */
export function selectionUses(map: TestMap | null, sites: readonly Site[]): Map<string, number> {
  const uses = new Map<string, number>();
  if (map === null) return uses;
  for (const site of sites) {
    if (!site.parses) continue;
    const cov = map.coverers(site);
    if (cov.kind !== 'tests') continue;
    for (const { units } of killersFirst(orderTests(cov.tests, site.file), site.file, NO_KILLERS)) {
      const list = JSON.stringify(units.map((t) => t.id));
      uses.set(list, (uses.get(list) ?? 0) + 1);
    }
  }
  return uses;
}

/**
 * Does a kill by a subset stand? When the same tests, in the same order, pass on the clean
 * tree, the failure was the mutant's. A selection other mutants share is run whole on the
 * clean tree once: every run of it that failed at some test ran, up to that test, exactly what
 * the clean run passed. Otherwise (or when the whole one fails there) the tests up to the
 * failure are run, or the whole subset when the run does not say which ran (the shared run
 * writes neither record those are read from).
 */
export async function killStands(ctx: MutantContext, w: number, attempt: Attempt): Promise<boolean> {
  if (attempt.shared !== undefined && (await cleanPasses(ctx, w, attempt.shared))) return true;
  return cleanPasses(ctx, w, attempt.confirm?.() ?? attempt);
}

/**
 * The tests a mocha run started, in order, up to the failing one, as a selection of their
 * own: when they pass on the clean tree in that order, the failure was the mutant's. Null
 * (check the whole selection) unless the last test started is the one that failed: a hook
 * failure, a timeout or a crash may lie outside those tests.
 */
function ranUpToFailure(
  dir: string,
  command: string,
  ranFile: string,
  failed: string | null,
  skip: SkippedFiles,
): Attempt | null {
  let lines: string[];
  try {
    lines = readFileSync(ranFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  } catch {
    return null;
  }
  // A line that is not a test id (a write cut short) makes the record unusable, as a missing one.
  const ids = lines.map((l) => parseRecord(RanLine, l));
  if (ids.some((id) => id === null)) return null;
  if (failed === null || ids.at(-1) !== failed) return null;
  const list = JSON.stringify(ids);
  const select = path.join(dir, 'confirm.json');
  writeFileSync(select, list);
  return {
    command,
    env: { ...skip.env, AG_MUTATE_SELECT: select },
    key: `${command}\0${list}\0${skip.key}`,
    killer: () => null,
  };
}

/**
 * The baseline's test files that hold none of the selected tests: the mocha hook does not
 * load them (loading express's 88 test files costs more than running one). Files that held
 * no test (setup, root hooks) always load. The clean-tree check of a kill skips the same.
 */
function skippedTestFiles(map: TestMap | null, ordered: readonly { id: string }[], dir: string): SkippedFiles {
  if (map?.testFiles === undefined) return { env: {}, key: '' };
  const wanted = new Set(ordered.map((t) => unitFile(t.id)));
  const skip = [...map.testFiles].filter((f) => !wanted.has(f)).sort();
  if (skip.length === 0) return { env: {}, key: '' };
  const file = path.join(dir, 'skip.json');
  const key = JSON.stringify(skip);
  writeFileSync(file, key);
  return { env: { AG_MUTATE_MOCHA_SKIP: file }, key };
}

/** The environment that tells the mocha hook which test files not to load, and the list as a key. */
interface SkippedFiles {
  readonly env: Record<string, string>;
  readonly key: string;
}

/** Does the subset pass on the unmutated tree? Asked once per subset; run in copy `w` (the mutant already removed). */
function cleanPasses(ctx: MutantContext, w: number, attempt: Attempt): Promise<boolean> {
  const key = attempt.key!;
  let known = ctx.cleanPasses.get(key);
  if (known === undefined) {
    known = cleanRun(ctx, w, attempt, ctx.timeoutMs).then(passed);
    ctx.cleanPasses.set(key, known);
  }
  return known;
}

/** One run of `attempt` on the unmutated tree in copy `w` (restored after), counted in `cleanRuns`. */
export async function cleanRun(
  ctx: MutantContext,
  w: number,
  attempt: Attempt,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ProcessResult> {
  const r = await ctx.ws.run(w, attempt.command, timeoutMs, attempt.env, undefined, signal);
  ctx.ws.copies[w]!.restore();
  ctx.cleanRuns.runs++;
  ctx.cleanRuns.ms += r.durationMs;
  return r;
}

/** A confirmed kill of a mutant of `site`'s file by `killedBy`: that test (its file) runs first for the file's next mutants. */
export function noteKiller(ctx: MutantContext, site: Site, killedBy: string | null): void {
  if (killedBy !== null) ctx.killers.set(site.file, (ctx.killers.get(site.file) ?? new Set()).add(killedBy));
}

/** What a mutant's runs during the recording left to judge: the test files whose every test passed, and what those runs cost. */
export interface RunAhead {
  readonly passedFiles: ReadonlySet<string>;
  readonly ms: number;
  readonly cpuMs: number | null;
}

/** Runs of one mutant in copy `w`, each restoring the copy; `spent` adds up their cost. */
export function mutantRuns(ctx: MutantContext, w: number, site: Site, spent: Spent) {
  const copy = ctx.ws.copies[w]!;
  const mutated = applySite(ctx.texts.get(site.file)!, site);
  const run = async (command: string, env: Record<string, string>): Promise<Ran> => {
    copy.write(site.file, mutated);
    try {
      return await once(ctx, w, command, env, spent);
    } finally {
      copy.restoreFile(site.file);
      copy.restore();
    }
  };
  const onWarmHost = () =>
    ctx.warm?.judge(
      w,
      () => copy.write(site.file, mutated),
      () => {
        copy.restoreFile(site.file);
        copy.restore();
      },
    );
  return { run, onWarmHost };
}

/**
 * A revert whose run pytest ended with a collection error (exit 2, `ERROR collecting FILE`)
 * while its source module imports (the standalone check above): a test file cannot even be
 * imported without the change (it imports a name the patch added or renamed), so the tests
 * tell the change from no change, where a mutant's odd ending proves nothing. The test file,
 * or null when the run ended otherwise. The clean tree's runs of the same command were green.
 */
function revertUncollected(ctx: MutantContext, v: Ran): string | null {
  if (ctx.opts.runner?.name !== 'pytest' || v.status !== 'survived' || v.ended !== 'exit 2') return null;
  return /^_* ?ERROR collecting (\S+)/m.exec(v.output)?.[1] ?? null;
}

/** Judge one site in copy `w`; `ahead`: what its runs during the recording left. */
export async function judgeMutant(ctx: MutantContext, w: number, site: Site, ahead?: RunAhead): Promise<MutantVerdict> {
  if (!site.parses) return { status: 'stillborn', killedBy: null };
  const cov = coverersOf(ctx, site);
  if (cov.kind === 'none') return { status: 'no_coverage', killedBy: null };
  const whole = ctx.opts.mutantCommand ?? ctx.opts.command;
  const spent: Spent = { ms: ahead?.ms ?? 0, cpuMs: ahead === undefined ? 0 : ahead.cpuMs };
  const { run: runMutant, onWarmHost } = mutantRuns(ctx, w, site, spent);
  const verdictOf = async (v: Ran, killedBy: string | null): Promise<MutantVerdict> => {
    const durationMs = Math.round(spent.ms);
    const cost = { durationMs, ...(spent.cpuMs !== null ? { cpuMs: Math.round(spent.cpuMs) } : {}) };
    // A run that hints at a file that does not load (a type error, a failed import) is checked apart from the tests.
    if (
      ctx.standalone !== undefined &&
      (v.status === 'killed' || v.ended !== null) &&
      StandaloneChecks.wanted(site, v.output, v.ended)
    ) {
      const found = await ctx.standalone.check(w, site);
      if (found === 'fails') return { status: 'stillborn', killedBy: null, ended: null, unjudged: false, ...cost };
      if (found === 'unknown' && v.ended !== null)
        return { status: v.status, killedBy: null, ended: v.ended, unjudged: true, ...cost };
    }
    const uncollected = site.revert !== undefined ? revertUncollected(ctx, v) : null;
    if (uncollected !== null) return { status: 'killed', killedBy: uncollected, ended: null, unjudged: false, ...cost };
    return {
      status: v.status,
      killedBy: v.status === 'killed' ? killedBy : null,
      ended: v.ended,
      unjudged: v.unjudged,
      ...cost,
    };
  };
  // The covering tests of files whose every test passed ahead of the map have run once already.
  const left: Coverers =
    ahead !== undefined && cov.kind === 'tests'
      ? { kind: 'tests', tests: cov.tests.filter((t) => !ahead.passedFiles.has(unitFile(t.id))) }
      : cov;
  const passedAll: Ran = { status: 'survived', ended: null, unjudged: false, output: '' };
  if (left.kind === 'tests' && left.tests.length === 0) return verdictOf(passedAll, null);
  const subset = attempts(ctx, w, site, left);
  if (subset.length === 0) {
    const warm = await onWarmHost();
    if (warm === undefined || warm === null) return verdictOf(await runMutant(whole, {}), null);
    spent.ms += warm.ms;
    spent.cpuMs = spent.cpuMs === null || warm.cpuMs === null ? null : spent.cpuMs + warm.cpuMs;
    const v = await verdictOf({ status: warm.status, ended: null, unjudged: false, output: warm.output }, null);
    return { ...v, host: warm.generation };
  }
  let last: Ran | null = null;
  for (const attempt of subset) {
    const v = await runMutant(attempt.command, attempt.env);
    if (v.status === 'survived') {
      // A subset that ended oddly (exit 2, a signal) proves nothing about the tests after it: the whole command decides.
      if (v.ended !== null) return verdictOf(await runMutant(whole, {}), null);
      last = v;
      continue;
    }
    const killedBy = attempt.killer();
    if (await killStands(ctx, w, attempt)) {
      noteKiller(ctx, site, killedBy);
      return verdictOf(v, killedBy);
    }
    // The subset fails without the mutant too: its verdict proves nothing; the whole command decides.
    return verdictOf(await runMutant(whole, {}), null);
  }
  return verdictOf(last ?? passedAll, null);
}
