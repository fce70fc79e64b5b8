/**
 * istanbul `coverage-final.json` reader. A line's hits are the largest count of the
 * statements that start on it (istanbul's own `getLineCoverage`, which its lcov reporter
 * writes as `DA`), so this agrees with an lcov written from the same data. A branch group
 * none of whose branches ran (`b`, at `branchMap` `loc.start.line`: its lcov `BRDA` line) and
 * a function never called (`f`, at `fnMap` `decl` or `loc` start: its `FN` line) mark their
 * line as run only in part, as the lcov reader does (`lcov-record.ts`).
 * @module
 */
import { validateOrThrow } from '@adversary-gate/schemas';
import * as v from 'valibot';
import { normaliseReportPath } from '../paths/normalise.js';
import { addHits, mergeRun, ReportCollector, type ReportData, type WantsPath } from './types.js';

const Count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const Position = v.looseObject({ line: Count });
const Located = v.looseObject({ start: Position });

/** One file's coverage in istanbul's format (other keys are allowed and ignored). */
export const IstanbulFile = v.looseObject({
  path: v.optional(v.string()),
  statementMap: v.record(v.string(), v.looseObject({ start: Position })),
  s: v.record(v.string(), Count),
  branchMap: v.optional(v.record(v.string(), v.looseObject({ loc: v.optional(Located) }))),
  b: v.optional(v.record(v.string(), v.array(Count))),
  fnMap: v.optional(v.record(v.string(), v.looseObject({ decl: v.optional(Located), loc: v.optional(Located) }))),
  f: v.optional(v.record(v.string(), Count)),
});

type IstanbulFile = v.InferOutput<typeof IstanbulFile>;

/** The lines where a branch group that never ran, or a function never called, begins. */
function unrunStarts(data: IstanbulFile): number[] {
  const out: number[] = [];
  for (const [id, counts] of Object.entries(data.b ?? {})) {
    const line = data.branchMap?.[id]?.loc?.start.line;
    if (line !== undefined && counts.every((n) => n === 0)) out.push(line);
  }
  for (const [id, count] of Object.entries(data.f ?? {})) {
    const meta = data.fnMap?.[id];
    const line = (meta?.decl ?? meta?.loc)?.start.line;
    if (line !== undefined && count === 0) out.push(line);
  }
  return out;
}

/** `coverage-final.json`: file path → coverage. */
export const IstanbulReport = v.record(v.string(), IstanbulFile);

/** True when a parsed JSON value looks like istanbul coverage (every value has a statementMap). */
export function looksIstanbul(value: Record<string, unknown>): boolean {
  const entries = Object.values(value);
  return (
    entries.length > 0 && entries.every((e) => typeof e === 'object' && e !== null && 'statementMap' in e && 's' in e)
  );
}

/** Read parsed istanbul JSON. @throws LoadError naming the field */
export function readIstanbul(file: string, value: unknown, wants: WantsPath): ReportData {
  const report = validateOrThrow(file, IstanbulReport, value);
  const out = new ReportCollector(wants);
  for (const [key, data] of Object.entries(report)) {
    const entry = out.openEntry(normaliseReportPath(data.path ?? key));
    if (entry === null) continue;
    const lines = new Map<number, number>();
    for (const [id, count] of Object.entries(data.s)) {
      const stmt = data.statementMap[id];
      if (stmt !== undefined && stmt.start.line > 0) addHits(lines, stmt.start.line, count);
    }
    const partial = new Set(unrunStarts(data).filter((n) => (lines.get(n) ?? 0) > 0));
    mergeRun(entry, lines, partial);
  }
  return out.done('istanbul');
}
