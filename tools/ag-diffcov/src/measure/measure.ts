/**
 * From a diff and the merged reports to the measured fields of diffcov.json: which changed
 * files count, their lines split three ways, the totals and the ratio.
 * @module
 */
import {
  rangeCount,
  splitCountable,
  toRanges,
  type AddedLines,
  type DiffModel,
  type FileClass,
} from '@adversary-gate/core';
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { countFile } from './count.js';
import { contextFromDiff, type FileContext } from './file-context.js';
import { findPragmas, type PragmaHit } from './pragmas.js';
import type { FileCoverage } from './report-index.js';

/** Sorts by path (code-unit order, the artefact's order). */
const pathOrder = (a: { path: string }, b: { path: string }): number =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0;

type Measured = Pick<
  DiffcovArtefact,
  'files' | 'totals' | 'unmatched_files' | 'excluded_files' | 'diff_coverage_ratio' | 'reason'
> &
  Required<Pick<DiffcovArtefact, 'ignored_by_pragma' | 'branch_unrun'>>;

/** How coverage.py's own exclusions are named in `ignored_by_pragma`. */
export const REPORT_EXCLUSION = "excluded by the report (coverage.py's excluded_lines)";

/** Changed source files and the excluded ones (test, not code), by class. */
export function splitByClass(
  model: DiffModel,
  classify: (path: string) => FileClass,
): { source: AddedLines[]; excluded: NonNullable<DiffcovArtefact['excluded_files']> } {
  // Which changed lines count is ag-core's rule (ag-decide checks diffcov.json against the same one).
  const { source, other } = splitCountable(model, classify);
  const excluded = other.map((f) => ({ path: f.path, class: f.cls, added_lines: f.addedLines.length }));
  excluded.sort(pathOrder);
  return { source, excluded };
}

/** The changed files split by class. */
export type ClassSplit = ReturnType<typeof splitByClass>;

/** The changed source files and their added lines, by path: what was not measured when no report was read. */
export function unmeasured({ source }: ClassSplit): NonNullable<DiffcovArtefact['unmeasured_files']> {
  return [...source].sort(pathOrder).map((f) => ({ path: f.path, added: toRanges(f.addedLines) }));
}

/** Coverage pragmas on the added lines of changed source files. */
export function pragmasOf(split: ClassSplit): PragmaHit[] {
  return split.source.flatMap((f) => findPragmas(f.path, f.addedLines, f.addedText));
}

/**
 * Measure the changed files against merged report coverage (`byPath`: changed path → what
 * the reports say; `contexts`: changed path → what its text says, from the patch tree; a
 * file without one is read from its added lines).
 */
export function measure(
  { source, excluded }: ClassSplit,
  byPath: ReadonlyMap<string, FileCoverage>,
  contexts: ReadonlyMap<string, FileContext> = new Map(),
): Measured {
  const files: DiffcovArtefact['files'] = [];
  const unmatched: string[] = [];
  const ignoredByPragma: Measured['ignored_by_pragma'] = [];
  const branchUnrun: Measured['branch_unrun'] = [];
  let covered = 0;
  let uncovered = 0;
  for (const f of [...source].sort(pathOrder)) {
    const cov = byPath.get(f.path) ?? null;
    if (cov === null) unmatched.push(f.path);
    const context = contexts.get(f.path) ?? contextFromDiff(f);
    const c = countFile(f, cov?.lines ?? null, cov ?? {}, context);
    for (const [i, lines] of c.ignored) {
      const s = context.scopes[i]!;
      ignoredByPragma.push({ path: f.path, pragma_line: s.line, pragma: s.text, lines: toRanges(lines) });
    }
    if (c.excludedByReport.length > 0)
      ignoredByPragma.push({ path: f.path, pragma: REPORT_EXCLUSION, lines: toRanges(c.excludedByReport) });
    if (c.partlyRun.length > 0) branchUnrun.push({ path: f.path, lines: toRanges(c.partlyRun) });
    const entry = {
      path: f.path,
      in_report: cov !== null,
      covered: toRanges(c.covered),
      uncovered: toRanges(c.uncovered),
      non_executable: toRanges(c.nonExecutable),
      report_paths: [...(cov?.reportPaths ?? [])],
    };
    covered += rangeCount(entry.covered);
    uncovered += rangeCount(entry.uncovered);
    files.push(entry);
  }
  const measured = covered + uncovered;
  return {
    files,
    totals: { measured, covered, uncovered },
    unmatched_files: unmatched,
    excluded_files: excluded,
    diff_coverage_ratio: measured === 0 ? null : covered / measured,
    reason: measured === 0 ? 'no_executable_changed_lines' : null,
    ignored_by_pragma: ignoredByPragma,
    branch_unrun: branchUnrun,
  };
}
