/**
 * Invariants of diffcov.json, including a cross-check against the diff itself.
 * @module
 */
import { fromRanges, rangeCount } from '@adversary-gate/core';
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { sameRatio } from './changed-lines.js';

/** The first broken invariant, or null. `sourceLines` is what the diff says changed. */
export function diffcovProblem(d: DiffcovArtefact, sourceLines: Map<string, ReadonlySet<number>>): string | null {
  const { measured, covered, uncovered } = d.totals;
  if (measured !== covered + uncovered)
    return `totals: measured ${measured} is not covered ${covered} + uncovered ${uncovered}`;
  if (d.diff_coverage_ratio === null && d.reason === null) return 'diff_coverage_ratio is null without a reason';
  if (d.diff_coverage_ratio !== null && d.reason !== null) return 'a reason is given for a ratio that is not null';
  if (d.diff_coverage_source === 'none') {
    if (d.diff_coverage_ratio !== null) return 'source none with a ratio';
    return unmeasuredProblem(d, sourceLines);
  }
  if (d.diff_coverage_source === 'untrusted') {
    if (d.diff_coverage_ratio === null) return 'source untrusted without a ratio';
    return unmeasuredProblem(d, sourceLines);
  }
  if ((d.unmeasured_files ?? []).length > 0) return 'unmeasured_files listed for a computed measurement';
  // computed: everything must re-derive from the files and the diff.
  if (measured === 0) {
    if (d.diff_coverage_ratio !== null || d.reason !== 'no_executable_changed_lines')
      return 'no measured line, yet the ratio is not null with reason no_executable_changed_lines';
  } else if (d.diff_coverage_ratio === null || !sameRatio(d.diff_coverage_ratio, covered / measured)) {
    return `ratio ${d.diff_coverage_ratio} is not covered/measured = ${covered}/${measured}`;
  }
  let sumCovered = 0;
  let sumUncovered = 0;
  const seen = new Set<string>();
  for (const f of d.files) {
    if (seen.has(f.path)) return `file ${f.path} is listed twice`;
    seen.add(f.path);
    const expected = sourceLines.get(f.path);
    if (expected === undefined) return `file ${f.path} is not a changed source file of this diff`;
    const lines = [...fromRanges(f.covered), ...fromRanges(f.uncovered), ...fromRanges(f.non_executable)];
    if (new Set(lines).size !== lines.length) return `file ${f.path}: a line is in more than one class`;
    if (lines.length !== expected.size || lines.some((n) => !expected.has(n)))
      return `file ${f.path}: its lines are not the diff's added lines`;
    sumCovered += rangeCount(f.covered);
    sumUncovered += rangeCount(f.uncovered);
  }
  for (const path of sourceLines.keys())
    if (!seen.has(path)) return `changed source file ${path} is missing from the evidence`;
  if (sumCovered !== covered || sumUncovered !== uncovered)
    return `totals ${covered}/${uncovered} do not match the per-file lines ${sumCovered}/${sumUncovered}`;
  return null;
}

/** `unmeasured_files` (optional: older evidence has none), when given, is exactly the diff's changed source lines. */
function unmeasuredProblem(d: DiffcovArtefact, sourceLines: Map<string, ReadonlySet<number>>): string | null {
  if (d.unmeasured_files === undefined) return null;
  const seen = new Set<string>();
  for (const f of d.unmeasured_files) {
    if (seen.has(f.path)) return `unmeasured file ${f.path} is listed twice`;
    seen.add(f.path);
    const expected = sourceLines.get(f.path);
    if (expected === undefined) return `unmeasured file ${f.path} is not a changed source file of this diff`;
    const lines = fromRanges(f.added);
    if (new Set(lines).size !== lines.length || lines.length !== expected.size || lines.some((n) => !expected.has(n)))
      return `unmeasured file ${f.path}: its lines are not the diff's added lines`;
  }
  for (const path of sourceLines.keys())
    if (!seen.has(path)) return `changed source file ${path} is missing from unmeasured_files`;
  return null;
}
