/**
 * Which changed lines count for coverage: the one rule ag-diffcov measures by and ag-decide
 * checks diffcov.json against (if the two drifted, every diffcov file would be refused).
 * @module
 */
import type { FileClass } from '../files/classify.js';
import type { DiffModel } from './model.js';

/** A changed file's path and its added lines (ascending) with their text. */
export interface AddedLines {
  readonly path: string;
  readonly addedLines: readonly number[];
  readonly addedText: readonly string[];
}

/**
 * The changed files that can carry coverage: not deleted, not binary, with an added line.
 * A path named by several sections of one diff is merged: its lines united, ascending (the
 * first section's text for a line named twice). Files in the order the diff first names them.
 */
export function countableFiles(model: DiffModel): AddedLines[] {
  const byPath = new Map<string, AddedLines[]>();
  for (const f of model.files) {
    if (f.status === 'deleted' || f.binary || f.addedLines.length === 0) continue;
    const list = byPath.get(f.path);
    if (list === undefined) byPath.set(f.path, [f]);
    else list.push(f);
  }
  return [...byPath].map(([path, sections]) => {
    if (sections.length === 1) return { path, addedLines: sections[0]!.addedLines, addedText: sections[0]!.addedText };
    const lines = new Map<number, string>();
    for (const f of sections) f.addedLines.forEach((n, k) => lines.has(n) || lines.set(n, f.addedText[k] ?? ''));
    const sorted = [...lines].sort((a, b) => a[0] - b[0]);
    return { path, addedLines: sorted.map(([n]) => n), addedText: sorted.map(([, t]) => t) };
  });
}

/** The countable files split by class: `source` (measured) and the rest (test, not code). */
export function splitCountable(
  model: DiffModel,
  classify: (path: string) => FileClass,
): { source: AddedLines[]; other: (AddedLines & { cls: Exclude<FileClass, 'source'> })[] } {
  const source: AddedLines[] = [];
  const other: (AddedLines & { cls: Exclude<FileClass, 'source'> })[] = [];
  for (const f of countableFiles(model)) {
    const cls = classify(f.path);
    if (cls === 'source') source.push(f);
    else other.push({ ...f, cls });
  }
  return { source, other };
}

/** The lines diff coverage counts: per changed source file (countable, class `source`), its added lines. */
export function sourceAddedLines(
  model: DiffModel,
  classify: (path: string) => FileClass,
): Map<string, ReadonlySet<number>> {
  return new Map(splitCountable(model, classify).source.map((f) => [f.path, new Set(f.addedLines)]));
}
