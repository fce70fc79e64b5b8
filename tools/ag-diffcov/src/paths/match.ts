/**
 * Which report entry belongs to which changed file. Explicit rules, most specific first:
 * 1. exact: the report path (made relative to `--root` when absolute and under it) equals the diff path;
 * 2. the diff path is a whole-segment suffix of a longer report path (absolute paths from
 *    another checkout, Go import paths, JaCoCo package paths); the longest such diff path wins;
 * 3. a relative report path is a whole-segment suffix of exactly one diff path (a report
 *    written relative to a sub-package).
 * A changed file claimed by two different report files at the same rule is ambiguous: it
 * matches nothing and the ambiguity is returned so the caller can record it.
 * @module
 */
import { underRoot, type ReportPath } from './normalise.js';

/** How a report entry was matched. */
export type MatchRule = 'exact' | 'report_longer' | 'report_shorter';

/** The matcher built from the diff's paths. */
export interface PathMatcher {
  /** True when a report entry could belong to some changed file (readers keep only these). */
  wants(p: ReportPath): boolean;
  /** The changed file a report entry belongs to, or null; `ambiguous` lists competing files. */
  assign(p: ReportPath): { path: string; rule: MatchRule } | { ambiguous: string[] } | null;
}

function suffixes(key: string): string[] {
  const out: string[] = [];
  let i = key.indexOf('/');
  while (i !== -1) {
    const s = key.slice(i + 1);
    if (s !== '') out.push(s);
    i = key.indexOf('/', i + 1);
  }
  return out;
}

/** Build a matcher over the changed files' paths, with `root` the normalised `--root` or null. */
export function makeMatcher(diffPaths: Iterable<string>, root: string | null): PathMatcher {
  const exact = new Set(diffPaths);
  const bySuffix = new Map<string, string[]>();
  for (const d of exact) {
    for (const s of suffixes(d)) {
      const list = bySuffix.get(s);
      if (list === undefined) bySuffix.set(s, [d]);
      else list.push(d);
    }
  }
  const relative = (p: ReportPath): string => (p.absolute ? (underRoot(p.key, root) ?? p.key) : p.key);
  const assign: PathMatcher['assign'] = (p) => {
    const rel = relative(p);
    if (exact.has(rel)) return { path: rel, rule: 'exact' };
    // Longest diff path that is a whole-segment suffix of the report path.
    for (const s of suffixes(rel)) if (exact.has(s)) return { path: s, rule: 'report_longer' };
    const owners = bySuffix.get(rel);
    if (owners === undefined || rel === '') return null;
    if (owners.length > 1) return { ambiguous: [...owners].sort() };
    return { path: owners[0]!, rule: 'report_shorter' };
  };
  return {
    wants: (p) => assign(p) !== null,
    assign,
  };
}
