/**
 * The texts of the changed files a measurement judges: read from the patch tree and checked to
 * be the diff's new side, and the baseline text of each (the diff's hunks reversed).
 * @module
 */
import path from 'node:path';
import { InputError, readInside, type BoundDiff } from '@adversary-gate/core';
import type { MutableFile } from './changes.js';
import { baselineText } from './exec/baseline-text.js';

/** The largest changed file read (a source file past it is no source a person reviews). */
const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

/** Read a changed file from the tree and check it is the diff's new side. @throws InputError */
export function readChanged(tree: string, file: MutableFile, diff: BoundDiff): string {
  const full = path.join(tree, file.path);
  // Never through a link (a committed link may lead to a FIFO or /dev/zero a test creates), a
  // regular file only, of a bounded size.
  const read = readInside(tree, file.path, MAX_SOURCE_BYTES);
  if (!read.ok) throw new InputError(full, `a file the diff changes ${read.problem}; is --tree the patch side?`);
  const text = read.data.toString('utf8');
  const changed = diff.model.files.find((f) => f.path === file.path)!;
  const lines = text.split('\n');
  changed.addedLines.forEach((n, i) => {
    if ((lines[n - 1] ?? '').replace(/\r$/, '') !== changed.addedText[i]) {
      throw new InputError(
        full,
        `line ${n} differs from the diff's added line; --tree is not the patch side of --diff`,
      );
    }
  });
  return text;
}

/** The baseline text of each changed file (null: added, or the diff does not rebuild it). */
export function baselineTexts(
  files: readonly MutableFile[],
  texts: ReadonlyMap<string, string>,
  diff: BoundDiff,
): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const f of files) {
    const changed = diff.model.files.find((c) => c.path === f.path);
    if (changed !== undefined) out.set(f.path, baselineText(texts.get(f.path)!, changed));
  }
  return out;
}
