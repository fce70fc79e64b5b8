/**
 * Metadata snapshots of directory trees, cheap enough for big trees: type, mode, owner, size,
 * inode, mtime and ctime of every entry, read once, no content. ctime cannot be set back by a
 * process, so a write that restores the mtime is still seen. Contents are hashed only for the
 * entries that changed, as evidence of what was written.
 * @module
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs, type BigIntStats } from 'node:fs';
import path from 'node:path';

/** One entry's metadata, as a comparable string. */
export type Snapshot = ReadonlyMap<string, string>;

/** One difference between two snapshots of the same tree. */
export interface TreeChange {
  /** Relative to the tree's root, `/`-separated. */
  readonly path: string;
  readonly change: 'added' | 'removed' | 'changed';
}

function describe(st: BigIntStats): string {
  const kind = st.isFile() ? 'f' : st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : 'o';
  // A directory's times change when an entry is added or removed, even one removed again.
  if (kind === 'd') return `d ${st.mode} ${st.uid}:${st.gid} ${st.ino} ${st.mtimeNs} ${st.ctimeNs}`;
  return `${kind} ${st.mode} ${st.uid}:${st.gid} ${st.size} ${st.ino} ${st.mtimeNs} ${st.ctimeNs}`;
}

/**
 * Snapshot `root` (not followed if it is a symlink). `skip` names absolute paths whose
 * subtree is left out (another watched tree nested inside, the gate's own work directory).
 * An entry that vanishes while being read is simply absent.
 */
export async function snapshotTree(root: string, skip: readonly string[] = []): Promise<Snapshot> {
  const out = new Map<string, string>();
  const walk = async (abs: string, rel: string): Promise<void> => {
    let st: BigIntStats;
    try {
      st = await fs.lstat(abs, { bigint: true });
    } catch {
      return;
    }
    out.set(rel, describe(st));
    if (!st.isDirectory()) return;
    let names: string[];
    try {
      names = await fs.readdir(abs);
    } catch {
      out.set(rel, `${describe(st)} unreadable`);
      return;
    }
    await Promise.all(
      names.map((name) => {
        const child = path.join(abs, name);
        return skip.includes(child) ? undefined : walk(child, rel === '' ? name : `${rel}/${name}`);
      }),
    );
  };
  await walk(root, '');
  return out;
}

/** What differs between two snapshots of one tree, sorted by path. */
export function compareSnapshots(before: Snapshot, after: Snapshot): TreeChange[] {
  const out: TreeChange[] = [];
  for (const [p, meta] of after) {
    const was = before.get(p);
    if (was === undefined) out.push({ path: p === '' ? '.' : p, change: 'added' });
    else if (was !== meta) out.push({ path: p === '' ? '.' : p, change: 'changed' });
  }
  for (const p of before.keys()) if (!after.has(p)) out.push({ path: p === '' ? '.' : p, change: 'removed' });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** SHA-256 of a regular file's content (`sha256:…`), or null for anything else or a file that cannot be read. */
export async function hashIfFile(file: string): Promise<string | null> {
  try {
    const st = await fs.lstat(file);
    if (!st.isFile()) return null;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    return `sha256:${hash.digest('hex')}`;
  } catch {
    return null;
  }
}
