/**
 * Coverage-suppression pragmas on added lines: a patch that hides its own lines from the
 * coverage tool is suspect, so each one is listed (ag-decide holds on them).
 * @module
 */

/** The pragmas recognised, by the tool that honours them. */
export const PRAGMA_PATTERNS: readonly RegExp[] = [
  /\bc8\s+ignore\b/i, // c8
  /\bv8\s+ignore\b/i, // v8 / vitest
  /\bistanbul\s+ignore\b/i, // istanbul / nyc / jest
  /\bnode:coverage\s+(?:ignore|disable)\b/i, // node --test
  /#\s*pragma[:\s]?\s*no\s*(?:cover|branch)/i, // coverage.py (its default exclusion regex, and `no branch`)
  /\b(?:LCOV|GCOV|GCOVR)_EXCL_(?:LINE|START|STOP|BR_LINE|BR_START|BR_STOP)\b/, // lcov, gcovr
  /@codeCoverageIgnore/, // PHPUnit
  /\bcoverage\s*\(\s*off\s*\)/, // Rust #[coverage(off)]
  /\bcoverage:ignore(?:-line|-start|-end|-file)?\b/, // Dart
  /\bpragma:\s*no\s*cover\b/i,
];

/** Every pattern above needs one of these words: lines without any are not tried against each pattern. */
export const PRAGMA_WORDS = /ignore|disable|pragma|_EXCL_|coverage/i;

/** A pragma found on an added line. */
export interface PragmaHit {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

/** Added lines of one file that carry a coverage pragma (text trimmed, capped at 200 characters). */
export function findPragmas(path: string, lines: readonly number[], texts: readonly string[]): PragmaHit[] {
  const out: PragmaHit[] = [];
  for (let k = 0; k < lines.length; k++) {
    const text = texts[k] ?? '';
    if (PRAGMA_WORDS.test(text) && PRAGMA_PATTERNS.some((re) => re.test(text)))
      out.push({ path, line: lines[k]!, text: text.trim().slice(0, 200) });
  }
  return out;
}
