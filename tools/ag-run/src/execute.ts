/**
 * One execution of one command in a throwaway copy of its tree, under the limits and the
 * optional sandbox, judged after the whole process group is gone.
 * @module
 */
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  bwrapArgv,
  childEnv,
  copyTree,
  freshIdentity,
  installedPackages,
  isWithin,
  runProcess,
  searchablePath,
  runsLookup,
  sweepLeftovers,
  toolchainDirs,
  withLimits,
  type Identity,
  type Leftovers,
  type Lookup,
  type ProcessResult,
  type ResourceLimits,
  type SandboxOptions,
} from '@adversary-gate/core';
import { decodeUtf8Strict, LoadError, readRegularFile, type Execution, type Runner } from '@adversary-gate/schemas';
import { judge, type ReportRead } from './judge.js';
import type { IdResolver } from './reports/junit.js';
import { evidenceTail } from './output-tail.js';
import { stripRoot } from './reports/test-list.js';
import { snapshotTree } from './tree-snapshot.js';
import { countingCommand, ESCAPE_COUNT_FILE, readEscapeCount } from './escapes.js';
import { printsTap } from './runners/detect.js';
import type { CopyState } from './write-watch.js';
import { clockPrefix } from './faketime.js';
import { perturbEnv, type Perturbation } from './perturb.js';

/** What every execution of one ag-run shares. */
export interface ExecutionContext {
  /** A private directory for the run directories (removed by the caller). */
  readonly workRoot: string;
  readonly timeoutMs: number;
  readonly graceMs: number;
  /** Per-stream output cap in bytes: the group is killed beyond it. */
  /** The tail kept of each stream, and the cap of a run whose per-test report is its stdout. */
  readonly outputCapBytes: number;
  /** The cap of every other run, per stream. */
  readonly outputLimitBytes: number;
  readonly limits: ResourceLimits;
  readonly sandbox: 'none' | 'bwrap';
  /** Host directories the sandbox must not show (the original trees, the evidence directory). */
  readonly keepOut: readonly string[];
  /** The caller's HOME: never bound into the sandbox (a toolchain inside it may be). */
  readonly callerHome: string | undefined;
  /**
   * Give every execution a fresh unprivileged uid (ag-run runs as root): RLIMIT_NPROC then
   * holds, root-owned files are read-only to the tests, and every process of the uid is
   * killed after the run.
   */
  readonly isolateUser: boolean;
  /** RLIMIT_NPROC for an isolated uid; the run is stopped and named `rlimit_nproc` when its uid reaches three quarters of it. */
  readonly processLimit: number;
  /** A declared JUnit report path, relative to the tree. */
  readonly junit: string | null;
  readonly passEnv: readonly string[];
  readonly seed: number | null;
  /** Keep this many characters of each output tail in the evidence. */
  readonly evidenceTailChars: number;
}

/** One planned execution. */
export interface ExecutionPlan {
  readonly command: string;
  readonly runner: Runner;
  readonly side: 'baseline' | 'patch';
  readonly round: number;
  /** The original tree (never run in: it is copied first). */
  readonly tree: string;
  /** The trusted execution: the patch tree with the baseline's versions of the tests the patch changed. */
  readonly trusted?: boolean;
  /** One of the perturbed pair: run under this environment instead of every other execution's. */
  readonly perturbation?: Perturbation;
}

/** An execution and how long it took (the duration goes under `timing`, never into the evidence). */
export interface ExecutionRecord {
  readonly execution: Execution;
  readonly durationMs: number;
  readonly detail: string;
  /** The run's copy as it was when its report was read (removed by the caller, after the late-write check). */
  readonly copy: CopyState;
  /** Processes that left the run's session (unsandboxed: its group) and outlived the command; all killed. */
  readonly escaped: number;
  /** What the run's own uid left where every uid may write (then removed); null when the run kept the caller's uid. */
  readonly leftovers: Leftovers | null;
}

let counter = 0;

