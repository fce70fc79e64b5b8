/**
 * The one writer: canonical JSON (sorted keys), newline-terminated, atomic.
 *
 * The writer renames only onto a name that is absent or a regular file. A character device or
 * FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is written in place, never replaced; any
 * other target is refused with an {@link OutputError} naming it (see {@link checkOutputTarget}).
 *
 * While a CLI command runs, the frame opens a write session: the writer records each file it
 * renamed into place (so a command that fails afterwards can take its outputs back), and
 * fault injection (ag-core's `AG_FAULT`) hooks into the two moments only the writer sees.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { constants, lstatSync, promises as fs, rmSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import stringify from 'fast-json-stable-stringify';
import type * as v from 'valibot';
import { InvalidArtefactError, LoadError, OutputError } from './errors.js';
import { ARTEFACT_SCHEMAS, kindOf } from './registry.js';
import { oneLine, validateOrThrow } from './validate.js';

/** Canonical text of a value: sorted keys, no whitespace, one trailing newline. */
export function canonicalJson(value: unknown): string {
  return `${stringify(value)}\n`;
}

/** A file renamed into place, with the identity it had then. */
export interface WrittenFile {
  readonly file: string;
  readonly dev: number;
  readonly ino: number;
}

/** The state of one command's writes (see {@link openWriteSession}). */
export interface WriteSession {
  /** Files renamed into place so far, in order. */
  readonly written: WrittenFile[];
  /** Fault injection: called before the first byte of an output (file or `-`) is written. */
  readonly beforeWrite?: (target: string) => void | Promise<void>;
  /** Fault injection: called with half of the temporary file written and synced (or half on stdout). */
  readonly midWrite?: (tmp: string) => void | Promise<void>;
}

let session: WriteSession | undefined;

/**
 * Start recording this process's writes (one command at a time; the CLI frame does this).
 * `hooks` are fault-injection points and are absent in normal runs.
 */
export function openWriteSession(hooks: Pick<WriteSession, 'beforeWrite' | 'midWrite'> = {}): WriteSession {
  session = { written: [], ...hooks };
  return session;
}

/** Stop recording (only if `s` is still the open session). */
export function closeWriteSession(s: WriteSession): void {
  if (session === s) session = undefined;
}

/**
 * Remove every file the session wrote that still is the file written (same device and
 * inode: a file replaced since by someone else is left alone). Returns the removed paths.
 * Synchronous, so that a crash handler can call it too.
 */
export function removeWritten(s: WriteSession): string[] {
  const removed: string[] = [];
  for (const w of [...s.written].reverse()) {
    const st = lstatSync(w.file, { throwIfNoEntry: false });
    if (st === undefined || st.dev !== w.dev || st.ino !== w.ino) continue;
    rmSync(w.file, { force: true });
    removed.push(w.file);
  }
  s.written.length = 0;
  return removed;
}

/** `.NAME.PID.HEX.tmp`: the temporary name of one write of NAME by process PID. */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How many directory entries one sweep reads at most: its cost stays bounded in a huge directory. */
export const SWEEP_LIMIT = 1024;

/**
 * Remove the temporary files that writers killed mid-write left in `dir` (their process is
 * gone: nothing in-process survives a SIGKILL to clean up), among its first `limit` entries.
 * Best effort, never throws; returns the removed names.
 */
export async function sweepDeadTemps(dir: string, limit = SWEEP_LIMIT): Promise<string[]> {
  const dead: string[] = [];
  try {
    let seen = 0;
    for await (const entry of await fs.opendir(dir)) {
      if (++seen > limit) break;
      const m = TEMP_NAME.exec(entry.name);
      if (m === null) continue;
      const pid = Number(m[1]);
      if (pid !== process.pid && !processAlive(pid)) dead.push(entry.name);
    }
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of dead) {
    if (
      await fs.rm(path.join(dir, name), { force: true }).then(
        () => true,
        () => false,
      )
    )
      removed.push(name);
  }
  return removed;
}

async function writeStdout(text: string | Uint8Array): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    process.stdout.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

/** `text` as two halves of its bytes. */
function halves(text: string | Uint8Array): [Uint8Array, Uint8Array] {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const half = Math.floor(bytes.length / 2);
  return [bytes.subarray(0, half), bytes.subarray(half)];
}

