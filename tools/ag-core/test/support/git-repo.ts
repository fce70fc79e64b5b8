/**
 * Tiny real git repositories for every package's tests: files written (or deleted, or linked),
 * a baseline commit, a patch commit on top, and the diff between them. Each package's own
 * test helper shapes these into what its binary reads (two trees side by side, one tree and a
 * diff, a repository for a pipeline); the git and file mechanics live only here.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** One file of a tree: its text, a symbolic link, or null to delete it. */
export type Entry = string | null | { readonly symlink: string };
/** Files to put into a tree, by repository path. */
export type Files = Readonly<Record<string, Entry>>;

/** Identity and settings every test commit uses, whatever the machine's git configuration. */
const GIT_SETTINGS = [
  '-c',
  'user.name=t',
  '-c',
  'user.email=t@example.com',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'init.defaultBranch=main',
];

/** Run git in `cwd` and return its standard output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...GIT_SETTINGS, ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

const execFileP = promisify(execFile);

/** {@link git} without blocking the test process (so tests in one file overlap). */
export async function gitAsync(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await execFileP('git', [...GIT_SETTINGS, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** Write, delete or link `files` under `dir` (an existing file or folder at a path is replaced). */
export function writeFiles(dir: string, files: Files): void {
  for (const [rel, entry] of Object.entries(files)) {
    const full = path.join(dir, rel);
    rmSync(full, { force: true, recursive: true });
    if (entry === null) continue;
    mkdirSync(path.dirname(full), { recursive: true });
    if (typeof entry === 'string') writeFileSync(full, entry);
    else symlinkSync(entry.symlink, full);
  }
}

const made: string[] = [];
process.on('exit', () => removeTempDirs());

/** A fresh directory under the system's temporary directory, removed when the test process exits (or by {@link removeTempDirs}). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  made.push(dir);
  return dir;
}

/** Remove every directory {@link tempDir} made so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The two commits {@link commitPair} made, and `git diff` between them. */
export interface CommitPair {
  readonly base: string;
  readonly head: string;
  readonly diff: string;
}

/**
 * Make `dir` a git repository on `main` with two commits: `base`, then `patch` on top
 * (`renames` are moved with `git mv` first, so git records them as renames). Either commit
 * may be empty. `between` runs after the baseline commit (to copy the baseline tree out).
 */
export function commitPair(
  dir: string,
  base: Files,
  patch: Files,
  opts: { renames?: Readonly<Record<string, string>>; message?: string; between?: () => void } = {},
): CommitPair {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFiles(dir, base);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'baseline');
  opts.between?.();
  for (const [from, to] of Object.entries(opts.renames ?? {})) {
    mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    git(dir, 'mv', from, to);
  }
  writeFiles(dir, patch);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', opts.message ?? 'patch');
  return {
    base: git(dir, 'rev-parse', 'HEAD~1').trim(),
    head: git(dir, 'rev-parse', 'HEAD').trim(),
    diff: git(dir, 'diff', '--no-color', '-M', '--binary', 'HEAD~1', 'HEAD'),
  };
}
