/**
 * The toolchain directories a sandboxed test run needs besides the system: the install
 * prefixes of the interpreters on PATH and in the command (a pyenv, an nvm, a /opt install).
 * @module
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { SYSTEM_DIRS } from './sandbox.js';
import { isWithin } from '../files/containment.js';

/** What to resolve and what must stay out of the sandbox. */
export interface ToolchainQuery {
  /** The PATH the command runs with. */
  readonly path: string;
  /** The shell command: its absolute paths and the names it finds on PATH are resolved. */
  readonly command: string;
  /** Directories that must stay invisible (the trees, the evidence): nothing inside them is bound, nor any ancestor of them. */
  readonly keepOut: readonly string[];
  /** The caller's HOME: never bound itself, nor an ancestor of it (a toolchain inside it, such as `~/.pyenv`, may be). */
  readonly home?: string;
}

function real(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/** Whether `file` is a regular file this process may execute (following links). */
export function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function regularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The install prefix a bin directory belongs to: `…/bin`, `…/sbin` or `…/shims` → its parent. */
function prefixOf(dir: string): string {
  return ['bin', 'sbin', 'shims'].includes(path.basename(dir)) ? path.dirname(dir) : dir;
}

/**
 * Host directories to bind read-only so that the command finds its interpreter: for every
 * PATH entry and every executable the command names (absolute, or found on PATH, followed
 * through symlinks) that lies outside the system directories, its install prefix — or the
 * directory alone where the prefix is `/`, the caller's HOME or holds a kept-out directory.
 * Sorted, without nesting.
 */
export function toolchainDirs(q: ToolchainQuery): string[] {
  const keepOut = q.keepOut.map((d) => real(d) ?? path.resolve(d));
  const home = q.home === undefined || q.home === '' ? null : (real(q.home) ?? path.resolve(q.home));
  const entries = q.path.split(':').filter((d) => path.isAbsolute(d));
  const dirs = new Set<string>();
  for (const entry of entries) {
    const r = real(entry);
    if (r !== null) dirs.add(r);
  }
  const words = q.command.split(/[\s;&|()<>'"`=]+/).filter((w) => w !== '');
  for (const word of words) {
    const candidates = word.startsWith('/')
      ? [word]
      : /^[\w.+-]+$/.test(word)
        ? entries.map((d) => path.join(d, word))
        : [];
    // An absolute path the command names is bound whether it is a program or a file the
    // program reads (a reporter module, a configuration): `--test-reporter=/…/junit.mjs`.
    const hit = candidates.find((c) => executable(c) || (word.startsWith('/') && regularFile(c)));
    if (hit === undefined) continue;
    for (const file of [hit, real(hit)]) if (file !== null) dirs.add(path.dirname(file));
  }
  const out = new Set<string>();
  for (const dir of dirs) {
    if (SYSTEM_DIRS.some((s) => isWithin(s, dir))) continue;
    const allowed = (d: string) =>
      d !== '/' && (home === null || !isWithin(d, home)) && !keepOut.some((k) => isWithin(d, k) || isWithin(k, d));
    const prefix = prefixOf(dir);
    if (allowed(prefix)) out.add(prefix);
    else if (allowed(dir)) out.add(dir);
  }
  const sorted = [...out].sort();
  return sorted.filter((d) => !sorted.some((o) => o !== d && isWithin(o, d)));
}
