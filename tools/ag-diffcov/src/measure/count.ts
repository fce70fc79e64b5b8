/**
 * The counting rule for one changed file: a line the report knows and ran is covered,
 * knows and did not run is uncovered, does not know is non-executable. A file the report
 * does not know at all: every added line that is code (not blank, not only a comment) is
 * uncovered.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import type { LineHits } from '../reports/types.js';
import { codeLines } from './source-lines.js';

/** A changed file's added lines, split three ways. */
export interface FileCount {
  readonly covered: number[];
  readonly uncovered: number[];
  readonly nonExecutable: number[];
}

/** Split `file`'s added lines by what `hits` (null: the file is absent from every report) says. */
export function countFile(
  file: Pick<ChangedFile, 'path' | 'addedLines' | 'addedText'>,
  hits: LineHits | null,
): FileCount {
  const covered: number[] = [];
  const uncovered: number[] = [];
  const nonExecutable: number[] = [];
  if (hits === null) {
    const code = codeLines(file.path, file.addedLines, file.addedText);
    file.addedLines.forEach((line, k) => (code[k] ? uncovered : nonExecutable).push(line));
    return { covered, uncovered, nonExecutable };
  }
  for (const line of file.addedLines) {
    const h = hits.get(line);
    if (h === undefined) nonExecutable.push(line);
    else if (h > 0) covered.push(line);
    else uncovered.push(line);
  }
  return { covered, uncovered, nonExecutable };
}
