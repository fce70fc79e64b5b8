/**
 * The counting rule for one changed file: a line the report knows and ran is covered,
 * knows and did not run is uncovered, does not know is non-executable. A file the report
 * does not know at all: every added line that is code (not blank, not only a comment) is
 * uncovered. Two overrides, both only ever taking coverage away:
 *
 * - a line a coverage-ignore pragma reaches (`pragma-scope.ts`), or that the report says it
 *   excluded (coverage.py's `excluded_lines`), is never covered: uncovered when it is code,
 *   whatever the report says; a blank or comment line stays as the report has it, except
 *   that "run" becomes non-executable;
 * - a line the report ran only in part (lcov: a never-run branch block or never-called
 *   function begins on it, `reports/lcov-record.ts`) is uncovered, unless its text holds no
 *   code of its own (`}`, `} else {`, `} finally {`: V8 starts the empty continuation after
 *   a `try … finally` whose blocks all return on such a line, in fully run code).
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import type { LineHits } from '../reports/types.js';
import { contextFromDiff, type FileContext } from './file-context.js';
import { codeLines, structuralOnly } from './source-lines.js';

/** A changed file's added lines, split three ways, and why lines the report calls run were not counted so. */
export interface FileCount {
  readonly covered: number[];
  readonly uncovered: number[];
  readonly nonExecutable: number[];
  /** Code lines under a pragma, by the index of its scope in the context's `scopes`. */
  readonly ignored: Map<number, number[]>;
  /** Code lines the report excluded itself (coverage.py's `excluded_lines`). */
  readonly excludedByReport: number[];
  /** Lines the report calls run where its branch or function records say part of them never ran. */
  readonly partlyRun: number[];
}

/** What the reports say of a file beside its line hits. */
export interface ReportFacts {
  readonly partial?: ReadonlySet<number>;
  readonly excluded?: ReadonlySet<number>;
}

/**
 * Split `file`'s added lines by what `hits` (null: the file is absent from every report)
 * says, with the overrides above (`facts` from the reports, `context` from the file's text;
 * without a context, the added lines' own text).
 */
export function countFile(
  file: Pick<ChangedFile, 'path' | 'addedLines' | 'addedText'>,
  hits: LineHits | null,
  facts: ReportFacts = {},
  context: FileContext = contextFromDiff(file),
): FileCount {
  const out: FileCount = {
    covered: [],
    uncovered: [],
    nonExecutable: [],
    ignored: new Map(),
    excludedByReport: [],
    partlyRun: [],
  };
  const code =
    context.stripped.length === file.addedLines.length
      ? context.stripped.map((s) => s.trim() !== '')
      : codeLines(file.path, file.addedLines, file.addedText);
  file.addedLines.forEach((line, k) => {
    const h = hits === null ? undefined : hits.get(line);
    const under = context.scopes.flatMap((s, i) => (s.from <= line && line <= s.to ? [i] : []));
    const excluded = facts.excluded?.has(line) === true;
    if (under.length > 0 || excluded) {
      if (code[k]) {
        out.uncovered.push(line);
        for (const i of under) {
          const list = out.ignored.get(i);
          if (list === undefined) out.ignored.set(i, [line]);
          else list.push(line);
        }
        if (excluded) out.excludedByReport.push(line);
      } else if (h === 0) out.uncovered.push(line);
      else out.nonExecutable.push(line);
      return;
    }
    if (hits === null) (code[k] ? out.uncovered : out.nonExecutable).push(line);
    else if (h === undefined) out.nonExecutable.push(line);
    else if (h === 0) out.uncovered.push(line);
    else if (facts.partial?.has(line) === true && !structuralOnly(context.stripped[k] ?? '')) {
      out.uncovered.push(line);
      out.partlyRun.push(line);
    } else out.covered.push(line);
  });
  return out;
}
