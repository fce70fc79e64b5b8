/**
 * From a diff and the merged reports to the measured fields of diffcov.json: which changed
 * files count, their lines split three ways, the totals and the ratio.
 * @module
 */
import type { DiffModel, FileClass } from '@adversary-gate/core';
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { rangeCount, toRanges } from '../ranges.js';
import { countFile } from './count.js';
import { findPragmas, type PragmaHit } from './pragmas.js';
import type { FileCoverage } from './report-index.js';

type Measured = Pick<DiffcovArtefact, 'files' | 'totals' | 'unmatched_files' | 'excluded_files' | 'diff_coverage_ratio' | 'reason'>;

/** A changed file's path and added lines. */
export interface AddedLines {
  readonly path: string;
  readonly addedLines: readonly number[];
  readonly addedText: readonly string[];
}

/**
 * The changed files that can carry coverage: not deleted, not binary, with added lines.
 * A path named by several sections of one diff is merged (its lines united, ascending).
 */
export function countableFiles(model: DiffModel): AddedLines[] {
  const byPath = new Map<string, AddedLines[]>();
  for (const f of model.files) {
    if (f.status === 'deleted' || f.binary || f.addedLines.length === 0) continue;
    const list = byPath.get(f.path);
    if (list === undefined) byPath.set(f.path, [f]);
    else list.push(f);
  }
  return [...byPath].map(([path, sections]) => {
    if (sections.length === 1) return { path, addedLines: sections[0]!.addedLines, addedText: sections[0]!.addedText };
    const lines = new Map<number, string>();
    for (const f of sections) f.addedLines.forEach((n, k) => lines.has(n) || lines.set(n, f.addedText[k] ?? ''));
    const sorted = [...lines].sort((a, b) => a[0] - b[0]);
    return { path, addedLines: sorted.map(([n]) => n), addedText: sorted.map(([, t]) => t) };
  });
}

/** Changed source files and the excluded ones (test, not code), by class. */
export function splitByClass(model: DiffModel, classify: (path: string) => FileClass) {
  const source: AddedLines[] = [];
  const excluded: NonNullable<DiffcovArtefact['excluded_files']> = [];
  for (const f of countableFiles(model)) {
    const cls = classify(f.path);
    if (cls === 'source') source.push(f);
    else excluded.push({ path: f.path, class: cls, added_lines: f.addedLines.length });
  }
  excluded.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { source, excluded };
}

/** The changed files split by class. */
export type ClassSplit = ReturnType<typeof splitByClass>;

/** Coverage pragmas on the added lines of changed source files. */
export function pragmasOf(split: ClassSplit): PragmaHit[] {
  return split.source.flatMap((f) => findPragmas(f.path, f.addedLines, f.addedText));
}

/** Measure the changed files against merged report coverage (`byPath`: changed path → what the reports say). */
export function measure({ source, excluded }: ClassSplit, byPath: ReadonlyMap<string, FileCoverage>): Measured {
  const files: DiffcovArtefact['files'] = [];
  const unmatched: string[] = [];
  let covered = 0;
  let uncovered = 0;
  for (const f of [...source].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const cov = byPath.get(f.path) ?? null;
    if (cov === null) unmatched.push(f.path);
    const c = countFile(f, cov?.lines ?? null);
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
  };
}
