/**
 * Read a file's bytes safely: regular files only, never through a symlink, never past a cap.
 * @module
 */
import { constants, promises as fs } from 'node:fs';
import { LoadError } from './errors.js';

/** Default byte cap for any JSON artefact. */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Read up to `maxBytes` of a regular file, refusing symlinks, FIFOs, devices and directories.
 * @throws LoadError
 */
export async function readRegularFile(file: string, maxBytes = DEFAULT_MAX_BYTES): Promise<Buffer> {
  let st;
  try {
    st = await fs.lstat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new LoadError('E_EVIDENCE_MISSING', file, 'no such file');
    throw new LoadError('E_EVIDENCE_MISSING', file, `cannot stat (${code ?? 'error'})`);
  }
  if (st.isSymbolicLink()) throw new LoadError('E_NOT_REGULAR_FILE', file, 'is a symbolic link, refused');
  if (!st.isFile()) throw new LoadError('E_NOT_REGULAR_FILE', file, 'is not a regular file');
  if (st.size > maxBytes)
    throw new LoadError('E_TOO_LARGE', file, `is ${st.size} bytes, over the ${maxBytes}-byte cap`);
  let handle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new LoadError('E_NOT_REGULAR_FILE', file, 'is a symbolic link, refused');
    throw new LoadError('E_EVIDENCE_MISSING', file, `cannot open (${code ?? 'error'})`);
  }
  try {
    const fst = await handle.stat();
    if (!fst.isFile()) throw new LoadError('E_NOT_REGULAR_FILE', file, 'is not a regular file');
    const buf = Buffer.alloc(Math.min(maxBytes + 1, Math.max(fst.size + 1, 1)));
    let total = 0;
    for (;;) {
      if (total === buf.length) break;
      const { bytesRead } = await handle.read(buf, total, buf.length - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total > maxBytes) throw new LoadError('E_TOO_LARGE', file, `is over the ${maxBytes}-byte cap`);
    if (total === buf.length && total === fst.size + 1) {
      throw new LoadError('E_EVIDENCE_MALFORMED', file, 'grew while being read');
    }
    return buf.subarray(0, total);
  } finally {
    await handle.close();
  }
}