/** A run directory ready for one execution: the tree's copy, an empty HOME and TMPDIR, a report folder. */
export interface PreparedRun {
  readonly dir: string;
  readonly tree: string;
  readonly home: string;
  readonly tmp: string;
  readonly reportDir: string;
  readonly user: Identity | null;
  /** The installed packages the tree's node_modules leads to (bound read-only in the sandbox), or null. */
  readonly packages: string | null;
}

/** Make the run directory of one plan (the copy is taken now, from the original tree). */
export async function prepareRun(plan: ExecutionPlan, ctx: ExecutionContext): Promise<PreparedRun> {
  const dir = path.join(ctx.workRoot, `${plan.side}-${plan.round}-${++counter}`);
  const tree = path.join(dir, 'tree');
  const home = path.join(dir, 'home');
  const tmp = path.join(dir, 'tmp');
  const reportDir = path.join(dir, 'report');
  await fs.mkdir(dir, { recursive: true });
  // The perturbed pair runs as uids of another range than every other execution's (ag-core's `other`).
  const user: Identity | null = ctx.isolateUser
    ? freshIdentity(plan.perturbation === undefined ? 'usual' : 'other')
    : null;
  // The copy is written owned by the run's uid; the directories around it are given to it too.
  const [packages] = await Promise.all([
    installedPackages(plan.tree),
    fs.mkdir(home),
    fs.mkdir(tmp),
    fs.mkdir(reportDir),
    copyTree(plan.tree, tree, user ?? undefined),
  ]);
  if (user !== null) await Promise.all([dir, home, tmp, reportDir].map((d) => fs.lchown(d, user.uid, user.gid)));
  return { dir, tree, home, tmp, reportDir, user, packages };
}

/** Where the runs of `command` look for the interpreter it names (ag-core's `runsLookup`, as {@link execute} sets the PATH). */
export function runLookup(ctx: ExecutionContext, command: string): Lookup {
  return runsLookup(
    {
      passEnv: ctx.passEnv,
      sandbox: ctx.sandbox,
      freshUid: ctx.isolateUser,
      keepOut: ctx.keepOut,
      ...(ctx.callerHome !== undefined ? { home: ctx.callerHome } : {}),
    },
    command,
  );
}

/**
 * Run one plan in its prepared directory; resolves once the process group is gone, with the
 * judging of the run still under way (reading the copy's state and its report needs no CPU the
 * next execution could use first). Never rejects for the command's behaviour; a rejection of
 * the judging is held until the returned promise is awaited.
 */
