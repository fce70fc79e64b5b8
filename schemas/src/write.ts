/**
 * The one writer: canonical JSON (sorted keys), newline-terminated, atomic.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import stringify from 'fast-json-stable-stringify';

/** Canonical text of a value: sorted keys, no whitespace, one trailing newline. */
export function canonicalJson(value: unknown): string {
  return `${stringify(value)}\n`;
}

/**
 * Write `text` to `file` atomically (temporary file beside it, fsync, rename);
 * `-` writes to stdout. A crash never leaves half a file behind.
 */
export async function writeAtomic(file: string, text: string | Uint8Array): Promise<void> {
  if (file === '-') {
    await new Promise<void>((resolve, reject) => {
      process.stdout.write(text, (err) => (err ? reject(err) : resolve()));
    });
    return;
  }
  const dir = path.dirname(path.resolve(file));
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'wx', 0o644);
  try {
    await handle.writeFile(text);
    await handle.sync();
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
}

/** Write an artefact canonically and atomically. */
export function writeArtefact(file: string, value: unknown): Promise<void> {
  return writeAtomic(file, canonicalJson(value));
}
