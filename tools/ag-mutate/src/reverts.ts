/**
 * Revert mutants: for every hunk of the diff (as `git diff -U0` splits them: a run of removed
 * and added lines), the baseline's code put back on the changed lines: the hunk's removed lines
 * replacing its added lines, or, for a pure deletion, the deleted lines put back. The diff
 * carries the old lines, so no baseline checkout is needed. A revert is judged exactly as a
 * mutant is and never counted: when it survives, no test tells the change from no change.
 * A hunk whose revert leaves the code as it is (comments, layout, docstrings, types) gets none,
 * as does a hunk that only adds whole top-level statements, and every hunk of a new file;
 * one whose revert alone does not parse is reverted together with the hunks after it until the
 * text parses (a `try {` added in one hunk and its `}` in another).
 * @module
 */
import { createHash } from 'node:crypto';
import type { ChangedFile } from '@adversary-gate/core';
import type { Revert } from '@adversary-gate/schemas';
import type { MutantVerdict } from './exec/mutant-run.js';
import { judgedFields } from './judged-record.js';
import { lineStarts, shorten, type CanarySpot, type Site } from './engines/site.js';

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

/**
 * The lines a Python tracer must see run for a revert: the replaced lines and the first code
 * line after them (a docstring, a comment or an `else:` never runs as a line of its own; a
 * deletion has no line), or, at the file's end, the last code line before them. A test that
 * runs more than the hunk only makes the revert run more tests.
 */
function coverLines(text: string, hunk: Hunk): readonly [number, number] {
  const lines = text.split('\n');
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  const code = (n: number) => {
    const t = (lines[n - 1] ?? '').trim();
    return t !== '' && !t.startsWith('#');
  };
  let after = hunk.newStart + hunk.newLines;
  while (after <= count && !code(after)) after++;
  if (after <= count) return [Math.min(hunk.newStart, after), after];
  let before = Math.min(hunk.newStart, count + 1) - 1;
  while (before > 1 && !code(before)) before--;
  return [Math.max(1, before), Math.max(1, before, Math.min(count, hunk.newStart + hunk.newLines - 1))];
}

/**
 * A hunk that only adds whole top-level statements (a new function, class, constant or import,
 * by indentation: its first line and the code line after it start at column 0): the baseline
 * had nothing there to put back, removing a new definition only breaks whatever imports it (in
 * Python a collection error, which is no kill), and the mutants of its lines judge it.
 */
export function addsTopLevel(text: string, hunk: Hunk): boolean {
  if (hunk.removed.length > 0 || hunk.newLines === 0) return false;
  const lines = text.split('\n');
  const blank = (n: number) => (lines[n - 1] ?? '').trim() === '';
  const atColumn0 = (n: number) => /^\S/.test(lines[n - 1] ?? '');
  let first = hunk.newStart;
  while (first < hunk.newStart + hunk.newLines && blank(first)) first++;
  if (first === hunk.newStart + hunk.newLines) return true;
  let after = hunk.newStart + hunk.newLines;
  while (after <= lines.length && blank(after)) after++;
  return atColumn0(first) && (after > lines.length || atColumn0(after));
}

/** A line that opens a top-level definition, and its name: at column 0, a function, class or declaration (JS), `def` or `class` (Python). */
const TOP_DEFINITION = {
  js: /^(?:export\s+(?:default\s+)?)?(?:async\s+)?(?:function\s*\*?|class|const|let|var)\s+([\w$]+)/,
  python: /^(?:async\s+def|def|class)\s+(\w+)/,
};

/**
 * The name a new top-level definition at line `n` (1-based) of `lines` gives, or null: none
 * opens there, or the hunk's removed lines define the same name (a definition changed, not
 * added: keeping it beside the one put back would define it twice). A Python decorator
 * opens the definition below it.
 */
function newDefinitionAt(
  lines: readonly string[],
  n: number,
  last: number,
  python: boolean,
  removed: readonly string[],
) {
  const opens = python ? TOP_DEFINITION.python : TOP_DEFINITION.js;
  let at = n;
  if (python) while (at < last && /^@/.test(lines[at - 1] ?? '')) at++;
  const name = opens.exec(lines[at - 1] ?? '')?.[1];
  if (name === undefined) return null;
  return removed.some((r) => opens.exec(r)?.[1] === name) ? null : name;
}

