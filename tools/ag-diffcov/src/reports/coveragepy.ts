/**
 * coverage.py JSON reader (`coverage json`). Executable lines are `executed_lines` ∪
 * `missing_lines`; covered means executed. `excluded_lines` (pragmas, configured
 * exclusions) are kept apart: a changed line the report excluded is never covered, even
 * where coverage.py also lists it as executed (6.5 does, for an excluded `def` or `if` line).
 * @module
 */
import { validateOrThrow } from '@adversary-gate/schemas';
import * as v from 'valibot';
import { normaliseReportPath } from '../paths/normalise.js';
import { addHits, ReportCollector, type ReportData, type WantsPath } from './types.js';

const Lines = v.array(v.pipe(v.number(), v.safeInteger(), v.minValue(0)));

/** coverage.py's JSON report (other keys are allowed and ignored). */
export const CoveragePyReport = v.looseObject({
  meta: v.looseObject({ version: v.string() }),
  files: v.record(
    v.string(),
    v.looseObject({ executed_lines: Lines, missing_lines: Lines, excluded_lines: v.optional(Lines) }),
  ),
});

/** True when a parsed JSON value looks like a coverage.py report. */
export function looksCoveragePy(value: Record<string, unknown>): boolean {
  const meta = value.meta;
  return typeof meta === 'object' && meta !== null && 'version' in meta && typeof value.files === 'object';
}

/** Read a parsed coverage.py report. @throws LoadError naming the field */
export function readCoveragePy(file: string, value: unknown, wants: WantsPath): ReportData {
  const report = validateOrThrow(file, CoveragePyReport, value);
  const out = new ReportCollector(wants);
  for (const [name, data] of Object.entries(report.files)) {
    const path = normaliseReportPath(name);
    const lines = out.open(path);
    if (lines === null) continue;
    for (const n of data.missing_lines) if (n > 0) addHits(lines, n, 0);
    for (const n of data.executed_lines) if (n > 0) addHits(lines, n, 1);
    const excluded = (data.excluded_lines ?? []).filter((n) => n > 0);
    if (excluded.length > 0) {
      const entry = out.files.get(path.key)!;
      const known = entry.excluded ?? new Set<number>();
      for (const n of excluded) known.add(n);
      if (entry.excluded === undefined) out.files.set(path.key, { ...entry, excluded: known });
    }
  }
  return out.done('coveragepy');
}
