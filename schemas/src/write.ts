/**
 * The one writer: canonical JSON (sorted keys), newline-terminated, atomic.
 *
 * While a CLI command runs, the frame opens a write session: the writer records each file it
 * renamed into place (so a command that fails afterwards can take its outputs back), and
 * fault injection (ag-core's `AG_FAULT`) hooks into the two moments only the writer sees.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, promises as fs, rmSync } from 'node:fs';
import path from 'node:path';
import stringify from 'fast-json-stable-stringify';

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
    if (await fs.rm(path.join(dir, name), { force: true }).then(() => true, () => false)) removed.push(name);
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

/**
 * Write `text` to `file` atomically (temporary file beside it, fsync, rename);
 * `-` writes to stdout. A crash never leaves half a file behind: the target either keeps
 * what it held or holds the whole new text. Temporary files of writers that died are
 * swept from the directory first.
 */
export async function writeAtomic(file: string, text: string | Uint8Array): Promise<void> {
  const s = session;
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
  const handle = await fs.open(tmp, 'wx', 0o644);
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
    throw error;
  }
  await handle.close();
  try {
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  s?.written.push({ file: path.resolve(file), dev: identity.dev, ino: identity.ino });
}

/** Write an artefact canonically and atomically. */
export function writeArtefact(file: string, value: unknown): Promise<void> {
  return writeAtomic(file, canonicalJson(value));
}