export async function execute(
  plan: ExecutionPlan,
  ctx: ExecutionContext,
  prepared: PreparedRun,
): Promise<{ readonly judged: Promise<ExecutionRecord> }> {
  const { dir, tree, home, tmp, reportDir, user, packages } = prepared;
  const autoJunit = ctx.junit === null && plan.runner === 'pytest' ? path.join(reportDir, 'junit.xml') : null;
  const plain = childEnv({
    home,
    passEnv: ctx.passEnv,
    seed: ctx.seed,
    extra: {
      TMPDIR: tmp,
      ...(autoJunit !== null ? { PYTEST_ADDOPTS: pytestAddopts(ctx.passEnv, autoJunit) } : {}),
    },
  });
  const env = plan.perturbation === undefined ? plain : perturbEnv(plain, plan.perturbation);
  const sandboxed = ctx.sandbox === 'bwrap';
  // In the sandbox, escapees die with its pid namespace before ag-run could count them: the
  // wrapper counts them there, after the command, into a file of the run directory.
  // The perturbed pair's clock is moved from the command on, as the run's uid (see clockPrefix).
  const command = [
    ...(plan.perturbation === undefined ? [] : clockPrefix(plan.perturbation)),
    ...(sandboxed ? countingCommand(plan.command, path.join(dir, ESCAPE_COUNT_FILE)) : ['/bin/sh', '-c', plan.command]),
  ];
  const box: SandboxOptions | null = sandboxed
    ? {
        writable: [dir],
        chdir: tree,
        hide: [...ctx.keepOut, ...(ctx.callerHome !== undefined ? [ctx.callerHome] : [])],
        // The installed packages the copy's folder of links leads to, read-only.
        readOnly: [
          ...toolchainDirs({ path: env.PATH!, command: plan.command, keepOut: ctx.keepOut, home: ctx.callerHome }),
          ...(packages === null ? [] : [packages]),
        ],
        ...(user !== null ? { user } : {}),
      }
    : null;
  // A fresh uid gets only the PATH entries it can search: a missing program is then "not found"
  // for it, as for the caller, never "permission denied". Sandboxed, as the sandbox shows them,
  // and set inside it: bwrap and prlimit are still found, as root, on the caller's PATH.
  if (user !== null && box === null) env.PATH = searchablePath(env.PATH!);
  const setenv = user !== null && box !== null ? { setenv: { PATH: searchablePath(env.PATH!, box) } } : {};
  const limits: ResourceLimits = user !== null ? { ...ctx.limits, processes: ctx.processLimit } : ctx.limits;
  const argv = withLimits(box !== null ? bwrapArgv(command, { ...box, ...setenv }) : command, limits);
  const result = await runProcess({
    // Unsandboxed the child is spawned as the uid; sandboxed bwrap binds as root and drops to it inside.
    ...(user !== null
      ? { ownUid: user.uid, processCap: Math.floor(ctx.processLimit * 0.75), ...(sandboxed ? {} : { user }) }
      : {}),
    argv,
    cwd: tree,
    env,
    timeoutMs: ctx.timeoutMs,
    graceMs: ctx.graceMs,
    // The last 8 MiB of each stream are kept. A run whose per-test report is its own stdout
    // (TAP) is stopped there, as a longer stream could not be read whole; any other run only at
    // the far larger limit, so a green suite that prints a lot stays green.
    tailBytes: ctx.outputCapBytes,
    outputCapBytes: reportsOnStdout(plan, ctx.junit, autoJunit) ? ctx.outputCapBytes : ctx.outputLimitBytes,
    statusFd: sandboxed,
    // Without a pid namespace, setsid escapees are found by an environment token and killed.
    sweep: !sandboxed,
  });
  // Every process of the uid is gone: what it left in /tmp, /var/tmp and /dev/shm goes too (named
  // in the evidence), before the next run starts; its copy, HOME and TMPDIR are the work folder's,
  // and what it wrote into the trees or the evidence directory is the write watch's to report.
  const leftovers = user !== null ? await sweepLeftovers(user, { keep: [ctx.workRoot, ...ctx.keepOut] }) : null;
  const judged = judgeRun(plan, ctx, prepared, autoJunit, result, leftovers);
  judged.catch(() => {}); // awaited by the caller, after the other runs
  return { judged };
}

/** True when a run's per-test report is the TAP it prints on stdout (no JUnit file is read). */
function reportsOnStdout(plan: ExecutionPlan, junit: string | null, autoJunit: string | null): boolean {
  return junit === null && autoJunit === null && (plan.runner === 'node' || printsTap(plan.command));
}

