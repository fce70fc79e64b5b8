/**
 * Put every kept report entry under the changed file it belongs to, and merge several
 * reports: a line is executable when any report lists it, covered when any report ran it.
 * @module
 */
import type { ReportData, LineHits } from '../reports/types.js';
import type { MatchRule, PathMatcher } from '../paths/match.js';

/** What the reports say of one changed file. */
export interface FileCoverage {
  readonly lines: LineHits;
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
  const candidates = new Map<string, { key: string; rule: MatchRule; lines: LineHits }[]>();
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
      list.push({ key, rule: a.rule, lines: entry.lines });
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
    const lines: LineHits = new Map();
    for (const c of chosen) {
      for (const [line, hits] of c.lines) {
        const prev = lines.get(line);
        if (prev === undefined || hits > prev) lines.set(line, hits);
      }
    }
    byPath.set(path, { lines, reportPaths: keys });
  }
  return { byPath, faults };
}
