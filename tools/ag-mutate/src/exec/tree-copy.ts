/**
 * Isolated copies of the tree under test: every file copied as a new inode (never a hard
 * link, so nothing written in a copy reaches the original), symlinks copied as symlinks,
 * installed dependencies linked read-through, tool caches left out. A manifest of what was
 * copied lets a copy be restored exactly between mutants.
 * @module
 */
import {
  copyFileSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { isWithin, PACKAGE_CACHES, PACKAGE_DIRS } from '@adversary-gate/core';

/** Folders never copied: version control and caches that would let stale bytecode run. */
const SKIP_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.stryker-tmp',
  '.turbo',
]);
/** Folders linked, not copied: virtualenvs (large; the tests only read them). */
const LINK_DIRS = new Set(['.venv', 'venv']);
// A package folder (ag-core's PACKAGE_DIRS) becomes the copy's own folder of links to the
// installed packages, so what a runner writes beside them (its PACKAGE_CACHES) stays in the
// copy and is removed by the next restore, instead of reaching the original tree and the next
// run through a shared link.

interface Entry {
  readonly kind: 'file' | 'dir' | 'link';
  readonly size: number;
  readonly mtimeMs: number;
}

/** One isolated copy and what it must look like. */
export class TreeCopy {
  private readonly manifest = new Map<string, Entry>();

  private constructor(
    readonly source: string,
    readonly root: string,
  ) {}

  /** Copy `source` into the empty or absent folder `root`. */
  static create(source: string, root: string): TreeCopy {
    const copy = new TreeCopy(path.resolve(source), path.resolve(root));
    mkdirSync(copy.root, { recursive: true });
    copy.copyDir('');
    return copy;
  }

  private copyDir(rel: string): void {
    for (const name of readdirSync(path.join(this.source, rel)).sort()) {
      const r = rel === '' ? name : `${rel}/${name}`;
      this.copyEntry(r);
    }
  }

  private copyEntry(rel: string): void {
    const from = path.join(this.source, rel);
    const to = path.join(this.root, rel);
    const name = path.basename(rel);
    if (PACKAGE_DIRS.has(path.basename(path.dirname(rel)))) {
      // An installed package (or a file beside them): linked, whatever it is.
      if (PACKAGE_CACHES.has(name)) return;
      // Through the package folder's real path (as ag-run links them): a run under another
      // uid may not pass through the tree's own parents, but can read the packages.
      symlinkSync(path.join(this.realDir(path.dirname(from)), name), to);
      this.manifest.set(rel, { kind: 'link', size: 0, mtimeMs: 0 });
      return;
    }
    const st = lstatSync(from);
    // A package folder that is a link (a workspace's, or one shared between checkouts) gets the
    // same folder of links as a real one: linked whole, a runner's cache would land in the target.
    if (
      st.isDirectory() ||
      (PACKAGE_DIRS.has(name) &&
        st.isSymbolicLink() &&
        statSync(from, { throwIfNoEntry: false })?.isDirectory() === true)
    ) {
      if (SKIP_DIRS.has(name)) return;
      if (LINK_DIRS.has(name)) {
        symlinkSync(from, to);
        this.manifest.set(rel, { kind: 'link', size: 0, mtimeMs: 0 });
        return;
      }
      // A package folder is made like any other; its entries are linked (above).
      mkdirSync(to);
      this.manifest.set(rel, { kind: 'dir', size: 0, mtimeMs: 0 });
      this.copyDir(rel);
    } else if (st.isSymbolicLink()) {
      symlinkSync(this.linkTarget(from), to);
      this.manifest.set(rel, { kind: 'link', size: 0, mtimeMs: 0 });
    } else if (st.isFile()) {
      copyFileSync(from, to);
      const c = lstatSync(to);
      this.manifest.set(rel, { kind: 'file', size: c.size, mtimeMs: c.mtimeMs });
    }
  }

  private readonly realDirs = new Map<string, string>();

  /** The real path of a folder of the source (asked once per folder). */
  private realDir(dir: string): string {
    let real = this.realDirs.get(dir);
    if (real === undefined) {
      real = realpathSync(dir);
      this.realDirs.set(dir, real);
    }
    return real;
  }

  /** A link's target for the copy: relative links that leave the tree become absolute, so they still resolve. */
  private linkTarget(from: string): string {
    const target = readlinkSync(from);
    if (path.isAbsolute(target)) return target;
    const resolved = path.resolve(path.dirname(from), target);
    return isWithin(this.source, resolved) ? target : resolved;
  }

  /** Give every entry of the copy (and its root) to `uid`/`gid`: a run as that user can change the copy, and nothing else. */
  chown(uid: number, gid: number): void {
    lchownSync(this.root, uid, gid);
    for (const rel of this.manifest.keys()) lchownSync(path.join(this.root, rel), uid, gid);
  }

  /** Replace one file's bytes in the copy (a new inode; never written through a link). */
  write(rel: string, bytes: string | Uint8Array): void {
    const to = path.join(this.root, rel);
    rmSync(to, { force: true });
    writeFileSync(to, bytes);
    const c = lstatSync(to);
    this.manifest.set(rel, { kind: 'file', size: c.size, mtimeMs: c.mtimeMs });
  }

  /** Put one file back as it is in the source tree. */
  restoreFile(rel: string): void {
    const to = path.join(this.root, rel);
    rmSync(to, { force: true });
    this.manifest.delete(rel);
    this.copyEntry(rel);
  }

  /**
   * Make the copy equal to the source again: remove what the run created, re-copy what it
   * changed or removed. Returns how many paths had to be repaired.
   */
  restore(): number {
    let repaired = 0;
    const seen = new Set<string>();
    const visit = (rel: string) => {
      // The entry types come with the listing: only files need an lstat (size and mtime).
      for (const entry of readdirSync(path.join(this.root, rel), { withFileTypes: true })) {
        const r = rel === '' ? entry.name : `${rel}/${entry.name}`;
        const expected = this.manifest.get(r);
        const kind = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'dir' : 'file';
        if (expected === undefined || expected.kind !== kind) {
          rmSync(path.join(this.root, r), { recursive: true, force: true });
          if (expected !== undefined) this.restoreFile(r);
          repaired++;
        } else if (kind === 'dir') {
          visit(r);
        } else if (kind === 'file') {
          const st = lstatSync(path.join(this.root, r));
          if (st.size !== expected.size || st.mtimeMs !== expected.mtimeMs) {
            this.restoreFile(r);
            repaired++;
          }
        }
        seen.add(r);
      }
    };
    visit('');
    for (const [rel, entry] of [...this.manifest]) {
      if (seen.has(rel)) continue;
      const parent = path.dirname(rel);
      if (parent !== '.' && !seen.has(parent)) continue;
      this.manifest.delete(rel);
      this.copyEntry(rel);
      if (entry.kind === 'dir') this.markSeen(rel, seen);
      repaired++;
    }
    return repaired;
  }

  private markSeen(rel: string, seen: Set<string>): void {
    for (const key of this.manifest.keys()) if (key === rel || key.startsWith(`${rel}/`)) seen.add(key);
  }

  /** Delete the copy. */
  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