/** How an output path is written: renamed onto (absent or a regular file), or written in place (a character device or FIFO). */
export type OutputMode = 'replace' | 'in-place';

/** errno codes that say the path given is wrong (exit 3), not that the machine failed. */
const PATH_ERRORS = new Set([
  'ENOENT',
  'ENOTDIR',
  'EISDIR',
  'EACCES',
  'EPERM',
  'EROFS',
  'ENAMETOOLONG',
  'ELOOP',
  'EEXIST',
  'ENXIO',
  'ETXTBSY',
]);

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? 'error';
}

/** A failed write as one line naming the target (never the temporary file): OutputError for a bad path, Error otherwise. */
function writeFailure(file: string, action: string, error: unknown): Error {
  if (error instanceof OutputError) return error;
  const code = errnoOf(error);
  if (PATH_ERRORS.has(code)) return new OutputError(file, `${action} (${code})`);
  return new Error(`cannot write ${file}: ${action} (${code})`);
}

/** What a non-regular, non-directory node is, for a refusal. */
function nodeKind(st: Stats): string {
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/**
 * Decide how `file` would be written, or refuse it, without writing anything (the CLI frame
 * checks every output flag with this before a command runs; the writer checks again).
 * Absent with an existing parent directory, or a regular file: `replace`. A character device
 * or FIFO, or a symbolic link to one: `in-place`. A missing parent directory, a directory,
 * a block device, a socket, a symbolic link to anything else: OutputError.
 * @throws OutputError
 */
export function checkOutputTarget(file: string): OutputMode {
  let st: Stats | undefined;
  try {
    st = lstatSync(file, { throwIfNoEntry: false });
  } catch (error) {
    if (errnoOf(error) !== 'ENOTDIR') throw new OutputError(file, `cannot look at it (${errnoOf(error)})`);
  }
  if (st === undefined) {
    const dir = path.dirname(path.resolve(file));
    let parent: Stats | undefined;
    try {
      parent = statSync(dir, { throwIfNoEntry: false });
    } catch (error) {
      throw new OutputError(file, `cannot look at its directory ${dir} (${errnoOf(error)})`);
    }
    if (parent === undefined) throw new OutputError(file, `directory ${dir} does not exist`);
    if (!parent.isDirectory()) throw new OutputError(file, `${dir} is not a directory`);
    return 'replace';
  }
  if (st.isFile()) return 'replace';
  if (st.isCharacterDevice() || st.isFIFO()) return 'in-place';
  if (st.isSymbolicLink()) {
    const to = statSync(file, { throwIfNoEntry: false });
    if (to !== undefined && (to.isCharacterDevice() || to.isFIFO())) return 'in-place';
    const what =
      to === undefined
        ? 'leads nowhere'
        : to.isFile()
          ? 'leads to a regular file: give that path (or `-` for stdout)'
          : `leads to ${nodeKind(to)}`;
    throw new OutputError(file, `is a symbolic link that ${what}; refused (the writer replaces only regular files)`);
  }
  throw new OutputError(
    file,
    `is ${nodeKind(st)}; refused (the writer replaces only regular files and writes in place only to character devices and FIFOs)`,
  );
}

/** Write `text` into a character device or FIFO as it is: no temporary file, no rename, nothing recorded to take back. */
async function writeInPlace(file: string, text: string | Uint8Array, s: WriteSession | undefined): Promise<void> {
  // A FIFO nobody reads would block the open for ever: open it without blocking first (ENXIO
  // when there is no reader), then open it for blocking writes while that first end holds it.
  let probe: fs.FileHandle | undefined;
  let handle: fs.FileHandle | undefined;
  try {
    probe = await fs.open(file, constants.O_WRONLY | constants.O_NONBLOCK);
    const st = await probe.stat();
    if (!st.isCharacterDevice() && !st.isFIFO()) throw new OutputError(file, 'changed while being opened; refused');
    handle = await fs.open(file, constants.O_WRONLY);
  } catch (error) {
    await probe?.close();
    if (errnoOf(error) === 'ENXIO') throw new OutputError(file, 'is a FIFO no process reads; refused rather than wait');
    throw writeFailure(file, 'cannot open it', error);
  }
  try {
    if (s?.midWrite) {
      const [first, rest] = halves(text);
      await handle.write(first);
      await s.midWrite(file);
      await handle.write(rest);
    } else {
      await handle.writeFile(text);
    }
  } catch (error) {
    throw writeFailure(file, 'cannot write to it', error);
  } finally {
    await handle.close();
    await probe.close();
  }
}

/**
 * Write `text` to `file` atomically (temporary file beside it, fsync, rename);
 * `-` writes to stdout. A crash never leaves half a file behind: the target either keeps
 * what it held or holds the whole new text. Temporary files of writers that died are
 * swept from the directory first. A character device or FIFO is written in place, never
 * replaced; a target that is neither absent, a regular file, a device nor a FIFO is refused.
 * @throws OutputError (exit 3) for a target it refuses or a directory it may not write in
 */
export async function writeAtomic(file: string, text: string | Uint8Array): Promise<void> {
  const s = session;
  if (file !== '-' && checkOutputTarget(file) === 'in-place') {
    if (s?.beforeWrite) await s.beforeWrite(file);
    await writeInPlace(file, text, s);
    return;
  }
  if (s?.beforeWrite) await s.beforeWrite(file);
  if (file === '-') {
    if (s?.midWrite) {
      const [first, rest] = halves(text);
      await writeStdout(first);
      await s.midWrite(file);
      await writeStdout(rest);
    } else {
      await writeStdout(text);
    }
    return;
  }
  const dir = path.dirname(path.resolve(file));
  await sweepDeadTemps(dir);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(tmp, 'wx', 0o644);
  } catch (error) {
    throw writeFailure(file, `cannot create a file in ${dir}`, error);
  }
  let identity: { dev: number; ino: number };
  try {
    if (s?.midWrite) {
      const [first, rest] = halves(text);
      await handle.writeFile(first);
      await handle.sync();
      await s.midWrite(tmp);
      await handle.writeFile(rest);
    } else {
      await handle.writeFile(text);
    }
    await handle.sync();
    identity = await handle.stat();
  } catch (error) {
    await handle.close();
    await fs.rm(tmp, { force: true });
    throw error instanceof Error && 'code' in error
      ? writeFailure(file, 'cannot write its temporary file', error)
      : error;
  }
  await handle.close();
  try {
    // Checked again just before the rename: a device or FIFO put there meanwhile is never replaced.
    if (checkOutputTarget(file) !== 'replace')
      throw new OutputError(file, 'became a device or FIFO while being written; refused');
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw writeFailure(file, 'cannot rename into place', error);
  }
  s?.written.push({ file: path.resolve(file), dev: identity.dev, ino: identity.ino });
}

