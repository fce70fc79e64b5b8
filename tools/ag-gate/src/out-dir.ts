/**
 * The `--out` evidence directory: the gate's own. A run claims it (refusing any place that
 * holds what the gate did not make), locks it against a second run, and empties it of what a
 * previous run left; nothing outside it is ever removed and no link is ever followed.
 * @module
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '@adversary-gate/core';

/** The file that marks a directory as the gate's evidence directory, free to be emptied. */
export const EVIDENCE_MARKER = '.adversary-gate-evidence';

const MARKER_TEXT = 'This directory was made by adversary-gate; each gate run replaces everything in it.\n';

/** Another gate run holds this directory: the caller exits 2 (HOLD) and writes nothing. */
export class BusyError extends Error {
  override readonly name = 'BusyError';
}

/** A claimed, locked, emptied evidence directory. */
export interface OutDir {
  /** Its absolute path. */
  readonly dir: string;
  /** Closes the lock's file descriptor, which ends the lock; calling it again does nothing. */
  release(): void;
}

/** The `--out` value as a message shows it: quoted when empty or holding spaces or controls. */
function shown(out: string): string {
  return out === '' || /[\s\p{C}]/u.test(out) ? JSON.stringify(out) : out;
}

/** The error code of a thrown value, or its message when it has none. */
function codeOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return typeof e?.code === 'string' ? e.code : String(e?.message ?? err);
}

/** Whether `inner` is `outer` or lies under it, by the paths' text. */
function within(inner: string, outer: string): boolean {
  const r = path.relative(outer, inner);
  return r === '' || (r !== '..' && !r.startsWith(`..${path.sep}`) && !path.isAbsolute(r));
}

/** `p` with its deepest existing ancestor's links resolved (the rest of it does not exist yet). */
function realish(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    const parent = path.dirname(p);
    return parent === p ? p : path.join(realish(parent), path.basename(p));
  }
}

/** Why `dir` may never be the evidence directory (`/`, a protected root or above, inside `.git`). */
function placeProblem(dir: string, protectedRoots: readonly string[]): string | undefined {
  const dirs = [dir, realish(dir)];
  const roots = protectedRoots.flatMap((r) => [path.resolve(r), realish(path.resolve(r))]);
  for (const d of dirs) {
    if (d === path.parse(d).root) return 'it is the filesystem root';
    for (const root of roots) {
      if (d === root) return `it is the repository's work tree`;
      if (within(root, d)) return `it holds the repository's work tree ${root}`;
      if (within(d, path.join(root, '.git'))) return `it is inside the repository's .git`;
    }
  }
  return undefined;
}

/** Whether `dir` holds the marker as a regular file (not a link). */
function hasMarker(dir: string): boolean {
  try {
    return fs.lstatSync(path.join(dir, EVIDENCE_MARKER)).isFile();
  } catch {
    return false;
  }
}

/** What a non-directory is, for the refusal. */
function kindOf(st: fs.Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a directory';
}

/** Takes a non-blocking exclusive flock on `fd` with util-linux flock(1); false when it is held. */
function lock(fd: number, label: string): boolean {
  const r = spawnSync('flock', ['-n', '3'], { stdio: ['ignore', 'ignore', 'pipe', fd] });
  if (r.error !== undefined) {
    const code = codeOf(r.error);
    if (code === 'ENOENT')
      throw new UsageError(`${label}: the gate needs \`flock\` (util-linux; Linux only) to lock it`);
    throw new UsageError(`${label}: could not run flock to lock it (${code})`);
  }
  if (r.status === 0) return true;
  if (r.status === 1) return false;
  const why = (r.stderr?.toString('utf8') ?? '').split('\n')[0]?.trim() || `status ${r.status ?? r.signal}`;
  throw new UsageError(`${label}: could not lock it (flock: ${why})`);
}

/** Claim `out` for one run: refuse what is not the gate's, create or reuse, lock, empty. */
export function claimOutDir(
  out: string,
  opts: { readonly cwd: string; readonly protectedRoots: readonly string[] },
): OutDir {
  const label = `--out ${shown(out)}`;
  if (out === '')
    throw new UsageError(`${label}: an empty path names no directory: choose a directory for the evidence`);
  const dir = path.resolve(opts.cwd, out);
  const place = placeProblem(dir, opts.protectedRoots);
  if (place !== undefined) throw new UsageError(`${label}: ${place}: choose a directory of its own for the evidence`);

  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(dir);
  } catch (err) {
    if (codeOf(err) !== 'ENOENT') throw new UsageError(`${label}: cannot inspect it (${codeOf(err)})`);
  }
  if (st?.isSymbolicLink()) throw new UsageError(`${label}: it is a symbolic link: name a real directory, not a link`);
  if (st !== undefined && !st.isDirectory()) {
    throw new UsageError(`${label}: it is ${kindOf(st)}, not a directory: choose another path or remove it yourself`);
  }
  if (st === undefined) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    } catch (err) {
      throw new UsageError(`${label}: cannot create it (${codeOf(err)})`);
    }
  }

  let fd: number;
  try {
    fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    throw new UsageError(`${label}: cannot open it as a directory (${codeOf(err)})`);
  }
  let open = true;
  const release = (): void => {
    if (open) fs.closeSync(fd);
    open = false;
  };
  try {
    // Lock before judging what is inside: a run that holds it may be mid-way through filling it.
    if (!lock(fd, label)) throw new BusyError(`another gate run is using ${dir}: nothing written`);
    if (!hasMarker(dir)) {
      if (fs.readdirSync(dir).length > 0) {
        throw new UsageError(
          `${label}: it holds files the gate did not make (no ${EVIDENCE_MARKER}): choose another directory or remove it yourself`,
        );
      }
      fs.writeFileSync(path.join(dir, EVIDENCE_MARKER), MARKER_TEXT, { flag: 'wx', mode: 0o644 });
    }
    for (const name of fs.readdirSync(dir)) {
      if (name !== EVIDENCE_MARKER) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    }
  } catch (err) {
    release();
    if (err instanceof UsageError || err instanceof BusyError) throw err;
    throw new UsageError(`${label}: cannot prepare it for the evidence (${codeOf(err)})`);
  }
  return { dir, release };
}

/** `rel` (with `/` separators) as a git ignore pattern that matches that one path literally. */
function literalPattern(rel: string): string {
  return rel.replace(/[\\*?[\]]/g, '\\$&').replace(/ $/, '\\ ');
}

/**
 * When `dir` lies inside the git work tree `repoRoot`, add `/<its path relative to the root>/`
 * to that repository's info/exclude (found with `git rev-parse --git-path info/exclude`, run in
 * repoRoot) unless a line already says so. Never fails the run: true when the line is there (or
 * `dir` is outside the work tree, so none is needed), false when it could not be added.
 */
export function excludeFromGit(repoRoot: string, dir: string): boolean {
  try {
    const root = realish(path.resolve(repoRoot));
    const rel = path.relative(root, realish(path.resolve(dir)));
    if (rel === '' || !within(path.join(root, rel), root)) return true;
    if (/[\n\r]/.test(rel)) return false;
    const line = `/${literalPattern(rel.split(path.sep).join('/'))}/`;
    const r = spawnSync('git', ['rev-parse', '--git-path', 'info/exclude'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const where = r.status === 0 ? r.stdout.trim() : '';
    if (where === '') return false;
    const file = path.resolve(root, where);
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if (codeOf(err) !== 'ENOENT') return false;
    }
    if (text.split('\n').some((l) => l.trimEnd() === line)) return true;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.appendFileSync(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`);
    return true;
  } catch {
    return false;
  }
}
