/**
 * Read the `--diff` input (a file or `-` for stdin) and bind it: bytes, digest, model.
 * @module
 */
import { LoadError, readRegularFile, sha256 } from '@adversary-gate/schemas';
import { InputError } from '../cli/errors.js';
import { DiffParseError, parseUnifiedDiff, type DiffModel } from './model.js';

/** Largest diff accepted (bytes). */
export const MAX_DIFF_BYTES = 256 * 1024 * 1024;

/** A diff as read: its bytes' digest binds every artefact to it. */
export interface BoundDiff {
  /** The path given (`-` for stdin). */
  readonly file: string;
  readonly sha256: `sha256:${string}`;
  readonly model: DiffModel;
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    total += (chunk as Buffer).length;
    if (total > MAX_DIFF_BYTES) throw new InputError('-', `diff is over the ${MAX_DIFF_BYTES}-byte cap`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Parse diff bytes; errors name the file. */
export function bindDiff(file: string, bytes: Buffer): BoundDiff {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // git writes paths and contents as bytes; fall back to latin1 so line structure survives.
    text = bytes.toString('latin1');
  }
  try {
    return { file, sha256: sha256(bytes), model: parseUnifiedDiff(text) };
  } catch (error) {
    if (error instanceof DiffParseError) throw new InputError(file, error.message);
    throw error;
  }
}

/** Read and parse `--diff FILE` or stdin. @throws InputError */
export async function readDiff(file: string): Promise<BoundDiff> {
  return bindDiff(file, await readDiffBytes(file));
}

/**
 * The bytes of `--diff FILE` or stdin (`-`), under the size cap, unparsed (for a tool that
 * parses them while it does other work). @throws InputError naming the file
 */
export async function readDiffBytes(file: string): Promise<Buffer> {
  if (file === '-') return readStdin();
  try {
    return await readRegularFile(file, MAX_DIFF_BYTES);
  } catch (error) {
    if (error instanceof LoadError) throw new InputError(file, error.problem);
    throw error;
  }
}
