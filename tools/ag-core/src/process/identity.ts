/**
 * An unprivileged identity for test processes when the gate runs as root: root ignores
 * RLIMIT_NPROC, can write anywhere and can signal anything. Each execution gets its own
 * uid, unused on this host, so its process count, its files and its processes are its alone.
 * @module
 */
import { randomInt } from 'node:crypto';
import { existsSync, promises as fs, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pidsWhere } from './proc.js';
import { removeLeftovers } from './leftovers.js';

/** A uid/gid pair to run a child as. */
export interface Identity {
  readonly uid: number;
  readonly gid: number;
}

/** True when this process runs as root (the only case where a uid change is possible and needed). */
export function runningAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The ids the current user namespace maps, as (first inside id, count) pairs (`/proc/self/uid_map`). */
function mappedRanges(file: string): Array<[number, number]> {
  try {
    return readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/).map(Number))
      .filter((f) => f.length === 3)
      .map((f) => [f[0]!, f[2]!] as [number, number]);
  } catch {
    return [[0, 65536]];
  }
}

function mapped(id: number, ranges: ReadonlyArray<[number, number]>): boolean {
  return ranges.some(([first, count]) => id >= first && id < first + count);
}

/** Ids named in a passwd/group file (column 3). */
function namedIds(file: string): Set<number> {
  try {
    return new Set(
      readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => Number(l.split(':')[2]))
        .filter(Number.isInteger),
    );
  } catch {
    return new Set();
  }
}

/** Pids whose /proc entry is owned by `uid` (the process's effective uid). */
export function processesOfUser(uid: number): number[] {
  return pidsWhere((pid) => statSync(`/proc/${pid}`).uid === uid);
}

/** Tasks (threads included, as RLIMIT_NPROC counts them) of the processes of `uid`. */
export function tasksOfUser(uid: number): number {
  let n = 0;
  for (const pid of processesOfUser(uid)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      n += Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[17]) || 1;
    } catch {
      // ended while we looked
    }
  }
  return n;
}

/**
 * Where uids are claimed, one file per uid naming the claiming process: machine-wide, so two
 * gates on one host (two CI jobs, two test workers) never pick the same uid between one's
 * pick and its first process, when the uid still owns nothing. Without the claim, the first
 * run to end would sweep that uid and kill the other's tests.
 */
const CLAIMS_DIR = existsSync('/run') ? '/run/adversary-gate-uids' : path.join(os.tmpdir(), 'adversary-gate-uids');
const claimedHere = new Set<string>();
let releaseAtExit = false;

/**
 * Claim uid `id` in `dir` for this process until it exits: false when a claim holds it already,
 * even a stale one left by a process that was killed (skipped, never taken over: taking over
 * races with another taker).
 */
export function claimUid(id: number, dir: string = CLAIMS_DIR): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, String(id));
  try {
    writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  claimedHere.add(file);
  if (!releaseAtExit) {
    releaseAtExit = true;
    process.on('exit', () => {
      for (const f of claimedHere) {
        try {
          unlinkSync(f);
        } catch {
          // already gone
        }
      }
    });
  }
  return true;
}

/**
 * Which uids a fresh identity is drawn from: `usual`, the range of every run of the patch's
 * tests; `other`, a range disjoint from it and below it, for the runs that must not look like
 * a test run (the behaviour footprint's calls apart from the tests): code right only for the
 * gate's uids answers differently there.
 */
export type UidRange = 'usual' | 'other';

/**
 * A fresh unprivileged uid/gid (equal numbers) for one execution: mapped in this user
 * namespace, named in neither /etc/passwd nor /etc/group, owning no process, and claimed for
 * this process until it exits (see CLAIMS_DIR), with nothing of its own left in the shared
 * folders. Picked at random from 100000–164999 (or 20000–59999 where only the low ids are
 * mapped); `other`: from 20000–59999 (or 5000–19999).
 */
export function freshIdentity(range: UidRange = 'usual'): Identity {
  const uids = mappedRanges('/proc/self/uid_map');
  const gids = mappedRanges('/proc/self/gid_map');
  const taken = new Set([...namedIds('/etc/passwd'), ...namedIds('/etc/group')]);
  const highMapped = mapped(164_999, uids) && mapped(164_999, gids);
  const [low, high] =
    range === 'usual'
      ? highMapped
        ? [100_000, 165_000]
        : [20_000, 60_000]
      : highMapped
        ? [20_000, 60_000]
        : [5_000, 20_000];
  for (let attempt = 0; attempt < 64; attempt++) {
    const id = randomInt(low, high);
    if (!mapped(id, uids) || !mapped(id, gids) || taken.has(id)) continue;
    if (processesOfUser(id).length > 0 || !claimUid(id)) continue;
    const who = { uid: id, gid: id };
    // What an earlier holder of the uid left in the shared folders (a run never swept) is
    // removed first: what the sweep after this run finds is this run's own.
    removeLeftovers(who);
    return who;
  }
  throw new Error('no free unprivileged uid found for the test processes');
}

/**
 * `tasksOfUser` without blocking the event loop (the reads go to libuv's thread pool), for
 * polling while a child's output is being read.
 */
export async function tasksOfUserAsync(uid: number): Promise<number> {
  let entries: string[];
  try {
    entries = await fs.readdir('/proc');
  } catch {
    return 0;
  }
  const counts = await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e) => {
        try {
          if ((await fs.stat(`/proc/${e}`)).uid !== uid) return 0;
          const stat = await fs.readFile(`/proc/${e}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[17]) || 1;
        } catch {
          return 0;
        }
      }),
  );
  return counts.reduce((a, b) => a + b, 0);
}
