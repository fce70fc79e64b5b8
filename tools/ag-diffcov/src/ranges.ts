/**
 * Line numbers as compact inclusive ranges, `[first, last]`.
 * @module
 */

/** An inclusive range of line numbers. */
export type Range = [number, number];

/** Sorted, merged inclusive ranges of a set of line numbers (duplicates ignored). */
export function toRanges(lines: Iterable<number>): Range[] {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out: Range[] = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/** How many line numbers a list of ranges holds. */
export function rangeCount(ranges: readonly Range[]): number {
  return ranges.reduce((n, [a, b]) => n + b - a + 1, 0);
}

/** Every line number of a list of ranges, ascending. */
export function fromRanges(ranges: readonly Range[]): number[] {
  const out: number[] = [];
  for (const [a, b] of ranges) for (let n = a; n <= b; n++) out.push(n);
  return out;
}

/** `12`, `12-14`: one range as text. */
export function formatRange([a, b]: Range): string {
  return a === b ? String(a) : `${a}-${b}`;
}
