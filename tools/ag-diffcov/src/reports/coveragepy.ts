/**
 * coverage.py JSON reader (`coverage json`). Executable lines are `executed_lines` ∪
 * `missing_lines`; covered means executed. `excluded_lines` (pragmas, configured
 * exclusions) are not executable, as coverage.py itself reports them.
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
  files: v.record(v.string(), v.looseObject({ executed_lines: Lines, missing_lines: Lines })),
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
    const lines = out.open(normaliseReportPath(name));
    if (lines === null) continue;
    for (const n of data.missing_lines) if (n > 0) addHits(lines, n, 0);
    for (const n of data.executed_lines) if (n > 0) addHits(lines, n, 1);
  }
  return out.done('coveragepy');
}
