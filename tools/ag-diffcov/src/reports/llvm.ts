/**
 * llvm-cov export JSON reader (`llvm-cov export -format=text`). Segments are turned into
 * line coverage with llvm-cov's own rule (`LineCoverageStats`): a line is executable when a
 * region starts on it or a counted region wraps into it (and it does not start a skipped
 * region); its count is the largest of the wrapping region and the regions starting on it.
 * @module
 */
import { validateOrThrow } from '@adversary-gate/schemas';
import * as v from 'valibot';
import { normaliseReportPath } from '../paths/normalise.js';
import { addHits, MAX_LINE, ReportCollector, type LineHits, type ReportData, type WantsPath } from './types.js';

const Int = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const Line = v.pipe(
  v.number(),
  v.safeInteger(),
  v.minValue(0),
  v.maxValue(MAX_LINE, `a line number above ${MAX_LINE}`),
);
/** `[line, col, count, hasCount, isRegionEntry, isGapRegion?]` */
// Strict tuples, six items first: a loose five-item tuple would accept a six-item segment and
// drop its gap flag (a gap segment would then count as a region start).
const Segment = v.union(
  [
    v.strictTuple([Line, Int, Int, v.boolean(), v.boolean(), v.boolean()]),
    v.strictTuple([Line, Int, Int, v.boolean(), v.boolean()]),
  ],
  `a segment is [line (at most ${MAX_LINE}), column, count, hasCount, isRegionEntry, isGapRegion?]`,
);

/** The parts of an llvm-cov export that line coverage needs (other keys allowed). */
export const LlvmExport = v.looseObject({
  type: v.literal('llvm.coverage.json.export'),
  data: v.array(v.looseObject({ files: v.array(v.looseObject({ filename: v.string(), segments: v.array(Segment) })) })),
});

type Seg = v.InferOutput<typeof Segment>;

/** True when a parsed JSON value is an llvm-cov export. */
export function looksLlvm(value: Record<string, unknown>): boolean {
  return value.type === 'llvm.coverage.json.export';
}

/** Line hits of one file's segments (segments sorted by position, as llvm-cov writes them). */
export function segmentLines(segments: readonly Seg[]): LineHits {
  const lines: LineHits = new Map();
  if (segments.length === 0) return lines;
  let wrapped: Seg | null = null;
  let i = 0;
  const last = segments[segments.length - 1]![0];
  for (let line = segments[0]![0]; line <= last; line++) {
    const start = i;
    while (i < segments.length && segments[i]![0] === line) i++;
    const onLine = segments.slice(start, i);
    const isStart = (s: Seg): boolean => !(s[5] ?? false) && s[3] && s[4];
    const starts = onLine.filter(isStart);
    const skipped = onLine.length > 0 && !onLine[0]![3] && onLine[0]![4];
    const mapped = !skipped && ((wrapped !== null && wrapped[3]) || starts.length > 0);
    if (mapped) {
      let count = wrapped !== null ? wrapped[2] : 0;
      for (const s of starts) count = Math.max(count, s[2]);
      lines.set(line, count);
    }
    if (onLine.length > 0) wrapped = onLine[onLine.length - 1]!;
  }
  return lines;
}

/** Read a parsed llvm-cov export. @throws LoadError naming the field */
export function readLlvm(file: string, value: unknown, wants: WantsPath): ReportData {
  const report = validateOrThrow(file, LlvmExport, value);
  const out = new ReportCollector(wants);
  for (const unit of report.data) {
    for (const f of unit.files) {
      const lines = out.open(normaliseReportPath(f.filename));
      if (lines === null) continue;
      for (const [line, hits] of segmentLines(f.segments)) addHits(lines, line, hits);
    }
  }
  return out.done('llvm');
}
