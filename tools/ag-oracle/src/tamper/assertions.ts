/**
 * Assertions as they appear on one source line: node:assert, chai (assert, expect,
 * should), jest/vitest `expect`, ava and tap `t.*`, pytest `assert`, unittest `self.assert*`.
 * @module
 */
import { isCommentLine } from './markers.js';

const T_METHODS =
  'is|not|deepEqual|notDeepEqual|like|unlike|true|false|truthy|falsy|throws|throwsAsync|notThrows|notThrowsAsync|regex|notRegex|snapshot|assert|pass|fail|ok|notOk|equal|notEqual|strictEqual|notStrictEqual|same|notSame|match|notMatch|rejects|resolves|plan';

const JS_ASSERTIONS: readonly RegExp[] = [
  /(?<![\w$.])assert(?:\s*\.\s*[\w$]+)*\s*\(/g,
  /(?<![\w$.])expect(?:\s*\.\s*[\w$]+)*\s*\(/g,
  /\.\s*should\b/g,
  new RegExp(`(?<![\\w$.])t\\s*\\.\\s*(?:${T_METHODS})\\s*\\(`, 'g'),
];

const PY_ASSERTIONS: readonly RegExp[] = [
  /^\s*assert\b/g,
  /\bself\s*\.\s*(?:assert|fail)\w*\s*\(/g,
  /\bpytest\s*\.\s*(?:raises|warns|fail)\s*\(/g,
  /(?<![\w.])(?:\w+\.)*assert_\w+\s*\(/g,
];

/** How many assertions a line holds (comment lines hold none). */
export function countAssertions(line: string, lang: 'js' | 'py'): number {
  if (isCommentLine(line, lang)) return 0;
  let n = 0;
  for (const re of lang === 'js' ? JS_ASSERTIONS : PY_ASSERTIONS) n += line.match(re)?.length ?? 0;
  return n;
}
