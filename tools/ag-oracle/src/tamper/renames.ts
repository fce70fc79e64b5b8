/**
 * Identifier renames a patch makes in its source: a removed source line and an added one that
 * are the same tokens but for identifiers (`export function oldName(a)` became
 * `export function newName(a)`). A test line changed only by those renames (the call sites of
 * a rename refactor) edits no expectation: the same values are still expected of the same code.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';

const TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|\S/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Lines of one file compared pairwise at most: a huge rewrite is no rename refactor. */
const MAX_PAIRS = 40_000;

function tokens(line: string): string[] {
  return line.match(TOKEN) ?? [];
}

/**
 * The identifier pairs (`old\0new`) that turn `before` into `after`, or null when the two
 * lines differ in anything else (a value, an operator, a token more or less) or not at all.
 */
export function renamesBetween(before: string, after: string): string[] | null {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length !== b.length) return null;
  const pairs: string[] = [];
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (!IDENTIFIER.test(a[i]!) || !IDENTIFIER.test(b[i]!)) return null;
    pairs.push(`${a[i]}\0${b[i]}`);
  }
  return pairs.length === 0 ? null : pairs;
}

/** Every identifier rename the patch's changed non-test files show, as `old\0new`. */
export function sourceRenames(files: readonly ChangedFile[], isTestFile: (path: string) => boolean): Set<string> {
  const renames = new Set<string>();
  for (const f of files) {
    if (f.binary || isTestFile(f.path) || f.deletedText.length * f.addedText.length > MAX_PAIRS) continue;
    for (const before of f.deletedText)
      for (const after of f.addedText) for (const pair of renamesBetween(before, after) ?? []) renames.add(pair);
  }
  return renames;
}

/** True when `after` is `before` with only identifiers renamed, each a rename the source shows. */
export function onlyRenamed(before: string, after: string, renames: ReadonlySet<string>): boolean {
  const pairs = renamesBetween(before, after);
  return pairs !== null && pairs.every((p) => renames.has(p));
}
