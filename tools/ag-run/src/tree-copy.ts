/**
 * Throwaway copies of a tree: every execution gets its own, so nothing a test writes is seen
 * by another run, by the full suite or by the original tree.
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Copy `src` to `dest` (which must not exist): files with their modes, symlinks as they are
 * (never followed), without `.git` directories (the history stays out of reach of the tests).
 */
export async function copyTree(src: string, dest: string): Promise<void> {
  await fs.cp(src, dest, {
    recursive: true,
    verbatimSymlinks: true,
    errorOnExist: true,
    force: false,
    filter: (from) => path.basename(from) !== '.git' || from === src,
  });
}

/** Give `root` and everything under it (symlinks themselves, never their targets) to `uid:gid`. */
export async function chownTree(root: string, uid: number, gid: number): Promise<void> {
  await fs.lchown(root, uid, gid);
  const entries = await fs.readdir(root, { withFileTypes: true });
  await Promise.all(
    entries.map((e) => {
      const p = path.join(root, e.name);
      return e.isDirectory() ? chownTree(p, uid, gid) : fs.lchown(p, uid, gid);
    }),
  );
}
