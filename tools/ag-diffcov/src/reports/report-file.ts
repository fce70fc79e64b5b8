/**
 * Read a coverage report's bytes in chunks, safely (regular file, never through a symlink),
 * hashing them on the way so the digest describes exactly the bytes that were parsed.
 * @module
 */
import { createHash } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { InputError } from '@adversary-gate/core';

/** Largest report accepted (bytes). */
export const MAX_REPORT_BYTES = 2 * 1024 * 1024 * 1024;

const CHUNK = 1 << 20;

/** A report file opened for reading: its chunks, then its digest. */
export interface ReportBytes {
  readonly file: string;
  /** The file's bytes in order. A chunk is valid only until the next one is asked for (the buffer is reused): copy what you keep. */
  chunks(): AsyncGenerator<Buffer>;
  /** The SHA-256 of every byte read so far (call after `chunks()` is exhausted). */
  digest(): `sha256:${string}`;
}

function errno(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

/** Open a report file for streaming. @throws InputError */
export async function openReport(file: string): Promise<ReportBytes> {
  let st;
  try {
    st = await fs.lstat(file);
  } catch (error) {
    throw new InputError(file, errno(error) === 'ENOENT' ? 'no such file' : `cannot stat (${errno(error)})`);
  }
  if (st.isSymbolicLink()) throw new InputError(file, 'is a symbolic link, refused');
  if (!st.isFile()) throw new InputError(file, 'is not a regular file');
  if (st.size > MAX_REPORT_BYTES)
    throw new InputError(file, `is ${st.size} bytes, over the ${MAX_REPORT_BYTES}-byte cap`);
  const hash = createHash('sha256');
  let finished = false;
  return {
    file,
    async *chunks() {
      let handle;
      try {
        handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      } catch (error) {
        throw new InputError(
          file,
          errno(error) === 'ELOOP' ? 'is a symbolic link, refused' : `cannot open (${errno(error)})`,
        );
      }
      try {
        if (!(await handle.stat()).isFile()) throw new InputError(file, 'is not a regular file');
        let total = 0;
        const buf = Buffer.allocUnsafe(CHUNK);
        for (;;) {
          const { bytesRead } = await handle.read(buf, 0, CHUNK, null);
          if (bytesRead === 0) break;
          total += bytesRead;
          if (total > MAX_REPORT_BYTES) throw new InputError(file, `is over the ${MAX_REPORT_BYTES}-byte cap`);
          const chunk = bytesRead === CHUNK ? buf : buf.subarray(0, bytesRead);
          hash.update(chunk);
          yield chunk;
        }
        finished = true;
      } finally {
        await handle.close();
      }
    },
    digest() {
      if (!finished) throw new Error(`${file}: digest asked before the file was read to its end`);
      return `sha256:${hash.digest('hex')}`;
    },
  };
}
