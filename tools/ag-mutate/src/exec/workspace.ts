/**
 * The folder a measurement works in: `jobs` isolated copies of the tree, a HOME per copy,
 * a scratch area for what the runs record, and the one way commands are run there (the
 * shared process runner, optionally inside bubblewrap).
 * @module
 */
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  bwrapArgv,
  DEFAULT_PROCESS_LIMIT,
  defaultLimits,
  withLimits,
  searchablePath,
  childEnv,
  freshIdentity,
  type UidRange,
  runningAsRoot,
  runProcess,
  sandboxReachedCommand,
  sweepLeftovers,
  toolchainDirs,
  type Identity,
  type ProcessResult,
  type ResourceLimits,
} from '@adversary-gate/core';
import { PACKAGE_ROOT } from '../package-files.js';
import { TreeCopy } from './tree-copy.js';

/** Where the tree's dependency folders lead when they are links (a workspace's node_modules). */
function linkedDependencies(tree: string): string[] {
  const out: string[] = [];
  for (const name of ['node_modules', '.venv', 'venv']) {
    const dir = path.join(tree, name);
    try {
      if (lstatSync(dir).isSymbolicLink()) out.push(realpathSync(dir));
    } catch {
      // absent or dangling
    }
  }
  return out;
}

/** Copies, homes and scratch space in one fresh temporary folder, removed by `dispose`. */
export class Workspace {
  readonly dir: string;
  readonly copies: TreeCopy[] = [];
  readonly homes: string[] = [];
  /** Where runs record (coverage, selections); writable inside the sandbox. */
  readonly data: string;
  /** Harness problems met while running (recorded as faults). */
  readonly faults: string[] = [];
  /**
   * As root, every run gets a fresh unprivileged uid (as ag-run's runs do): it owns its copy
   * and HOME for that run and nothing else, so no test can write the policy, the original
   * tree or any evidence, and every process it leaves is found by its uid and killed.
   */
  readonly isolate: boolean = runningAsRoot();

