/**
 * Which reports to scan early: large lcov reports (given as `--format lcov`, or recognised
 * as lcov by content), each in a worker thread started before the diff is read.
 * @module
 */
import { promises as fs } from 'node:fs';
import { detectFormat, peekFile } from './detect.js';
import { PREFETCH_MIN_BYTES, prefetchLcov, type LcovPrefetch } from './lcov-prefetch.js';
import type { FormatChoice } from './read.js';

async function isLargeLcov(file: string, choice: FormatChoice): Promise<boolean> {
  try {
    const st = await fs.lstat(file);
    if (!st.isFile() || st.size < PREFETCH_MIN_BYTES) return false;
    return choice === 'lcov' || (choice === 'auto' && detectFormat(file, await peekFile(file)) === 'lcov');
  } catch {
    return false; // the ordinary reader reports the problem in its turn
  }
}

/** Start a scanning worker for each large lcov report (null for the others); each scans once given the diff's paths. */
export async function prefetchReports(
  files: readonly string[],
  choice: FormatChoice,
  root: string | null,
): Promise<(LcovPrefetch | null)[]> {
  const large = await Promise.all(files.map((f) => isLargeLcov(f, choice)));
  return Promise.all(files.map((f, i) => (large[i] ? prefetchLcov(f, root) : Promise.resolve(null))));
}
