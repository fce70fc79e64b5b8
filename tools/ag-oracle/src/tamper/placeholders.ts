/**
 * Placeholder tests: an assertion that cannot fail whatever the code does (`t.pass()`, an
 * assertion on constants such as `assert.ok(true)`, `expect(true).toBe(true)`,
 * `assert True`, a tautology such as `t.is(x, x)`), and a test whose body is empty. Reported
 * where the patch adds them or turns a test into one (the test's declaration or body is on
 * an added line).
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import { argumentText, isConstant, splitTopLevel } from './calls.js';
import type { TamperFinding } from './finding.js';
import { quoted } from './literals.js';
import { isCommentLine } from './markers.js';
import { emptyTests } from './test-bodies.js';
import { testLanguage } from './test-files.js';

/** Assertion methods that state nothing about a value (or fail on their own), never placeholders. */
const NOT_VALUE_CHECKS = new Set([
  'fail',
  'plan',
  'timeout',
  'log',
  'teardown',
  'throws',
  'throwsAsync',
  'notThrows',
  'notThrowsAsync',
  'doesNotThrow',
  'doesNotReject',
  'rejects',
  'snapshot',
  'skip',
  'todo',
  'end',
  'comment',
  'diagnostic',
  'assertRaises',
  'assertRaisesRegex',
  'assertWarns',
  'assertWarnsRegex',
  'assertLogs',
  'assertNoLogs',
  'failIf',
]);

const JS_CALL = /(?<![\w$.])(assert(?:\s*\.\s*[\w$]+)*|t\s*\.\s*[\w$]+|expect)\s*\(/g;
const PY_CALL = /\bself\s*\.\s*(assert\w*)\s*\(/g;

/**
 * A Python construction anywhere in an expression, `Money(150, 'EUR')`, `money.Money(…)` or
 * `hash(Money(…))` (a class by its capital, as PEP 8 names them): each side of `==` makes an
 * object of its own, so the comparison runs the class's `__eq__` or `__hash__` on two distinct
 * objects, the code under test, and is no value compared with itself.
 */
const PY_CONSTRUCTION = /(?:^|[^\w.])(?:[A-Za-z_]\w*\.)*[A-Z]\w*\(/;

/**
 * Why the arguments make the check vacuous, or null. `constructs`: a Python comparison, where
 * two equal constructions are two objects judged by their class's equality.
 */
function vacuous(args: readonly string[], constructs = false): string | null {
  if (args.length > 0 && args.every(isConstant)) return 'on constants';
  const [a, b] = args.map((x) => x.replace(/\s+/g, ''));
  if (args.length >= 2 && a === b && !(constructs && PY_CONSTRUCTION.test(a!))) return 'comparing a value with itself';
  return null;
}

function jsPlaceholder(line: string): string | null {
  if (/(?<![\w$.])t\s*\.\s*pass\s*\(/.test(line)) return '`t.pass()`: passes whatever the code does';
  for (const m of line.matchAll(JS_CALL)) {
    const head = m[1]!.replace(/\s+/g, '');
    const method = head.slice(head.lastIndexOf('.') + 1);
    if (head !== 'expect' && head !== 'assert' && NOT_VALUE_CHECKS.has(method)) continue;
    const args = argumentText(line, m.index + m[0].length - 1);
    if (args === null) continue;
    let values = splitTopLevel(args.text);
    if (head === 'expect') {
      if (!isConstant(values[0] ?? '')) {
        const rest = /^\s*(?:\.\s*(?:not|resolves|rejects)\s*)*\.\s*([\w$]+)\s*\(/.exec(line.slice(args.end));
        const matcher = rest === null ? null : argumentText(line, args.end + rest[0].length - 1);
        if (matcher === null) continue;
        values = [values[0] ?? '', splitTopLevel(matcher.text)[0] ?? ''];
      }
      values = values.slice(0, 2);
    } else if (
      /^(?:deepEqual|deepStrictEqual|equal|strictEqual|notEqual|notStrictEqual|notDeepEqual|notDeepStrictEqual|is|not|same|notSame|like|match)$/.test(
        method,
      )
    ) {
      values = values.slice(0, 2);
    } else {
      values = values.slice(0, 1);
    }
    const why = head === 'expect' && isConstant(values[0] ?? '') ? 'on constants' : vacuous(values);
    if (why !== null) return `assertion ${why}: ${quoted(line)}`;
  }
  return null;
}

function pyPlaceholder(line: string): string | null {
  const a = /^\s*assert\b\s*(.*)$/.exec(line);
  if (a !== null) {
    const parts = splitTopLevel(a[1]!.replace(/\s+#.*$/, ''));
    const expr = parts[0] ?? '';
    if (isConstant(expr)) return `assertion on constants: ${quoted(line)}`;
    const cmp = /^(.+?)\s*(==|!=|\bis\s+not\b|\bis\b|<=|>=)\s*(.+)$/.exec(expr);
    if (cmp !== null) {
      const why = vacuous([cmp[1]!, cmp[3]!], cmp[2] === '==' || cmp[2] === '!=');
      if (why !== null) return `assertion ${why}: ${quoted(line)}`;
    }
    return null;
  }
  for (const m of line.matchAll(PY_CALL)) {
    if (NOT_VALUE_CHECKS.has(m[1]!)) continue;
    const args = argumentText(line, m.index + m[0].length - 1);
    if (args === null) continue;
    const values = splitTopLevel(args.text).filter((v) => !/^\w+\s*=(?!=)/.test(v));
    const why = vacuous(
      /Equal|Is|In|Greater|Less|Almost|Count|Regex/.test(m[1]!) ? values.slice(0, 2) : values.slice(0, 1),
      /^assert(?:Not)?Equal$/.test(m[1]!),
    );
    if (why !== null) return `assertion ${why}: ${quoted(line)}`;
  }
  return null;
}

/** The vacuous assertion on one line (its description), or null; comment lines hold none. */
export function placeholderAssertion(line: string, lang: 'js' | 'py'): string | null {
  if (isCommentLine(line, lang)) return null;
  return lang === 'js' ? jsPlaceholder(line) : pyPlaceholder(line);
}

/**
 * Placeholder findings for one changed test file: vacuous assertions on added lines, and
 * tests of the patch-side text whose body is empty while their declaration or body was
 * added (`patchText` null: only the added lines are read).
 */
export function placeholderFindings(file: ChangedFile, patchText: string | null): TamperFinding[] {
  const lang = testLanguage(file.path);
  if (lang === null || file.status === 'deleted') return [];
  const findings: TamperFinding[] = [];
  file.addedText.forEach((text, i) => {
    const why = placeholderAssertion(text, lang);
    if (why !== null)
      findings.push({
        kind: 'placeholder_test',
        path: file.path,
        line: file.addedLines[i] ?? null,
        detail: `placeholder ${why}`,
      });
  });
  if (patchText !== null) {
    const added = new Set(file.addedLines);
    for (const t of emptyTests(patchText, lang)) {
      let touched = false;
      for (let n = t.first; n <= t.last && !touched; n++) touched = added.has(n);
      if (touched)
        findings.push({
          kind: 'placeholder_test',
          path: file.path,
          line: t.first,
          detail: `placeholder test with an empty body: ${t.name}`,
        });
    }
  }
  return findings;
}