/** A line that starts a top-level statement: at column 0, not a closing bracket, a comment or blank. */
function startsStatement(line: string, python: boolean): boolean {
  return /^\S/.test(line) && !(python ? /^[#)\]}]/ : /^(?:[)\]}]|\/\/|\/\*|\*)/).test(line);
}

/**
 * Whether the added lines `from..to` (1-based, inclusive) of a hunk can stay as they are when
 * the rest of the hunk is put back: every top-level statement that starts among them is a
 * definition the hunk adds (a name its removed lines do not define), and at least one does.
 */
function keepsOnlyNewDefinitions(
  lines: readonly string[],
  from: number,
  to: number,
  python: boolean,
  removed: readonly string[],
): boolean {
  // A decorated definition starts at its first decorator: never keep it without them.
  if (python && /^@/.test(lines[from - 2] ?? '')) return false;
  let defined = 0;
  for (let n = from; n <= to; n++) {
    const line = lines[n - 1] ?? '';
    if (!startsStatement(line, python)) continue;
    if (newDefinitionAt(lines, n, to, python, removed) === null) return false;
    defined++;
    if (python) while (n < to && /^@/.test(lines[n - 1] ?? '')) n++; // on to the decorated definition
  }
  return defined > 0;
}

/**
 * The narrower reverts of a hunk that changes lines and also adds whole top-level definitions,
 * where git aligned them across each other: `return x;` → `return y;`, `}`, ``,
 * `function g() {`, … (the old `}` now closing `g`), or a new function before a changed
 * `module.exports` line. Putting the removed lines back on the whole hunk would delete the new
 * definition too, and the module would not even load: a kill that says nothing of the change.
 * Each candidate puts them back on part of the hunk and keeps the rest, which must hold only
 * new definitions: its last lines (the changed lines first), widest first, then its first
 * lines (the changed lines last), widest first. The first that parses is the revert (the
 * engine's check decides).
 */
export function narrowedHunks(file: string, text: string, hunk: Hunk): Hunk[] {
  if (hunk.newLines < 2) return [];
  const python = /\.pyw?$/.test(file);
  const lines = text.split('\n');
  const first = hunk.newStart;
  const last = hunk.newStart + hunk.newLines - 1;
  const out: Hunk[] = [];
  for (let k = hunk.newLines - 1; k >= 1; k--)
    if (keepsOnlyNewDefinitions(lines, first + k, last, python, hunk.removed)) out.push({ ...hunk, newLines: k });
  for (let j = 1; j < hunk.newLines; j++)
    if (
      startsStatement(lines[first + j - 1] ?? '', python) &&
      keepsOnlyNewDefinitions(lines, first, first + j - 1, python, hunk.removed)
    )
      out.push({ ...hunk, newStart: first + j, newLines: hunk.newLines - j });
  return out;
}

/** The innermost function of `spots` that holds `offset`, by name (null: none, or at module level). */
function functionAt(spots: readonly CanarySpot[], file: string, offset: number): string | null {
  let best: CanarySpot | undefined;
  for (const s of spots)
    if (
      s.file === file &&
      s.fnStart <= offset &&
      offset < s.fnEnd &&
      (!best || s.fnEnd - s.fnStart < best.fnEnd - best.fnStart)
    )
      best = s;
  return best?.function ?? null;
}

/**
 * The revert sites of one file: one per hunk whose revert changes the code, hunks merged
 * forward while a revert does not parse (a run to the file's end that never parses is one
 * stillborn revert). `check` judges reverted texts in bulk.
 */
export async function revertSites(
  file: string,
  text: string,
  hunks: readonly Hunk[],
  check: (texts: readonly string[]) => Promise<readonly RevertCheck[]>,
  spots: readonly CanarySpot[] = [],
): Promise<Site[]> {
  const apply = (from: number, to: number) => {
    const e = revertEdit(text, hunks, from, to);
    return { edit: e, text: text.slice(0, e.start) + e.replacement + text.slice(e.end) };
  };
  const singles = await check(hunks.map((_, k) => apply(k, k).text));
  const out: Site[] = [];
  for (let k = 0; k < hunks.length;) {
    if (addsTopLevel(text, hunks[k]!)) {
      k++;
      continue;
    }
    const narrowed = await narrowedRevert(file, text, hunks[k]!, check);
    if (narrowed !== null) {
      if (!narrowed.same) {
        const edit = revertEdit(text, [narrowed.hunk], 0, 0);
        out.push(revertSite(file, text, [narrowed.hunk], 0, 0, edit, true, spots));
      }
      k++;
      continue;
    }
    let to = k;
    let verdict = singles[k]!;
    while (!verdict.parses && to + 1 < hunks.length) {
      to++;
      verdict = (await check([apply(k, to).text]))[0]!;
    }
    if (!verdict.same) out.push(revertSite(file, text, hunks, k, to, apply(k, to).edit, verdict.parses, spots));
    k = to + 1;
  }
  return out;
}

/** The widest narrowed revert of `hunk` that parses (`same`: it leaves the code as it is), or null: none applies or parses. */
async function narrowedRevert(
  file: string,
  text: string,
  hunk: Hunk,
  check: (texts: readonly string[]) => Promise<readonly RevertCheck[]>,
): Promise<{ hunk: Hunk; same: boolean } | null> {
  const candidates = narrowedHunks(file, text, hunk);
  if (candidates.length === 0) return null;
  const texts = candidates.map((h) => {
    const e = revertEdit(text, [h], 0, 0);
    return text.slice(0, e.start) + e.replacement + text.slice(e.end);
  });
  const verdicts = await check(texts);
  const at = verdicts.findIndex((v) => v.parses);
  return at < 0 ? null : { hunk: candidates[at]!, same: verdicts[at]!.same };
}

function revertSite(
  file: string,
  text: string,
  hunks: readonly Hunk[],
  from: number,
  to: number,
  edit: { start: number; end: number; replacement: string },
  parses: boolean,
  spots: readonly CanarySpot[],
): Site {
  const first = hunks[from]!;
  const last = hunks[to]!;
  const starts = lineStarts(text);
  const line = Math.max(1, Math.min(first.newStart, text.endsWith('\n') ? starts.length - 1 : starts.length));
  const merged: Hunk = {
    oldStart: first.oldStart,
    oldLines: last.oldStart + last.oldLines - first.oldStart,
    newStart: first.newStart,
    newLines: last.newStart + last.newLines - first.newStart,
    removed: [],
  };
  return {
    file,
    line,
    column: 1,
    start: edit.start,
    end: edit.end,
    operator: 'Revert',
    rank: 0,
    original: shorten(text.slice(edit.start, edit.end)),
    replacement: edit.replacement,
    parses,
    coverLines: coverLines(text, merged),
    // A deletion's place is the end of the line before it: inside the function it was deleted from.
    function: functionAt(spots, file, merged.newLines > 0 ? edit.start : Math.max(0, edit.start - 1)),
    revert: {
      header: hunkHeader(first, last),
      oldStart: merged.oldStart,
      oldLines: merged.oldLines,
      newStart: merged.newStart,
      newLines: merged.newLines,
      text: edit.replacement,
    },
  };
}

/** A revert's stable id: file and hunk. */
function revertId(site: Site): string {
  return `r${createHash('sha256').update(`revert\0${site.file}\0${site.revert!.header}`).digest('hex').slice(0, 16)}`;
}

/** A revert as mutation.json records it (`verdict` undefined: not run, the budget left it out). */
export function revertRecord(site: Site, verdict: MutantVerdict | undefined): Revert {
  const h = site.revert!;
  return {
    id: revertId(site),
    file: site.file,
    hunk: h.header,
    old_start: h.oldStart,
    old_lines: h.oldLines,
    new_start: h.newStart,
    new_lines: h.newLines,
    original: site.original,
    replacement: shorten(h.text),
    function: site.function ?? null,
    ...judgedFields(verdict),
  };
}

/** How a revert is named in a message: file, hunk, and the function it is in. */
export function revertName(r: Pick<Revert, 'file' | 'hunk' | 'function'>): string {
  return `${r.file} ${r.hunk}${r.function ? ` in ${r.function}()` : ''}`;
}
