/**
 * libfaketime, as the perturbed pair uses it (`perturb.ts`): where the library is, whether it
 * moves the clock here, the variables and the command prefix that load it, and the objects it
 * leaves in /dev/shm (libfaketime 0.9.10 makes a semaphore and a shared memory object per
 * process tree, named by the pid of its first process, and keeps them when that process execs
 * or is killed).
 * @module
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Leftovers } from '@adversary-gate/core';

/** Where Debian's `libfaketime` and a source build put the library. */
export const FAKETIME_LIBRARIES: readonly string[] = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
  '/usr/local/lib/faketime/libfaketime.so.1',
];

/** libfaketime's own variables: set on the command, not in the environment (see {@link clockPrefix}). */
export const CLOCK_VARIABLE = /^(LD_PRELOAD|FAKETIME|NO_FAKE_STAT)/;

/**
 * `env LD_PRELOAD=… FAKETIME=…`, put before the command: the library is loaded from the
 * command on, as the run's uid, never into prlimit, bwrap or setpriv as root (libfaketime 0.9.10
 * keeps a semaphore and a shared memory object in /dev/shm, made by the first process that
 * loads it, 0600: one made by root inside the sandbox could not be opened by the run's uid,
 * which then exits; and a setuid bwrap would drop `LD_PRELOAD` anyway). Empty when the clock is
 * not moved.
 */
export function clockPrefix(p: { readonly env: readonly { name: string; value: string | null }[] }): string[] {
  const vars = p.env.filter((v) => v.value !== null && CLOCK_VARIABLE.test(v.name)).map((v) => `${v.name}=${v.value}`);
  return vars.length === 0 ? [] : ['/usr/bin/env', ...vars];
}

/** libfaketime's path when it is installed and moves the clock of `date +%s` by `days`, else why not. */
export async function probeFaketime(
  days: number,
  libraries: readonly string[],
): Promise<{ readonly path: string } | { readonly problem: string }> {
  const lib = libraries.find((l) => existsSync(l));
  if (lib === undefined) return { problem: `libfaketime is not installed (looked for ${libraries.join(', ')})` };
  const before = Date.now() / 1000;
  const out = await output('date', ['+%s'], { PATH: process.env.PATH, ...faketimeVars(lib, days) });
  const seen = out === null ? Number.NaN : Number(out.trim());
  const moved = seen - before;
  if (!Number.isFinite(moved) || Math.abs(moved - days * 86400) > 3600)
    return {
      problem: `${lib} did not move the clock of \`date +%s\` by ${days} days (${out === null ? 'it did not run' : `it read ${out.trim()}`})`,
    };
  return { path: lib };
}

/** libfaketime's variables: the wall clock moved; monotonic clocks and file times left alone (they are not "now"). */
export function faketimeVars(lib: string, days: number): Record<string, string> {
  return { LD_PRELOAD: lib, FAKETIME: `+${days}d`, FAKETIME_DONT_FAKE_MONOTONIC: '1', NO_FAKE_STAT: '1' };
}

/** Run a program and give its stdout, or null when it could not run or failed; then remove what libfaketime left of it. */
export function output(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { env, timeout: 10_000, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      if (child.pid !== undefined) removeFaketimeObjectsOf(child.pid);
      resolve(error === null ? stdout : null);
    });
  });
}

/** Where libfaketime keeps its objects. */
const SHM = '/dev/shm';

/** libfaketime's semaphore and shared memory object, named by the pid of the first process that loaded it. */
const FAKETIME_OBJECT = /^(sem\.faketime_sem|faketime_shm)_(\d+)$/;

/** The same, as the sweep of a fresh uid's leftovers normalizes them (ag-core's `normalizeLeftover`). */
const FAKETIME_LEFTOVER = /^\/dev\/shm\/(faketime_<random>|sem\.<random>)$/;

/** Remove the objects libfaketime made for the process `pid` (it keeps them when that process execs or is killed). */
export function removeFaketimeObjectsOf(pid: number): void {
  for (const name of [`sem.faketime_sem_${pid}`, `faketime_shm_${pid}`]) rmSync(path.join(SHM, name), { force: true });
}

/** libfaketime's objects in /dev/shm owned by this process's uid. */
export function faketimeObjects(): Set<string> {
  let names: string[];
  try {
    names = readdirSync(SHM);
  } catch {
    return new Set();
  }
  const uid = process.getuid?.();
  return new Set(
    names.filter((n) => {
      if (!FAKETIME_OBJECT.test(n)) return false;
      try {
        return lstatSync(path.join(SHM, n)).uid === uid;
      } catch {
        return false;
      }
    }),
  );
}

/**
 * Remove libfaketime's objects this uid made since `before` was taken: the pair's, when its
 * executions ran as the caller's uid (a fresh uid's are removed by the sweep, and a sandbox's
 * /dev is its own). Another process of the same uid using libfaketime at that moment loses its
 * objects, which its next process makes again.
 */
export function removeNewFaketimeObjects(before: ReadonlySet<string>): void {
  for (const n of faketimeObjects()) if (!before.has(n)) rmSync(path.join(SHM, n), { force: true });
}

/** A pair execution's leftovers without libfaketime's own objects (removed by the sweep all the same). */
export function withoutFaketimeObjects(l: Leftovers | null): Leftovers | null {
  if (l === null) return null;
  const paths = l.paths.filter((p) => !FAKETIME_LEFTOVER.test(p));
  return { paths, total: Math.max(paths.length, l.total - (l.paths.length - paths.length)) };
}
