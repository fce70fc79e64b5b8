/**
 * Line numbers as compact inclusive ranges, `[first, last]`: how every artefact writes a set
 * of lines, and how every tool reads one back.
 * @module
 */

/** An inclusive range of line numbers. */
export type InclusiveRange = [number, number];

/** Sorted, merged inclusive ranges of a set of line numbers (duplicates ignored). */
export function toRanges(lines: Iterable<number>): InclusiveRange[] {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out: InclusiveRange[] = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/** How many line numbers a list of inclusive ranges holds (ranges as written, overlaps counted twice). */
export function rangeCount(ranges: readonly (readonly [number, number])[]): number {
  return ranges.reduce((n, [a, b]) => n + b - a + 1, 0);
}

/** Every line number of a list of inclusive ranges, in the order written. */
export function fromRanges(ranges: readonly (readonly [number, number])[]): number[] {
  const out: number[] = [];
  for (const [a, b] of ranges) for (let n = a; n <= b; n++) out.push(n);
  return out;
}

/** `12`, `12-14`: one range as text. */
export function formatRange([a, b]: readonly [number, number]): string {
  return a === b ? String(a) : `${a}-${b}`;
}
