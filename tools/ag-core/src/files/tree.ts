/**
 * Copying and removing whole directory trees fast: through `tar` and `rm`, which on a
 * 50,000-file tree take a fraction of what node's `fs.cp` and `fs.rm` take (measured 13 s
 * against 67 s for the copy and 0.8 s against 10.8 s for the removal on one machine).
 * @module
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';

const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', LC_ALL: 'C' };

/** Wait for a process; its exit code (or null after a signal) and the tail of its stderr. */
function ended(child: ReturnType<typeof spawn>): Promise<{ code: number | null; err: string }> {
  let err = '';
  child.stderr?.on('data', (b: Buffer) => {
    err = (err + b.toString('utf8')).slice(-2000);
  });
  return new Promise((resolve) => {
    child.on('error', (e) => resolve({ code: null, err: e.message }));
    child.on('close', (code) => resolve({ code, err }));
  });
}

/** Who owns a copy (numeric ids; the caller must be root to give it away). */
export interface TreeOwner {
  readonly uid: number;
  readonly gid: number;
}

/** Folders whose entries a copy links one by one instead of copying them (installed packages). */
export const PACKAGE_DIRS: ReadonlySet<string> = new Set(['node_modules']);
/**
 * Caches a runner writes inside a package folder: neither copied nor linked (the run makes its
 * own). vite bundles a TypeScript config into `.vite-temp`, and vitest's results cache is
 * `.vite` (`.vitest` before 1.0): linked from a tree where the runner ran as another user, the
 * run could not write there.
 */
export const PACKAGE_CACHES: ReadonlySet<string> = new Set(['.cache', '.vite', '.vite-temp', '.vitest']);

/** The installed-packages folder at `src`'s top, followed if it is a link; null when there is none. */
export async function installedPackages(src: string): Promise<string | null> {
  const dir = path.join(src, 'node_modules');
  const st = await fs.stat(dir).catch(() => null);
  return st?.isDirectory() === true ? fs.realpath(dir) : null;
}

/**
 * Give the copy `dest` its own `node_modules` folder of links to the packages in `installed`:
 * what a runner writes beside them (vitest's `.vite`, babel's and ava's `.cache`) lands in the
 * copy, never in the installed packages or in the next run, and the packages are not copied.
 */
async function linkPackages(installed: string, dest: string, owner?: TreeOwner): Promise<void> {
  const folder = path.join(dest, 'node_modules');
  await fs.mkdir(folder);
  const names = (await fs.readdir(installed)).filter((n) => !PACKAGE_CACHES.has(n)).sort();
  await Promise.all(names.map((n) => fs.symlink(path.join(installed, n), path.join(folder, n))));
  if (owner !== undefined) {
    await fs.chown(folder, owner.uid, owner.gid);
    await Promise.all(names.map((n) => fs.lchown(path.join(folder, n), owner.uid, owner.gid)));
  }
}

/**
 * Copy the directory `src` to `dest`, which must not exist: files with their modes and
 * times, symlinks as they are (never followed), FIFOs as FIFOs; every entry named `.git` at
 * any depth left out (the history stays out of reach of the tests). The top-level
 * `node_modules` (a folder, or a link to one) becomes a folder of links to its packages
 * (`linkPackages`). Owned by the caller, or with `owner` (as root) by that uid and gid,
 * `dest` included, set as the files are written. Throws with tar's own message when the copy
 * fails.
 */
export async function copyTree(src: string, dest: string, owner?: TreeOwner): Promise<void> {
  await fs.mkdir(dest);
  const installed = await installedPackages(src);
  const as = owner === undefined ? '' : ` --owner=${owner.uid} --group=${owner.gid} --numeric-owner`;
  const keep = owner === undefined ? ' --no-same-owner' : ' --same-owner --numeric-owner';
  const packages = installed === null ? '' : ' --exclude=./node_modules';
  // One process started from node (a fork of node costs more than one of bash), and the
  // archive flows from tar to tar without passing through node. The paths are arguments.
  const script = `tar -C "$1" --exclude=.git${packages}${as} -cf - . | tar -C "$2" -xpf -${keep}; s=("\${PIPESTATUS[@]}"); [ "\${s[0]}" = 0 ] && [ "\${s[1]}" = 0 ]`;
  const r = await ended(
    spawn('bash', ['-c', script, 'copy-tree', src, dest], { stdio: ['ignore', 'ignore', 'pipe'], env: ENV }),
  );
  if (r.code !== 0) {
    const why = r.err.trim().split('\n').pop() ?? '';
    throw new Error(`copying ${src} failed: ${why || `tar exited ${r.code ?? 'on a signal'}`}`);
  }
  if (installed !== null) await linkPackages(installed, dest, owner);
}

/** Remove `dir` and everything under it (a missing `dir` is fine). Falls back to `fs.rm` if `rm` cannot. */
export async function removeTree(dir: string): Promise<void> {
  const r = await ended(
    spawn('rm', ['-rf', '--one-file-system', '--', dir], { stdio: ['ignore', 'ignore', 'pipe'], env: ENV }),
  );
  if (r.code !== 0) await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });
}
