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
  DEFAULT_PROCESS_LIMIT,
  defaultLimits,
  freshIdentity,
  runningAsRoot,
  runProcess,
  searchablePath,
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

/** The folders every uid may write to, where a run's files would outlive it. */
const SHARED_WRITABLE = ['/tmp', '/var/tmp', '/dev/shm'];

/** Remove what the run's uid left in the shared writable folders (its own TMPDIR is removed whole). */
function removeLeftovers(who: Identity): void {
  spawnSync('find', [...SHARED_WRITABLE, '-xdev', '-mindepth', '1', '-user', String(who.uid), '-delete'], {
    stdio: 'ignore',
  });
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
    /** Ends the run as its limit does (the gate's deadline). */
    readonly signal?: AbortSignal;
    /** Files written into the run's fresh HOME first (an install's `.npmrc`), by name. */
    readonly homeFiles?: Readonly<Record<string, Buffer>>;
    /** Folders of the gate's the run may write (a package cache): its uid's while it runs, root's after. */
    readonly lend?: readonly string[];
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
  // A fresh uid gets only the PATH entries it can search (else a missing program is EACCES).
  if (who !== null && env.PATH !== undefined) env.PATH = searchablePath(env.PATH);
  const result = await runProcess({
    argv: withLimits(['/bin/sh', '-c', command], limits),
    cwd: dir,
    env,
    timeoutMs: opts.timeoutSeconds * 1000,
    graceMs: 2000,
    tailBytes: 1024 * 1024,
    sweep: who === null,
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    ...(who !== null ? { user: who, ownUid: who.uid, processCap: Math.floor(DEFAULT_PROCESS_LIMIT * 0.75) } : {}),
  });
  if (who !== null) {
    for (const d of [dir, ...lent]) chownTree(d, { uid: 0, gid: 0 });
    removeLeftovers(who);
  }
  rmSync(home, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(
    opts.log,
    `${result.stdoutTail}${result.stderrTail}${result.spawnError === null ? '' : `${result.spawnError}\n`}`,
  );
  const status = result.timedOut
    ? 124
    : result.spawnError !== null
      ? 125
      : (result.exitCode ?? 128 + signalNumber(result.signal));
  return { status, timedOut: result.timedOut };
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : 1;
}
