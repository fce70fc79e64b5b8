/**
 * istanbul `coverage-final.json` reader. A line's hits are the largest count of the
 * statements that start on it (istanbul's own `getLineCoverage`, which its lcov reporter
 * writes as `DA`), so this agrees with an lcov written from the same data.
 * @module
 */
import { validateOrThrow } from '@adversary-gate/schemas';
import * as v from 'valibot';
import { normaliseReportPath } from '../paths/normalise.js';
import { addHits, ReportCollector, type ReportData, type WantsPath } from './types.js';

const Count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const Position = v.looseObject({ line: Count });

/** One file's coverage in istanbul's format (other keys are allowed and ignored). */
export const IstanbulFile = v.looseObject({
  path: v.optional(v.string()),
  statementMap: v.record(v.string(), v.looseObject({ start: Position })),
  s: v.record(v.string(), Count),
});

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
    const lines = out.open(normaliseReportPath(data.path ?? key));
    if (lines === null) continue;
    for (const [id, count] of Object.entries(data.s)) {
      const stmt = data.statementMap[id];
      if (stmt !== undefined && stmt.start.line > 0) addHits(lines, stmt.start.line, count);
    }
  }
  return out.done('istanbul');
}
