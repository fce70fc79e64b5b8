import { classifyPath, fromRanges, parseUnifiedDiff, rangeCount, sourceAddedLines } from '@adversary-gate/core';
import type { DiffcovArtefact } from '@adversary-gate/schemas';

/**
 * What ag-decide re-derives from a computed diffcov artefact and its diff; returns the first
 * broken invariant or null.
 */
export function invariantProblem(d: DiffcovArtefact, diffText: string, classify = classifyPath): string | null {
  // ag-core's rule of which changed lines count, the one ag-decide checks against.
  const expected = sourceAddedLines(parseUnifiedDiff(diffText), classify);
  const paths = d.files.map((f) => f.path);
  if (new Set(paths).size !== paths.length) return 'a file is listed twice';
  if ([...expected.keys()].sort().join('\n') !== [...paths].sort().join('\n'))
    return `files ${paths.join(',')} are not the changed source files ${[...expected.keys()].join(',')}`;
  let covered = 0;
  let uncovered = 0;
  for (const f of d.files) {
    const lines = [...fromRanges(f.covered), ...fromRanges(f.uncovered), ...fromRanges(f.non_executable)];
    const want = expected.get(f.path)!;
    if (new Set(lines).size !== lines.length) return `${f.path}: a line is in two classes`;
    if (lines.length !== want.size || lines.some((n) => !want.has(n)))
      return `${f.path}: lines differ from the diff's added lines`;
    covered += rangeCount(f.covered);
    uncovered += rangeCount(f.uncovered);
  }
  // Lines counted uncovered because of a pragma or of the report's branch records are uncovered lines of their file.
  for (const e of [...(d.ignored_by_pragma ?? []), ...(d.branch_unrun ?? [])]) {
    const f = d.files.find((x) => x.path === e.path);
    const unc = new Set(fromRanges(f?.uncovered ?? []));
    if (fromRanges(e.lines).some((n) => !unc.has(n)))
      return `${e.path}: a line listed as ignored or run in part is not uncovered`;
  }
  const t = d.totals;
  if (t.covered !== covered || t.uncovered !== uncovered || t.measured !== covered + uncovered)
    return 'totals do not add up';
  if (
    t.measured === 0
      ? d.diff_coverage_ratio !== null || d.reason !== 'no_executable_changed_lines'
      : d.diff_coverage_ratio !== covered / t.measured || d.reason !== null
  ) {
    return 'ratio or reason is wrong';
  }
  return null;
}
