/**
 * Revert mutants: for every hunk of the diff (as `git diff -U0` splits them: a run of removed
 * and added lines), the baseline's code put back on the changed lines: the hunk's removed lines
 * replacing its added lines, or, for a pure deletion, the deleted lines put back. The diff
 * carries the old lines, so no baseline checkout is needed. A revert is judged exactly as a
 * mutant is and never counted: when it survives, no test tells the change from no change.
 * A hunk whose revert leaves the code as it is (comments, layout, docstrings, types) gets none,
 * as does a hunk that only adds whole top-level statements, one that only deletes dead code
 * (dead-definitions.ts) or only follows a moved file's new name (moved-imports.ts), and every
 * hunk of a new file;
 * one whose revert alone does not parse is reverted together with the hunks after it until the
 * text parses (a `try {` added in one hunk and its `}` in another); one whose revert loses a
 * top-level name both sides define (a class header in one hunk, its body in another) is widened
 * over the hunks around it, the narrowest run that keeps every such name and parses.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Revert } from '@adversary-gate/schemas';
import type { MutantVerdict } from './exec/mutant-run.js';
import { hunkHeader, revertEdit, type Hunk, type RevertCheck } from './hunks.js';
import { judgedFields } from './judged-record.js';
import { lineStarts, shorten, type CanarySpot, type Site } from './engines/site.js';
import { addsOneGuard } from './added-guard.js';
import { languageOf } from './changes.js';
import { narrowedRevert } from './revert-narrow.js';
import { keepsSharedNames } from './top-level-names.js';

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
 * stillborn revert). `check` judges reverted texts in bulk; `dead` tells a hunk whose revert
 * puts back nothing a test could tell: one that only deletes dead code (dead-definitions.ts),
 * or only follows a moved file's new name (moved-imports.ts).
 */
export async function revertSites(
  file: string,
  text: string,
  hunks: readonly Hunk[],
  check: (texts: readonly string[]) => Promise<readonly RevertCheck[]>,
  spots: readonly CanarySpot[] = [],
  dead: (hunk: Hunk) => boolean = () => false,
): Promise<Site[]> {
  const apply = (from: number, to: number) => {
    const e = revertEdit(text, hunks, from, to);
    return { edit: e, text: text.slice(0, e.start) + e.replacement + text.slice(e.end) };
  };
  const singles = await check(hunks.map((_, k) => apply(k, k).text));
  const language = languageOf(file);
  const whole = language === null ? null : keepsSharedNames(text, apply(0, hunks.length - 1).text, language);
  const out: Site[] = [];
  for (let k = 0; k < hunks.length;) {
    if (addsTopLevel(text, hunks[k]!) || dead(hunks[k]!)) {
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
    let from = k;
    if (verdict.parses && whole !== null && !whole(apply(k, to).text)) {
      const widened = await wholeWindow(hunks.length, k, to, (j, t) => apply(j, t).text, whole, check);
      if (widened !== null) ({ from, to, verdict } = widened);
    }
    const guard = from === to && language !== null && addsOneGuard(text, hunks[from]!, language);
    if (!verdict.same)
      out.push(revertSite(file, text, hunks, from, to, apply(from, to).edit, verdict.parses, spots, guard));
    k = to + 1;
  }
  return out;
}

/** Widest run of hunks a widened revert spans. */
const MAX_WINDOW = 12;

/**
 * The narrowest run of hunks `[from, to]` around `[k, last]` whose revert keeps every shared
 * top-level name and parses (the narrowest first, then the one reaching back least); null when
 * none within {@link MAX_WINDOW} does.
 */
async function wholeWindow(
  count: number,
  k: number,
  last: number,
  textOf: (from: number, to: number) => string,
  whole: (text: string) => boolean,
  check: (texts: readonly string[]) => Promise<readonly RevertCheck[]>,
): Promise<{ from: number; to: number; verdict: RevertCheck } | null> {
  const windows: { from: number; to: number; text: string }[] = [];
  for (let from = k; from >= 0 && last - from < MAX_WINDOW; from--)
    for (let to = last; to < count && to - from < MAX_WINDOW; to++) {
      if (from === k && to === last) continue;
      const text = textOf(from, to);
      if (whole(text)) windows.push({ from, to, text });
    }
  windows.sort((a, b) => a.to - a.from - (b.to - b.from) || b.from - a.from);
  const verdicts = await check(windows.map((w) => w.text));
  const i = verdicts.findIndex((v) => v.parses);
  return i < 0 ? null : { from: windows[i]!.from, to: windows[i]!.to, verdict: verdicts[i]! };
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
  addedGuard = false,
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
      ...(addedGuard ? { addedGuard: true } : {}),
    },
  };
}

/** A revert's stable id: file and hunk. */
function revertId(site: Site): string {
  const scope = site.revert!.scope === 'file' ? '\0file' : '';
  return `r${createHash('sha256').update(`revert\0${site.file}\0${site.revert!.header}${scope}`).digest('hex').slice(0, 16)}`;
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
    ...(h.scope === 'file' ? { scope: 'file' as const } : {}),
    ...(h.addedGuard === true ? { added_guard: true as const } : {}),
    ...(verdict?.equivalence !== undefined ? { equivalence: verdict.equivalence } : {}),
    ...judgedFields(verdict),
  };
}
