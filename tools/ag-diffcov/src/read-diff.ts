/**
 * Read the `--diff` input's bytes (a file, or `-` for stdin) with ag-core's limits and
 * messages; ag-core's `bindDiff` parses them. Split from parsing so a large report can be
 * scanned while the diff is parsed.
 * @module
 */
import { InputError, MAX_DIFF_BYTES } from '@adversary-gate/core';
import { LoadError, readRegularFile } from '@adversary-gate/schemas';

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

/** The bytes of `--diff FILE` or stdin. @throws InputError */
export async function readDiffBytes(file: string): Promise<Buffer> {
  if (file === '-') return readStdin();
  try {
    return await readRegularFile(file, MAX_DIFF_BYTES);
  } catch (error) {
    if (error instanceof LoadError) throw new InputError(file, error.problem);
    throw error;
  }
}