/**
 * The value as the artefact it claims to be (its `schema` names the kind), checked against
 * that kind's schema in the registry: a tool cannot write an artefact its contract refuses.
 * Returns the canonical text.
 * @throws InvalidArtefactError (exit 2) when the value is no valid artefact
 */
export function canonicalArtefact(file: string, value: unknown): string {
  try {
    const kind = kindOf(file, value);
    validateOrThrow(file, ARTEFACT_SCHEMAS[kind] as v.GenericSchema, value);
  } catch (error) {
    if (error instanceof LoadError) throw new InvalidArtefactError(file, oneLine(error.problem));
    throw error;
  }
  return canonicalJson(value);
}

/**
 * Validate an artefact against its schema, then write it canonically and atomically.
 * Returns the text written (the bytes a digest of the file covers).
 * @throws InvalidArtefactError (exit 2) for a value its schema refuses; OutputError (exit 3) for a bad target
 */
export async function writeArtefact(file: string, value: unknown): Promise<string> {
  const text = canonicalArtefact(file, value);
  await writeAtomic(file, text);
  return text;
}

/**
 * Validate an artefact (an evidence-log record) and append it as one line with one O_APPEND
 * write. The target is checked like {@link writeAtomic}'s: a character device or FIFO is
 * written in place; a missing directory, a directory, a block device, a socket or a
 * symbolic link to anything else is refused.
 * @throws InvalidArtefactError (exit 2); OutputError (exit 3)
 */
export async function appendArtefact(file: string, value: unknown): Promise<string> {
  const text = canonicalArtefact(file, value);
  if (checkOutputTarget(file) === 'in-place') {
    await writeInPlace(file, text, session);
    return text;
  }
  try {
    await fs.appendFile(file, text, {
      flag: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      mode: 0o644,
    });
  } catch (error) {
    throw writeFailure(file, 'cannot append to it', error);
  }
  return text;
}