  constructor(
    readonly tree: string,
    count: number,
    readonly passEnv: readonly string[],
    readonly sandbox: 'none' | 'bwrap',
  ) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-'));
    this.data = path.join(this.dir, 'data');
    mkdirSync(this.data);
    if (this.isolate) {
      // The runs' uids may pass through the folder and record into the scratch area (sticky:
      // none can remove or replace what another, or this process, wrote there).
      chmodSync(this.dir, 0o711);
      chmodSync(this.data, 0o1777);
    }
    for (let i = 0; i < count; i++) {
      this.copies.push(TreeCopy.create(tree, path.join(this.dir, `tree${i}`)));
      const home = path.join(this.dir, `home${i}`);
      mkdirSync(home);
      this.homes.push(home);
    }
  }

  /** A fresh folder under the scratch area. */
  scratch(name: string): string {
    const dir = path.join(this.data, name);
    mkdirSync(dir, { recursive: true });
    if (this.isolate) chmodSync(dir, 0o1777);
    return dir;
  }

  /**
   * A fresh uid for one run (or one warm host) in copy `i`, given the copy and its HOME (null
   * when not root); `other`: from ag-core's other range, for a run that must not look like a test run.
   */
  identity(i: number, range: UidRange = 'usual'): Identity | null {
    if (!this.isolate) return null;
    const user = freshIdentity(range);
    this.giveCopy(i, user);
    return user;
  }

  /** Give copy `i` and its HOME to `user` again (a warm host's uid, after a fresh run took them). */
  giveCopy(i: number, user: Identity): void {
    this.copies[i]!.chown(user.uid, user.gid);
    chownSync(this.homes[i]!, user.uid, user.gid);
  }

  /**
   * ag-run's limits for every run of the patch's code here (a fresh run, a warm host): files,
   * data, open files, CPU (twice the wall limit `timeoutMs`), and as its own uid its processes
   * (a runaway is named by its death, never the machine's).
   */
  limits(timeoutMs: number, user: Identity | null): ResourceLimits {
    return {
      ...defaultLimits(Number.isFinite(timeoutMs) ? Math.ceil(timeoutMs / 1000) : 86_400),
      ...(user !== null ? { processes: DEFAULT_PROCESS_LIMIT } : {}),
    };
  }

  /** The environment of every command in copy `i`: the allowlist, its HOME and `extra`. */
  env(i: number, extra: Record<string, string> = {}): Record<string, string> {
    return childEnv({
      home: this.homes[i]!,
      passEnv: this.passEnv,
      extra: { PYTHONDONTWRITEBYTECODE: '1', ...extra },
    });
  }

  /** The argv of a shell command in copy `i`, inside bubblewrap when asked for. */
  private argv(i: number, command: string, user: Identity | null, env: Record<string, string>): string[] {
    const argv = ['/bin/sh', '-c', command];
    if (this.sandbox === 'none') return argv;
    const root = this.copies[i]!.root;
    // The sandbox's /tmp is empty: the original tree (the copy's dependency links point
    // into it), where its own dependency links lead, and this package stay readable, never
    // writable (bound with traversable parents, for a run under its own uid).
    // And, as ag-run binds them, the toolchain and the files the command names outside the
    // tree (an interpreter's prefix, the gate's own reporter module).
    const toolchain = toolchainDirs({
      path: process.env.PATH ?? '',
      command,
      keepOut: [root, this.data],
      ...(process.env.HOME !== undefined ? { home: process.env.HOME } : {}),
    });
    const readOnly = [path.resolve(this.tree), ...linkedDependencies(this.tree), PACKAGE_ROOT, ...toolchain].filter(
      (d) => existsSync(d),
    );
    const writable = [root, this.homes[i]!, this.data];
    const wrapped = bwrapArgv(argv, {
      writable,
      readOnly,
      chdir: root,
      // As a fresh uid, only the PATH entries it can search inside the sandbox.
      ...(user !== null ? { user, setenv: { PATH: searchablePath(env.PATH ?? '', { readOnly, writable }) } } : {}),
    });
    return wrapped;
  }

  /**
   * Run `command` with /bin/sh in copy `i` under the shared runner's limits: the wall-clock
   * `timeoutMs` and, when given, a CPU budget (ms) of the run's processes. Its CPU is measured either way.
   * An abort of `signal` ends the run as the wall-clock limit does.
   */
  async run(
    i: number,
    command: string,
    timeoutMs: number,
    extra: Record<string, string> = {},
    cpuBudgetMs: number = Number.POSITIVE_INFINITY,
    signal?: AbortSignal,
    range: UidRange = 'usual',
  ): Promise<ProcessResult> {
    const env = this.env(i, extra);
    const sandboxed = this.sandbox === 'bwrap';
    // No output cap: a green suite that prints a lot stays green (the tail is kept, the timeout
    // still ends a run that floods for ever).
    const user = this.identity(i, range);
    // A fresh uid gets only the PATH entries it can search (else a missing program is EACCES).
    if (user !== null && !sandboxed && env.PATH !== undefined) env.PATH = searchablePath(env.PATH);
    // And a TMPDIR of its own, as ag-run gives: two runs at once under two uids must not share
    // a folder one of them makes private (pytest's /tmp/pytest-of-<user> for tmp_path).
    const tmp = user !== null && !sandboxed ? this.runTmp(user) : null;
    if (tmp !== null) env.TMPDIR = tmp;
    const r = await runProcess({
      argv: withLimits(this.argv(i, command, user, env), this.limits(timeoutMs, user)),
      cwd: this.copies[i]!.root,
      env,
      timeoutMs,
      cpuBudgetMs,
      ...(signal !== undefined ? { signal } : {}),
      statusFd: sandboxed,
      sweep: !sandboxed,
      outputCapBytes: Number.POSITIVE_INFINITY,
      // Unsandboxed the child is spawned as the uid; bwrap binds as root and drops to it inside.
      ...(user !== null ? { ownUid: user.uid, ...(sandboxed ? {} : { user }) } : {}),
    });
    // Every process of the uid is gone: what it left in /tmp, /var/tmp and /dev/shm goes too,
    // before the next run (its copy, HOME and the scratch area are this folder's).
    if (user !== null) await this.sweep(user);
    if (tmp !== null) rmSync(tmp, { recursive: true, force: true });
    if (
      sandboxed &&
      !r.timedOut &&
      r.cpuBudgetHit !== true &&
      !r.outputCapHit &&
      !sandboxReachedCommand(r.statusText ?? '')
    ) {
      const why = r.stderrTail.trim().split('\n').pop() ?? '';
      this.faults.push(`the sandbox could not be built for a run of "${command}"${why ? `: ${why}` : ''}`);
      return { ...r, spawnError: 'sandbox setup failed' };
    }
    return r;
  }

  /** A fresh temporary folder for one run of `user`, theirs alone (mode 0700). */
  private runTmp(user: Identity): string {
    const dir = mkdtempSync(path.join(this.dir, 'tmp-'));
    chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
    return dir;
  }

  /**
   * Remove what `user` (a run's or a warm host's uid, every process of it gone) left where every
   * uid may write; this folder (its copies, HOMEs, scratch area) and the original tree are kept.
   */
  async sweep(user: Identity): Promise<void> {
    await sweepLeftovers(user, { keep: [this.dir, path.resolve(this.tree)] });
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
