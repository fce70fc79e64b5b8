/**
 * Put every kept report entry under the changed file it belongs to, and merge several
 * reports: a line is executable when any report lists it, covered when any report ran it
 * (whole: a line every report ran only in part stays in part); excluded when any report
 * excluded it.
 * @module
 */
import { mergeRun, type ReportData, type ReportEntry, type LineHits } from '../reports/types.js';
import type { MatchRule, PathMatcher } from '../paths/match.js';

/** What the reports say of one changed file. */
export interface FileCoverage {
  readonly lines: LineHits;
  /** Lines with hits > 0 that every report ran only in part (lcov branch and function records); absent: none. */
  readonly partial?: ReadonlySet<number>;
  /** Lines a report says it excluded from measurement (coverage.py's `excluded_lines`); absent: none. */
  readonly excluded?: ReadonlySet<number>;
  /** The report entries merged into it, sorted. */
  readonly reportPaths: readonly string[];
}

/** A problem the matcher found; recorded as a fault, the files concerned stay unmatched. */
export interface MatchFault {
  readonly code: 'AMBIGUOUS_REPORT_PATH';
  readonly message: string;
}

const RANK: Record<MatchRule, number> = { exact: 0, report_longer: 1, report_shorter: 2 };

/** Changed path → merged coverage, plus the ambiguities met. */
export function indexReports(
  reports: readonly ReportData[],
  matcher: PathMatcher,
): { byPath: Map<string, FileCoverage>; faults: MatchFault[] } {
  const faults: MatchFault[] = [];
  const candidates = new Map<string, { key: string; rule: MatchRule; entry: ReportEntry }[]>();
  for (const report of reports) {
    for (const [key, entry] of report.files) {
      const a = matcher.assign(entry.path);
      if (a === null) continue;
      if ('ambiguous' in a) {
        faults.push({
          code: 'AMBIGUOUS_REPORT_PATH',
          message: `report entry ${key} could be any of ${a.ambiguous.join(', ')}; it was not used (give --root)`,
        });
        continue;
      }
      const list = candidates.get(a.path) ?? [];
      list.push({ key, rule: a.rule, entry });
      candidates.set(a.path, list);
    }
  }
  const byPath = new Map<string, FileCoverage>();
  for (const [path, list] of candidates) {
    const best = Math.min(...list.map((c) => RANK[c.rule]));
    const chosen = list.filter((c) => RANK[c.rule] === best);
    const keys = [...new Set(chosen.map((c) => c.key))].sort();
    if (best > 0 && keys.length > 1) {
      faults.push({
        code: 'AMBIGUOUS_REPORT_PATH',
        message: `changed file ${path} matches several report entries (${keys.join(', ')}); none was used (give --root)`,
      });
      continue;
    }
    const merged = { lines: new Map() as LineHits, partial: new Set<number>() };
    const excluded = new Set<number>();
    for (const c of chosen) {
      mergeRun(merged, c.entry.lines, c.entry.partial);
      for (const line of c.entry.excluded ?? []) excluded.add(line);
    }
    byPath.set(path, { lines: merged.lines, partial: merged.partial, excluded, reportPaths: keys });
  }
  return { byPath, faults };
}
