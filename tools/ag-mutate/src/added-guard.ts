/**
 * A hunk that only adds one `if` statement (no `else`), and nothing beside it: a fast path or
 * an early return. Its revert is the same code as the mutant that makes the `if`'s condition
 * false, so where the differential check judged that mutant equivalent, and the tests run the
 * `if`'s body, the revert's survival says only that the new `if` changes no answer: ag-decide's
 * revert rule reads it so (rules/reverts.ts). Recorded on the revert as `added_guard`.
 * @module
 */
import type { Language } from './changes.js';
import { codeLineFrom, indentOf, isCodeLine, type Hunk } from './hunks.js';

/** True when `hunk` (of the patch's `text`) adds exactly one `if` statement with no `else`, inside a block. */
export function addsOneGuard(text: string, hunk: Hunk, language: Language): boolean {
  if (hunk.removed.length > 0 || hunk.newLines === 0) return false;
  const lines = text.split('\n');
  const added = lines
    .slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines)
    .filter((l) => isCodeLine(l, language));
  const head = added[0];
  if (head === undefined || !(language === 'python' ? /^\s*if\b[^#]*:/ : /^\s*if\s*\(/).test(head)) return false;
  const indent = indentOf(head);
  if (indent === 0) return false;
  let depth = 0;
  for (const [i, line] of added.entries()) {
    if (i > 0 && language === 'python' && indentOf(line) <= indent) return false;
    if (language === 'js') {
      if (i > 0 && depth === 0) return false;
      depth += (line.match(/[{(]/g) ?? []).length - (line.match(/[})]/g) ?? []).length;
    }
  }
  if (depth !== 0) return false;
  const after = codeLineFrom(lines, hunk.newStart + hunk.newLines, 1, language);
  return after === null || (indentOf(after) <= indent && !/^\s*(else|elif)\b/.test(after));
}
