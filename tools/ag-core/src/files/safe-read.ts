/**
 * Reading, as root, a file from a tree where untrusted tests ran (a coverage report such as
 * `coverage/lcov.info`). The tests could have replaced any component of the path with a
 * symbolic link (to a root-only file), a FIFO (a reader hangs) or a link to `/dev/zero` (it
 * never ends): this reads only a regular file of bounded size reached through no link at all.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';

/** The bytes of the file, or a short phrase saying why they were not read (the caller names the path). */
export type SafeRead = { readonly ok: true; readonly data: Buffer } | { readonly ok: false; readonly problem: string };

const refuse = (problem: string): SafeRead => ({ ok: false, problem });

/** The error code of a thrown value, or its message when it has none. */
function codeOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return typeof e?.code === 'string' ? e.code : String(e?.message ?? err);
}

/** Why `rel` is not a plain relative path (absolute, a `..` or empty component, a NUL byte). */
function relProblem(rel: string): string | undefined {
  if (path.isAbsolute(rel)) return 'is an absolute path, not one relative to its tree';
  if (rel.includes('\0')) return 'holds a NUL byte';
  const parts = rel.split(path.sep);
  if (parts.includes('..')) return 'has a `..` component';
  if (parts.includes('')) return 'has an empty component';
  return undefined;
}

/** The problem phrase for an `open` that failed. */
function openProblem(err: unknown): string {
  switch (codeOf(err)) {
    case 'ENOENT':
      return 'does not exist';
    case 'ELOOP':
      return 'is a symbolic link';
    case 'ENOTDIR':
      return 'a component of the path is not a directory';
    default:
      return `cannot be opened (${codeOf(err)})`;
  }
}

/** Reads the whole of `fd`, expecting `size` bytes: at most `size + 1` are read, and one more is refused. */
function readAll(fd: number, size: number): SafeRead {
  const buf = Buffer.alloc(size + 1);
  let got = 0;
  while (got < buf.length) {
    const n = fs.readSync(fd, buf, got, buf.length - got, null);
    if (n === 0) break;
    got += n;
  }
  if (got > size) return refuse(`grew while it was read (past the ${size} bytes it had)`);
  return { ok: true, data: buf.subarray(0, got) };
}

/** Whether a component of `rel` under `root` (the last one included) is a symbolic link. */
function linkOnTheWay(root: string, rel: string): boolean {
  let at = root;
  for (const part of rel.split(path.sep)) {
    at = path.join(at, part);
    const st = fs.lstatSync(at, { throwIfNoEntry: false });
    if (st === undefined) return false;
    if (st.isSymbolicLink()) return true;
  }
  return false;
}

/**
 * Read `rel` (relative, no `..` components, not absolute) under the directory `root` without
 * following a link on any component; it must be a regular file of at most `maxBytes`.
 *
 * The open follows no link on the last component and never blocks (a FIFO opens at once);
 * `fstat` of the open file then decides (regular, small enough), and `/proc/self/fd` tells the
 * path the kernel actually reached, which differs from the one asked for when any component
 * before the last was a link.
 */
export function readInside(root: string, rel: string, maxBytes: number): SafeRead {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes ${maxBytes} is not a size`);
  const bad = relProblem(rel);
  if (bad !== undefined) return refuse(bad);
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch (err) {
    return refuse(`cannot be reached: its tree ${root} cannot be resolved (${codeOf(err)})`);
  }
  const want = path.join(realRoot, rel);
  let fd: number;
  try {
    const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;
    fd = fs.openSync(want, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch (err) {
    // A link that leads nowhere (its target removed) is a link all the same, never "no file".
    const missing = codeOf(err) === 'ENOENT' || codeOf(err) === 'ENOTDIR';
    return refuse(
      missing && linkOnTheWay(realRoot, rel) ? 'a component of the path is a symbolic link' : openProblem(err),
    );
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return refuse('is not a regular file');
    if (st.size > maxBytes) return refuse(`is ${st.size} bytes, over the ${maxBytes}-byte cap`);
    let reached: string;
    try {
      reached = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch (err) {
      return refuse(`cannot be checked for links: /proc/self/fd is unreadable (${codeOf(err)})`);
    }
    if (reached !== want) return refuse('a component of the path is a symbolic link');
    return readAll(fd, st.size);
  } catch (err) {
    return refuse(`cannot be read (${codeOf(err)})`);
  } finally {
    fs.closeSync(fd);
  }
}