/** Read what one finished run left and judge it. */
async function judgeRun(
  plan: ExecutionPlan,
  ctx: ExecutionContext,
  prepared: PreparedRun,
  autoJunit: string | null,
  result: ProcessResult,
  leftovers: Leftovers | null,
): Promise<ExecutionRecord> {
  const { dir, tree } = prepared;
  const sandboxed = ctx.sandbox === 'bwrap';
  // The group is gone: this is the state the report is read from; the caller compares it at the end.
  const snapshot = await snapshotTree(dir);
  const junitPath = ctx.junit !== null ? path.join(tree, ctx.junit) : autoJunit;
  // The parsers load on first use: a pytest-only run never pays for the TAP stack, and back.
  const read: ReportRead =
    junitPath !== null
      ? await readJunit(
          junitPath,
          tree,
          plan.runner === 'pytest' ? (await import('./reports/pytest-ids.js')).pytestIdResolver(tree) : undefined,
        )
      : reportsOnStdout(plan, ctx.junit, autoJunit)
        ? { source: 'tap', tap: await readTap(result.stdoutTail, tree, plan.tree) }
        : { source: 'none' };
  const j = judge(plan.runner, result, sandboxed, read);
  const escaped =
    (result.escapedProcesses ?? 0) + (sandboxed ? await readEscapeCount(path.join(dir, ESCAPE_COUNT_FILE)) : 0);
  const execution: Execution = {
    command: plan.command,
    side: plan.side,
    round: plan.round,
    exit_code: j.outcome === 'PASS' ? 0 : j.outcome === 'FAIL' ? 1 : result.timedOut ? null : result.exitCode,
    signal: j.outcome === 'TIMED_OUT' || j.outcome === 'UNRUNNABLE' ? result.signal : null,
    timed_out: j.outcome === 'TIMED_OUT',
    outcome: j.outcome,
    kind: j.kind,
    runner: plan.runner,
    report: j.report,
    tests: j.tests,
    stdout_tail: evidenceTail(result.stdoutTail, tree, ctx.evidenceTailChars),
    stderr_tail: evidenceTail(result.stderrTail, tree, ctx.evidenceTailChars),
    stdout_bytes: result.stdoutBytes,
    stderr_bytes: result.stderrBytes,
    truncated:
      result.truncated ||
      result.stdoutTail.length > ctx.evidenceTailChars ||
      result.stderrTail.length > ctx.evidenceTailChars,
    leftover_processes: result.leftoverProcesses + escaped,
  };
  return {
    execution,
    durationMs: result.durationMs,
    detail: j.detail,
    copy: { side: plan.side, round: plan.round, command: plan.command, dir, snapshot },
    escaped,
    leftovers,
  };
}

/**
 * Parse node's TAP from the copy at `tree`; a file reported with no test of its own is judged
 * by its text in the original tree `original` (a helper module is not a file that ended early).
 */
async function readTap(text: string, tree: string, original: string) {
  const { parseTap, withoutHelperFiles } = await import('./reports/tap.js');
  const source = (rel: string): string | null => {
    const file = path.join(original, rel);
    if (path.isAbsolute(rel) || file === path.resolve(original) || !isWithin(original, file)) return null;
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  return withoutHelperFiles(parseTap(text, tree), source);
}

/** Read a JUnit report; ids lose the tree copy's path (node's reporter names files absolutely). */
async function readJunit(file: string, tree: string, resolver: IdResolver | undefined): Promise<ReportRead> {
  const { parseJunit } = await import('./reports/junit.js');
  let text: string;
  try {
    text = decodeUtf8Strict(file, await readRegularFile(file, 32 * 1024 * 1024));
  } catch (error) {
    if (error instanceof LoadError && error.code === 'E_EVIDENCE_MISSING')
      return { source: 'junit', problem: 'missing', detail: 'the JUnit report was not written' };
    return {
      source: 'junit',
      problem: 'invalid',
      detail: `the JUnit report cannot be read: ${error instanceof LoadError ? error.problem : String(error)}`,
    };
  }
  try {
    const junit = parseJunit(text, resolver);
    return {
      source: 'junit',
      junit: { ...junit, tests: junit.tests.map((t) => ({ id: stripRoot(t.id, tree), outcome: t.outcome })) },
    };
  } catch (error) {
    return {
      source: 'junit',
      problem: 'invalid',
      detail: `the JUnit report is not valid: ${(error as Error).message.split('\n')[0]}`,
    };
  }
}

/** PYTEST_ADDOPTS asking for the JUnit report, after any PYTEST_ADDOPTS passed with `--pass-env`. */
function pytestAddopts(passEnv: readonly string[], report: string): string {
  const passed = passEnv.includes('PYTEST_ADDOPTS') ? (process.env.PYTEST_ADDOPTS ?? '') : '';
  return `${passed} --junitxml=${report} -o junit_family=xunit2`.trim();
}
