/**
 * Writes where the tests must not write: the original baseline and patch trees and the gate's
 * evidence directory are snapshotted before the first execution and after the last; each run's
 * own copy is snapshotted when its process group is gone and again at the end, so a writer
 * that outlived the kill is seen too.
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { WriteWatch } from '@adversary-gate/schemas';
import {
  compareSnapshots,
  hashIfFile,
  snapshotTree,
  snapshotTrees,
  type Snapshot,
  type TreeChange,
} from './tree-snapshot.js';

/** A directory the tests must leave alone. */
export interface WatchRoot {
  readonly role: 'baseline' | 'patch' | 'evidence';
  readonly path: string;
}

/** The listed changes are capped; the totals are not. */
export const CHANGE_LIST_CAP = 50;

/** The state of the watched roots before the first execution. */
export interface WatchStart {
  readonly watched: readonly WatchRoot[];
  readonly unwatched: ReadonlyArray<WatchRoot & { readonly why: string }>;
  readonly snapshots: readonly Snapshot[];
  /** Absolute paths left out of every walk (nested roots, the work directory). */
  readonly skip: readonly string[];
}

/** A run's copy as it was when its report was read. */
export interface CopyState {
  /** Names the execution in the evidence. */
  readonly side: 'baseline' | 'patch';
  readonly round: number;
  readonly command: string;
  readonly dir: string;
  readonly snapshot: Snapshot;
}

/**
 * Snapshot the roots. A world-writable evidence directory (such as /tmp) is not watched:
 * anyone may write there, so a change would prove nothing; it is listed as unwatched.
 */
export async function startWatch(roots: readonly WatchRoot[], workRoot: string): Promise<WatchStart> {
  const watched: WatchRoot[] = [];
  const unwatched: Array<WatchRoot & { why: string }> = [];
  for (const root of roots) {
    if (watched.some((w) => w.path === root.path)) continue;
    const st = await fs.stat(root.path);
    if (root.role === 'evidence' && (st.mode & 0o002) !== 0)
      unwatched.push({ ...root, why: 'world-writable: anyone may write there' });
    else watched.push(root);
  }
  const skip = [workRoot, ...watched.map((w) => w.path)];
  const snapshots = await Promise.all(
    watched.map((w) =>
      snapshotTree(
        w.path,
        skip.filter((s) => s !== w.path),
      ),
    ),
  );
  return { watched, unwatched, snapshots, skip };
}

/** Compare the roots with their start, and every copy with its state at read time; the evidence. */
export async function finishWatch(start: WatchStart, copies: readonly CopyState[]): Promise<WriteWatch> {
  // All at once: a walk of each root (each leaves out the others), one walk of every copy.
  const [rootsAfter, copiesAfter] = await Promise.all([
    Promise.all(
      start.watched.map((root) =>
        snapshotTree(
          root.path,
          start.skip.filter((s) => s !== root.path),
        ),
      ),
    ),
    snapshotTrees(copies.map((copy) => copy.dir)),
  ]);
  const outside: Array<WriteWatch['outside_changes'][number]> = [];
  let outsideTotal = 0;
  for (const [i, root] of start.watched.entries()) {
    const changes = compareSnapshots(start.snapshots[i]!, rootsAfter[i]!);
    outsideTotal += changes.length;
    for (const c of changes.slice(0, Math.max(0, CHANGE_LIST_CAP - outside.length))) {
      outside.push({ role: root.role, path: c.path, change: c.change, sha256: await contentOf(root.path, c) });
    }
  }
  const late: Array<WriteWatch['late_changes'][number]> = [];
  let lateTotal = 0;
  for (const [i, copy] of copies.entries()) {
    const changes = compareSnapshots(copy.snapshot, copiesAfter[i]!);
    lateTotal += changes.length;
    for (const c of changes.slice(0, Math.max(0, CHANGE_LIST_CAP - late.length))) {
      late.push({ side: copy.side, round: copy.round, command: copy.command, path: c.path, change: c.change });
    }
  }
  return {
    watched: start.watched.map((w) => ({ role: w.role, path: w.path })),
    unwatched: start.unwatched.map((w) => ({ role: w.role, path: w.path, why: w.why })),
    outside_changes: outside,
    outside_changes_total: outsideTotal,
    late_changes: late,
    late_changes_total: lateTotal,
  };
}

async function contentOf(root: string, c: TreeChange): Promise<string | null> {
  return c.change === 'removed' ? null : hashIfFile(path.join(root, c.path));
}
