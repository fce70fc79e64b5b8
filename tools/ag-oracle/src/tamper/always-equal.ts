/**
 * Equality that always holds: an added comparison hook whose whole answer is a constant
 * "equal" (`equals: () => true`, `def __eq__(self, other): return True`, a Proxy whose every
 * property is such a function). Tests that compare through it pass whatever the code computes
 * (catalogue A11, "AlwaysEqual"). Read on added lines of any JS/TS or Python file, source or
 * test; comment lines carry none.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import type { TamperFinding } from './finding.js';
import { isCommentLine } from './markers.js';
import { testLanguage } from './test-files.js';

/** Names of JS comparison hooks and matchers. */
const JS_HOOK = String.raw`(?:equals?|isEqual|eq|asymmetricMatch|compareTo)`;
/** The parameters of an arrow function: `(a, b)`, `()`, or one bare name. */
const ARROW = String.raw`(?:\([^()]*\)|[\w$]+)`;
/** The parameters of a function or method. */
const PARAMS = String.raw`\([^()]*\)`;
/** An optional TypeScript return type after the parameters (no spaces inside: keeps matching linear). */
const RET = String.raw`(?:\s*:\s*[\w$.<>\[\]|]+)?`;
/** The constant answer "equal" in JS. */
const JS_TRUE = String.raw`(?:true|!0|!!1)`;

// Every pattern is built so that adjacent repeats match disjoint characters: a diff line is
// the patch author's, and a pattern that backtracks over it would hang the scan.
const JS_ONE_LINE: readonly RegExp[] = [
  // equals: () => true · equals = (a) => true · equals: function (o) { return true }
  new RegExp(
    String.raw`(?<![\w$])${JS_HOOK}\s*[:=]\s*(?:async\s+)?(?:function\b\s*(?:[\w$]+\s*)?${PARAMS}${RET}\s*\{\s*return\s+${JS_TRUE}\b|${ARROW}${RET}\s*=>\s*(?:\{\s*return\s+|\(\s*)?${JS_TRUE}\b)`,
  ),
  // equals() { return true } (method shorthand, class method)
  new RegExp(String.raw`(?<![\w$.])${JS_HOOK}\s*${PARAMS}${RET}\s*\{\s*return\s+${JS_TRUE}\b`),
  // new Proxy(x, { get: () => () => true }) or get(t, p) { return () => true }: every property is an always-equal function
  new RegExp(
    String.raw`(?<![\w$.])get\s*(?::\s*${ARROW}\s*=>\s*|${PARAMS}\s*\{\s*return\s+)${ARROW}\s*=>\s*${JS_TRUE}\b`,
  ),
];
/** A JS hook header whose body starts on the next line. */
const JS_HEADER = new RegExp(
  String.raw`(?<![\w$.])${JS_HOOK}\s*(?:[:=]\s*(?:async\s+)?(?:function\b\s*(?:[\w$]+\s*)?${PARAMS}|${ARROW})${RET}\s*(?:=>\s*)?|${PARAMS}${RET}\s*)\{\s*$`,
);
const JS_RETURN_TRUE = new RegExp(String.raw`^\s*return\s+${JS_TRUE}\s*(?:;\s*)?$`);

const PY_ONE_LINE: readonly RegExp[] = [
  // def __eq__(self, other): return True · def __ne__(self, other): return False
  /\bdef\s+__eq__\s*\([^)]*\)\s*(?:->\s*[\w.]+\s*)?:\s*return\s+True\b/,
  /\bdef\s+__ne__\s*\([^)]*\)\s*(?:->\s*[\w.]+\s*)?:\s*return\s+False\b/,
  // __eq__ = lambda *a: True
  /\b__eq__\s*=\s*lambda\b[^:]*:\s*True\b/,
  /\b__ne__\s*=\s*lambda\b[^:]*:\s*False\b/,
];
const PY_HEADER = /\bdef\s+(__eq__|__ne__)\s*\([^)]*\)\s*(?:->\s*[\w.]+\s*)?:\s*$/;

/** True when the added line after `i` is on the next line number and returns the constant. */
function nextLineReturns(file: ChangedFile, i: number, body: RegExp): boolean {
  const next = file.addedText[i + 1];
  return next !== undefined && file.addedLines[i + 1] === (file.addedLines[i] ?? -2) + 1 && body.test(next);
}

/** The always-equal hooks added to one changed file, one finding per line. */
export function alwaysEqualFindings(file: ChangedFile): TamperFinding[] {
  const lang = testLanguage(file.path);
  if (lang === null || file.status === 'deleted') return [];
  const findings: TamperFinding[] = [];
  file.addedText.forEach((text, i) => {
    if (isCommentLine(text, lang)) return;
    let hit: boolean;
    if (lang === 'js')
      hit =
        JS_ONE_LINE.some((re) => re.test(text)) || (JS_HEADER.test(text) && nextLineReturns(file, i, JS_RETURN_TRUE));
    else {
      const header = PY_HEADER.exec(text);
      const constant = header?.[1] === '__ne__' ? /^\s*return\s+False\s*$/ : /^\s*return\s+True\s*$/;
      hit = PY_ONE_LINE.some((re) => re.test(text)) || (header !== null && nextLineReturns(file, i, constant));
    }
    if (!hit) return;
    findings.push({
      kind: 'always_equal',
      path: file.path,
      line: file.addedLines[i] ?? null,
      detail: 'a comparison that holds whatever is compared was added',
    });
  });
  return findings;
}
