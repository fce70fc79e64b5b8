/**
 * What ag-decide re-derives from the diff itself, to cross-check the evidence.
 * @module
 */
import type { DiffModel, FileClass } from '@adversary-gate/core';

/** Added lines of each changed, non-deleted, non-binary file of class `source`. */
export function sourceAddedLines(model: DiffModel, classify: (path: string) => FileClass): Map<string, ReadonlySet<number>> {
  const out = new Map<string, ReadonlySet<number>>();
  for (const f of model.files) {
    if (f.status === 'deleted' || f.binary || f.addedLines.length === 0) continue;
    if (classify(f.path) !== 'source') continue;
    // A path may appear in several sections of one diff: its lines are the union.
    out.set(f.path, new Set([...(out.get(f.path) ?? []), ...f.addedLines]));
  }
  return out;
}

/** Expand inclusive ranges into line numbers (ranges were validated as ordered pairs). */
export function expandRanges(ranges: readonly (readonly [number, number])[]): number[] {
  const out: number[] = [];
  for (const [a, b] of ranges) for (let n = a; n <= b; n++) out.push(n);
  return out;
}

/** Total lines in a list of inclusive ranges. */
export function rangeLength(ranges: readonly (readonly [number, number])[]): number {
  return ranges.reduce((n, [a, b]) => n + (b - a + 1), 0);
}

/** Ratios are compared with a tolerance for float rounding. */
export function sameRatio(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9;
}
