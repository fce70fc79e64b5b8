/**
 * Frozen-only coverage: changed production files whose only covering tests are frozen.
 * @module
 */
import picomatch from 'picomatch';
import type { ChangedFile, FileClass } from '@adversary-gate/core';
import type { JudgedEntry } from './freeze-list.js';

/** The files covered by valid freeze entries, and whether they are all the changed production files. */
export interface FrozenOnly {
  readonly files: string[];
  readonly all: boolean;
}

/**
 * Changed production files (class `source`, not deleted) matched by the `covers` globs of
 * a valid (unexpired, well-formed) entry. `all` is true when there is at least one such
 * file and every changed production file is among them.
 */
export function frozenOnlyCoverage(
  files: readonly ChangedFile[],
  classify: (p: string) => FileClass,
  entries: readonly JudgedEntry[],
): FrozenOnly {
  const globs = entries.filter((e) => e.status === 'valid').flatMap((e) => e.covers ?? []);
  const production = files.filter((f) => f.status !== 'deleted' && classify(f.path) === 'source').map((f) => f.path);
  if (globs.length === 0 || production.length === 0) return { files: [], all: false };
  const isCovered = picomatch(globs, { dot: true });
  const covered = [...new Set(production.filter((p) => isCovered(p)))].sort();
  return { files: covered, all: covered.length > 0 && covered.length === new Set(production).size };
}
