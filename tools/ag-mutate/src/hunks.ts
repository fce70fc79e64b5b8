/**
 * The hunks of a changed file as `git diff -U0` splits them (a run of removed and added lines),
 * their git headers, and the text edit that puts a run of them back to the baseline's lines.
 * The diff carries the old lines, so no baseline checkout is needed.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import type { Language } from './changes.js';
import { lineStarts } from './engines/site.js';

/** One hunk: old-side and new-side first line (1-based) and line count, as the lines are (not git's header numbers). */
export interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** The removed lines' text. */
  readonly removed: readonly string[];
}

/** The hunks of one file with no context (`-U0`), from its added and removed line numbers. */
export function hunksOf(file: Pick<ChangedFile, 'addedLines' | 'deletedLines' | 'deletedText'>): Hunk[] {
  const del = file.deletedLines;
  const add = file.addedLines;
  const out: Hunk[] = [];
  let oldLine = 1;
  let newLine = 1;
  let i = 0;
  let j = 0;
  while (i < del.length || j < add.length) {
    const skip = Math.min(
      i < del.length ? del[i]! - oldLine : Number.POSITIVE_INFINITY,
      j < add.length ? add[j]! - newLine : Number.POSITIVE_INFINITY,
    );
    oldLine += skip;
    newLine += skip;
    const oldStart = oldLine;
    const newStart = newLine;
    const first = i;
    while (i < del.length && del[i] === oldLine) {
      i++;
      oldLine++;
    }
    while (j < add.length && add[j] === newLine) {
      j++;
      newLine++;
    }
    // Line numbers out of order: no hunk to make of them (a diff model never gives these).
    if (i === first && newLine === newStart) break;
    out.push({
      oldStart,
      oldLines: oldLine - oldStart,
      newStart,
      newLines: newLine - newStart,
      removed: file.deletedText.slice(first, i),
    });
  }
  return out;
}

/** git's header of a run of hunks: `@@ -a,b +c,d @@` (a zero count names the line before). */
export function hunkHeader(first: Hunk, last: Hunk): string {
  const oldLines = last.oldStart + last.oldLines - first.oldStart;
  const newLines = last.newStart + last.newLines - first.newStart;
  const side = (start: number, n: number) => `${n === 0 ? start - 1 : start}${n === 1 ? '' : `,${n}`}`;
  return `@@ -${side(first.oldStart, oldLines)} +${side(first.newStart, newLines)} @@`;
}

/** The revert of hunks `from..to` (inclusive) of `text`: the span replaced and the baseline text put back. */
export function revertEdit(
  text: string,
  hunks: readonly Hunk[],
  from: number,
  to: number,
): { start: number; end: number; replacement: string } {
  const starts = lineStarts(text);
  const lineCount = text.endsWith('\n') ? starts.length - 1 : starts.length;
  const at = (line: number) => (line - 1 < starts.length ? starts[line - 1]! : text.length);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const newLine = (n: number) => text.slice(at(n), n < starts.length ? at(n + 1) : text.length).replace(/\r?\n$/, '');
  const first = hunks[from]!;
  const last = hunks[to]!;
  const lines: string[] = [];
  for (let k = from; k <= to; k++) {
    const h = hunks[k]!;
    if (k > from) {
      const prev = hunks[k - 1]!;
      for (let n = prev.newStart + prev.newLines; n < h.newStart; n++) lines.push(newLine(n));
    }
    lines.push(...h.removed);
  }
  const start = at(first.newStart);
  const endLine = last.newStart + last.newLines;
  const end = endLine > lineCount ? text.length : at(endLine);
  let replacement = lines.map((l) => l + eol).join('');
  if (end === text.length && !text.endsWith('\n') && replacement !== '') {
    replacement = replacement.slice(0, -eol.length);
    if (start === text.length && text !== '') replacement = eol + replacement;
  }
  return { start, end, replacement };
}

/** What the engine says of a reverted text: does it parse, and is its code the patch's own? */
export interface RevertCheck {
  readonly parses: boolean;
  readonly same: boolean;
}

/** The width of a line's leading blanks. */
export function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)![0].length;
}

/** True for a line that holds code: not blank, not a comment alone. */
export function isCodeLine(line: string | undefined, language: Language): boolean {
  return line !== undefined && line.trim() !== '' && !(language === 'python' ? /^\s*#/ : /^\s*\/\//).test(line);
}

/** The first code line of `lines` from line `from` (1-based) on, walking by `step` (1: down, -1: up); null when none. */
export function codeLineFrom(lines: readonly string[], from: number, step: 1 | -1, language: Language): string | null {
  for (let n = from; n >= 1 && n <= lines.length; n += step)
    if (isCodeLine(lines[n - 1], language)) return lines[n - 1]!;
  return null;
}
