/**
 * One regime for every run of the patch's code outside ag-run and ag-mutate (the installs,
 * the gate's tool install, the coverage command): an allowlisted environment (PATH, a fresh
 * HOME and TMPDIR, LANG, TZ=UTC, the caller's CI: never its secrets), a wall-clock limit,
 * the resource limits ag-run gives its runs (files, data, processes, CPU), stdin closed. As
 * root, a fresh unprivileged uid that owns the folder while it runs; every process of that
 * uid is killed afterwards, and its files go back to root.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  bwrapArgv,
  DEFAULT_PROCESS_LIMIT,
  defaultLimits,
  freshIdentity,
  removeLeftovers,
  runningAsRoot,
  runProcess,
  sandboxReachedCommand,
  searchablePath,
  toolchainDirs,
  withLimits,
  type Identity,
} from '@adversary-gate/core';

/** How an isolated run ended: its exit status (124 when the limit ended it, 125 when it could not start). */
export interface IsolatedRun {
  readonly status: number;
  readonly timedOut: boolean;
}

/** Change the owner of `dir` and everything under it, links themselves (never their targets). */
function chownTree(dir: string, who: Identity): void {
  spawnSync('chown', ['-R', '-h', '-P', `${who.uid}:${who.gid}`, dir], { stdio: 'ignore' });
}

/** Whether `who` can enter `dir`'s parent (a tree under a 0700 folder cannot be run as another uid). */
function canEnter(dir: string, who: Identity): boolean {
  return spawnSync('test', ['-x', path.dirname(dir)], { uid: who.uid, gid: who.gid }).status === 0;
}

/** The environment a run of the patch's code gets. */
export function isolatedEnv(home: string, tmp: string, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    PATH: from.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmp,
    LANG: from.LANG ?? 'C.UTF-8',
    TZ: 'UTC',
    // The caller's CI, never one of the gate's: the suite sees what it sees without the gate.
    ...(from.CI !== undefined ? { CI: from.CI } : {}),
  };
}

/**
 * Run the shell command `command` in `dir` under the regime above; its output (stdout, then
 * stderr, the last 1 MiB of each) goes to `log`. `scratch` is a folder of the gate's where
 * the run's HOME and TMPDIR are made (and removed after).
 */
export async function runIsolated(
  dir: string,
  command: string,
  opts: {
    readonly timeoutSeconds: number;
    readonly log: string;
    readonly scratch: string;
    readonly extraEnv?: Record<string, string>;
    /** Variables of the caller's environment passed as they are (`--pass-env`). */
    readonly passEnv?: readonly string[];
    /** Ends the run as its limit does (the gate's deadline). */
    readonly signal?: AbortSignal;
    /** Files written into the run's fresh HOME first (an install's `.npmrc`), by name. */
    readonly homeFiles?: Readonly<Record<string, Buffer>>;
    /** Folders of the gate's the run may write (a package cache): its uid's while it runs, root's after. */
    readonly lend?: readonly string[];
    /**
     * Run inside bubblewrap (`--sandbox bwrap`), as ag-run's and ag-mutate's runs are: a pid
     * namespace and /proc of its own (no command line of the gate's to read), no network, a
     * private /tmp, the system read-only; writable only `dir`, its HOME and TMPDIR; readable
     * besides only `readOnly` (the installed packages) and the toolchain, never `keepOut`.
     */
    readonly sandbox?: { readonly readOnly: readonly string[]; readonly keepOut: readonly string[] };
  },
): Promise<IsolatedRun> {
  const home = mkdtempSync(path.join(opts.scratch, 'home-'));
  const tmp = mkdtempSync(path.join(opts.scratch, 'tmp-'));
  for (const [name, data] of Object.entries(opts.homeFiles ?? {}))
    writeFileSync(path.join(home, name), data, { mode: 0o600 });
  let who: Identity | null = runningAsRoot() ? freshIdentity() : null;
  if (who !== null && !canEnter(dir, who)) {
    process.stderr.write(`ag-gate: ${dir} lies under a folder other users cannot enter: running as the caller\n`);
    who = null;
  }
  const lent = opts.lend ?? [];
  if (who !== null) for (const d of [dir, home, tmp, ...lent]) chownTree(d, who);
  const limits = {
    ...defaultLimits(opts.timeoutSeconds),
    ...(who !== null ? { processes: DEFAULT_PROCESS_LIMIT } : {}),
  };
  const env = { ...isolatedEnv(home, tmp), ...opts.extraEnv };
  // The caller's variables named by --pass-env, as ag-run's and ag-mutate's runs get them.
  for (const name of opts.passEnv ?? []) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const callerPath = env.PATH ?? '';
  // A fresh uid gets only the PATH entries it can search (else a missing program is EACCES).
  if (who !== null && env.PATH !== undefined) env.PATH = searchablePath(env.PATH);
  const box = opts.sandbox;
  const argv = ['/bin/sh', '-c', command];
  let boxed = argv;
  if (box !== undefined) {
    const writable = [dir, home, tmp, ...lent];
    const readOnly = [
      ...box.readOnly,
      ...toolchainDirs({ path: callerPath, command, keepOut: box.keepOut, home: process.env.HOME }),
    ];
    boxed = bwrapArgv(argv, {
      writable,
      chdir: dir,
      readOnly,
      hide: box.keepOut,
      // bwrap binds as root and drops to the uid inside, with the PATH entries it can search there.
      ...(who !== null ? { user: who, setenv: { PATH: searchablePath(callerPath, { readOnly, writable }) } } : {}),
    });
  }
  const result = await runProcess({
    argv: withLimits(boxed, limits),
    cwd: dir,
    env,
    timeoutMs: opts.timeoutSeconds * 1000,
    graceMs: 2000,
    tailBytes: 1024 * 1024,
    sweep: who === null && box === undefined,
    statusFd: box !== undefined,
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    ...(who !== null
      ? {
          ownUid: who.uid,
          processCap: Math.floor(DEFAULT_PROCESS_LIMIT * 0.75),
          ...(box === undefined ? { user: who } : {}),
        }
      : {}),
  });
  const unboxed =
    box !== undefined &&
    !result.timedOut &&
    result.spawnError === null &&
    !sandboxReachedCommand(result.statusText ?? '');
  if (who !== null) {
    for (const d of [dir, ...lent]) chownTree(d, { uid: 0, gid: 0 });
    // What it left where every uid may write (its own TMPDIR goes below): ag-core's one sweep.
    removeLeftovers(who);
  }
  rmSync(home, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(
    opts.log,
    `${result.stdoutTail}${result.stderrTail}${result.spawnError === null ? '' : `${result.spawnError}\n`}${unboxed ? 'the sandbox could not be built: the command did not run\n' : ''}`,
  );
  const status = result.timedOut
    ? 124
    : result.spawnError !== null || unboxed
      ? 125
      : (result.exitCode ?? 128 + signalNumber(result.signal));
  return { status, timedOut: result.timedOut };
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : 1;
}
