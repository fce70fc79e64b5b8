/**
 * What a fresh test uid leaves where every uid may write (`/tmp`, `/var/tmp`, `/dev/shm`),
 * removed after its run (its own HOME and TMPDIR are removed whole by the caller), and, for
 * the runs whose two sides are compared, named: each path normalized so that the uid and the
 * random parts of a temporary name compare equal between two runs of the same suite.
 * One home for every run of the patch's code: ag-gate's installs and coverage, ag-run's
 * executions, ag-mutate's runs and warm hosts.
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import type { Identity } from './identity.js';

/** The folders every uid may write to, where a run's files would outlive it. */
export const SHARED_WRITABLE: readonly string[] = ['/tmp', '/var/tmp', '/dev/shm'];

/** The most distinct normalized paths kept of one sweep (the count goes on). */
export const LEFTOVER_PATHS_KEPT = 1000;

/** What one uid left: its normalized paths (sorted, distinct, at most LEFTOVER_PATHS_KEPT) and how many it left in all. */
export interface Leftovers {
  readonly paths: readonly string[];
  readonly total: number;
}

/** Where to look, and what to leave alone. */
export interface SweepOptions {
  /** The folders swept (default SHARED_WRITABLE). */
  readonly dirs?: readonly string[];
  /**
   * Folders of the caller's, neither listed nor touched (the tool's own work folder, where
   * the uid owns its copy of the tree, its HOME and its TMPDIR while the caller still reads them).
   */
  readonly keep?: readonly string[];
}

/** A path as a `find -path` pattern that matches only itself. */
const literal = (p: string) => p.replace(/[*?[\\]/g, (c) => `\\${c}`);

function resolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Each kept folder as given and as resolved (a TMPDIR behind a link). */
function keptFolders(opts: SweepOptions): string[] {
  return [...new Set((opts.keep ?? []).flatMap((k) => [k, resolved(k)]))];
}

/**
 * The topmost entries `uid` owns in the shared folders: `find` descends only into folders the
 * uid could have written in (its own, and those every uid may write to), never into another's
 * closed folder (other runs' trees: tens of thousands of files), nor into a kept folder.
 * Milliseconds where a walk of everything took most of a second after every run.
 */
function topsOwnedBy(uid: number, opts: SweepOptions): string[] {
  const dirs = (opts.dirs ?? SHARED_WRITABLE).filter((d) => existsSync(d));
  if (dirs.length === 0) return [];
  const kept = keptFolders(opts).flatMap((k, i) => [...(i > 0 ? ['-o'] : []), '-path', literal(k)]);
  const args = [
    '-P',
    ...dirs,
    '-xdev',
    '-mindepth',
    '1',
    ...(kept.length > 0 ? ['(', ...kept, ')', '-prune', '-o'] : []),
    ...['(', '-type', 'd', '!', '-user', String(uid), '!', '-perm', '-0002', ')', '-prune', '-o'],
    ...['-user', String(uid), '-print0', '-prune'],
  ];
  const r = spawnSync('find', args, { encoding: 'buffer', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  return (r.stdout ?? Buffer.alloc(0))
    .toString('utf8')
    .split('\0')
    .filter((p) => p !== '');
}

/**
 * `find` from each of the uid's topmost entries for what `uid` owns, on their own
 * filesystems, links never followed (`-delete` removes through descriptors, depth first: no
 * path below a starting point is resolved again). Null when the uid left nothing.
 */
function findArgs(uid: number, opts: SweepOptions, then: readonly string[]): string[] | null {
  const tops = topsOwnedBy(uid, opts);
  if (tops.length === 0) return null;
  const keep = keptFolders(opts).flatMap((k) => ['!', '-path', literal(k), '!', '-path', `${literal(k)}/*`]);
  return ['-P', ...tops, '-xdev', '-user', String(uid), ...keep, ...then];
}

/**
 * Remove what `who` left in the shared folders (a folder of its that holds another's files
 * stays). Call it once every process of the uid is gone.
 */
export function removeLeftovers(who: Identity, opts: SweepOptions = {}): void {
  const args = findArgs(who.uid, opts, ['-delete']);
  if (args !== null) spawnSync('find', args, { stdio: 'ignore' });
}

/**
 * As `removeLeftovers`, without blocking the event loop, and say what was there (normalized,
 * see `normalizeLeftover`).
 */
export function sweepLeftovers(who: Identity, opts: SweepOptions = {}): Promise<Leftovers> {
  return new Promise((resolve) => {
    const seen = new Set<string>();
    let total = 0;
    let rest = Buffer.alloc(0);
    const take = (raw: string) => {
      total++;
      const p = normalizeLeftover(raw, who.uid);
      if (seen.size < LEFTOVER_PATHS_KEPT) seen.add(p);
    };
    const done = () => resolve({ paths: [...seen].sort(), total });
    const args = findArgs(who.uid, opts, ['-print0', '-delete']);
    if (args === null) {
      done();
      return;
    }
    let find;
    try {
      find = spawn('find', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      done();
      return;
    }
    find.stdout.on('data', (chunk: Buffer) => {
      let buf = Buffer.concat([rest, chunk]);
      for (let nul = buf.indexOf(0); nul >= 0; nul = buf.indexOf(0)) {
        take(buf.subarray(0, nul).toString('utf8'));
        buf = buf.subarray(nul + 1);
      }
      rest = buf;
    });
    find.once('error', done);
    find.once('close', done);
  });
}

/**
 * A left path as two runs of one suite both write it. In each name: the uid (as a number)
 * becomes `<uid>`; a temporary name's random tail `<random>` (6 or more letters, digits or
 * underscores after `tmp` or a `-`, `.` or `_`, ending the name or followed by a short
 * extension: mktemp's, mkdtemp's, Python's tempfile's); any other run of 6 or more letters
 * and digits that holds a letter and a digit or mixes upper and lower case `<random>`; a run of digits
 * `<n>` (a pid, a counter, a time). Two different names can compare equal only in these parts.
 */
export function normalizeLeftover(file: string, uid: number): string {
  return file
    .split('/')
    .map((name) =>
      name
        .split(String(uid))
        .join('\u0000')
        .replace(/(^tmp|[-._])([A-Za-z0-9_]{6,})(?=(?:\.[A-Za-z0-9]{1,5})?$)/, (whole, before: string, tail: string) =>
          /^\d+$/.test(tail) ? whole : `${before}<random>`,
        )
        .replace(/[A-Za-z0-9]{6,}/g, (run) =>
          !/^\d+$/.test(run) && (/\d/.test(run) || (/[a-z]/.test(run) && /[A-Z]/.test(run))) ? '<random>' : run,
        )
        .replace(/\d+/g, '<n>')
        .split('\u0000')
        .join('<uid>'),
    )
    .join('/');
}
