/**
 * The whole-file revert: every hunk revert of one file applied at once (the patch's code in
 * that file put back to the baseline's, new definitions kept as each hunk's revert keeps them),
 * judged as one more revert mutant. The file's part of "the patch's tests against the
 * baseline's source" (fail-to-pass): hunks that only compensate each other (a price one cent up,
 * a total one cent down) each die alone, by the tests that pin their sum, while together they
 * change nothing and the test the patch adds passes on the baseline's code as well. One per
 * file with at least two hunk reverts that compile; its tests are those of every hunk.
 * @module
 */
import { shorten, type Site } from './engines/site.js';
import { hunkHeader, type Hunk, type RevertCheck } from './hunks.js';

/**
 * The whole-file revert of `file` (patch text `text`) from its hunk reverts `singles` (one
 * inside a wider one counts as that one), or null: fewer than two compile, two overlap in part,
 * or together they do not parse or leave the code as it is.
 */
export async function wholeFileRevert(
  file: string,
  text: string,
  singles: readonly Site[],
  check: (texts: readonly string[]) => Promise<readonly RevertCheck[]>,
): Promise<Site | null> {
  const sorted = singles
    .filter((s) => s.parses && s.revert !== undefined)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  // A revert widened over its neighbours holds theirs: the widest stands for them.
  const parts: Site[] = [];
  for (const s of sorted) {
    const prev = parts.at(-1);
    if (prev !== undefined && s.end <= prev.end) continue;
    if (prev !== undefined && s.start < prev.end) return null;
    parts.push(s);
  }
  if (parts.length < 2) return null;
  const first = parts[0]!;
  const last = parts.at(-1)!;
  let replacement = '';
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) replacement += text.slice(parts[i - 1]!.end, parts[i]!.start);
    replacement += parts[i]!.replacement;
  }
  const [verdict] = await check([text.slice(0, first.start) + replacement + text.slice(last.end)]);
  if (verdict === undefined || !verdict.parses || verdict.same) return null;
  const a = first.revert!;
  const b = last.revert!;
  const span = (r: typeof a): Hunk => ({
    oldStart: r.oldStart,
    oldLines: r.oldLines,
    newStart: r.newStart,
    newLines: r.newLines,
    removed: [],
  });
  return {
    ...first,
    end: last.end,
    operator: 'Revert',
    original: shorten(text.slice(first.start, last.end)),
    replacement,
    parses: true,
    ...(first.coverLines !== undefined && last.coverLines !== undefined
      ? { coverLines: [first.coverLines[0], last.coverLines[1]] as const }
      : {}),
    function: null,
    revert: {
      header: hunkHeader(span(a), span(b)),
      oldStart: a.oldStart,
      oldLines: b.oldStart + b.oldLines - a.oldStart,
      newStart: a.newStart,
      newLines: b.newStart + b.newLines - a.newStart,
      text: replacement,
      scope: 'file',
      parts: parts.map((p) => ({
        start: p.start,
        ...(p.coverLines !== undefined ? { coverLines: p.coverLines } : {}),
      })),
    },
  };
}
