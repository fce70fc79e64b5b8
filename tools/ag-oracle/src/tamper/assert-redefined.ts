/**
 * Assertions redefined: an assertion function or matcher replaced by assignment
 * (`assert.equal = …`, `TestCase.assertEqual = …`), and a function named like an
 * assertion (`assertX`, `expectX`, `equal`, `ok`…) added with a body that can never fail
 * (no `throw`/`raise`, no assertion inside). Tests importing such a helper pass whatever
 * the code does. Read from the added lines and, for a helper's body, the patch-side text.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import { countAssertions } from './assertions.js';
import { argumentText } from './calls.js';
import type { TamperFinding } from './finding.js';
import { isCommentLine } from './markers.js';
import { testLanguage } from './test-files.js';

const JS_ASSIGN =
  /(?<![\w$.]|(?:const|let|var|import)\s+)((?:assert|expect|chai|should|t)(?:\s*\.\s*[\w$]+)+)\s*=(?![=>])/;
const JS_DEFINE =
  /\bObject\s*\.\s*(?:defineProperty|defineProperties|assign|setPrototypeOf)\s*\(\s*(assert|expect|chai)\b/;
const PY_ASSIGN = /^\s*((?:[\w]+\.)+(?:assert\w*|fail\w*|approx|raises))\s*=(?!=)/;
const PY_SETATTR = /\bsetattr\s*\(\s*([\w.]+)\s*,\s*['"](assert\w*|approx|raises|fail)['"]/;

const NAMES = '(?:assert\\w*|expect\\w*|equal|strictEqual|deepEqual|deepStrictEqual|notEqual|ok|is|same)';
const JS_HELPER = new RegExp(
  `(?:function\\s*\\*?\\s*(${NAMES})\\s*\\([^)]*\\)\\s*\\{|(?<![\\w$.])(${NAMES})\\s*[:=]\\s*(?:async\\s*)?(?:function\\b[^{(]*\\([^)]*\\)\\s*\\{|\\([^)]*\\)\\s*=>|[\\w$]+\\s*=>))`,
);
const PY_HELPER = new RegExp(`^([ \\t]*)def\\s+(${NAMES})\\s*\\(.*\\)\\s*(?:->[^:]*)?:\\s*(.*)$`);

/** Can this code fail: a throw or raise, an assertion, a `fail`/`reject` call? */
function canFail(code: string, lang: 'js' | 'py'): boolean {
  if (/\b(?:throw|raise|reject|fail)\b/.test(code)) return true;
  return code.split('\n').some((l) => countAssertions(l, lang) > 0);
}

/** The body of a JS helper that starts on `line` of `lines` (braces, or an arrow's expression), or null. */
function jsBody(lines: readonly string[], line: number, at: number): string | null {
  const text = lines.slice(line).join('\n');
  const arrow = /=>\s*/y;
  const head = text.slice(at);
  const open = head.search(/\{|=>/);
  if (open < 0) return null;
  if (head.startsWith('=>', open)) {
    arrow.lastIndex = open;
    arrow.exec(head);
    const rest = head.slice(arrow.lastIndex);
    if (!rest.startsWith('{')) return rest.split('\n')[0] ?? '';
    const body = argumentText(rest, 0);
    return body === null ? null : body.text;
  }
  const body = argumentText(head, open);
  return body === null ? null : body.text;
}

/** A Python helper's body from the patch-side lines (the lines indented deeper than its `def`). */
function pyBody(lines: readonly string[], line: number, indent: number, inline: string): string {
  if (inline.trim() !== '') return inline;
  const body: string[] = [];
  for (let j = line + 1; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.trim() === '') continue;
    if (/^[ \t]*/.exec(l)![0].length <= indent) break;
    body.push(l);
  }
  return body.join('\n');
}

/**
 * Findings for one changed JS or Python file. Assignments count in every file; helpers named
 * like assertions only in test files (`inTest`: source may name a predicate `ok`), read from
 * `patchText`, the patch-side text (null: helpers are not judged).
 */
export function assertionRedefinedFindings(
  file: ChangedFile,
  patchText: string | null,
  inTest: boolean,
): TamperFinding[] {
  const lang = testLanguage(file.path);
  if (lang === null || file.status === 'deleted') return [];
  const lines = patchText?.split('\n') ?? null;
  const findings: TamperFinding[] = [];
  const push = (i: number, detail: string) =>
    findings.push({ kind: 'assertion_redefined', path: file.path, line: file.addedLines[i] ?? null, detail });
  file.addedText.forEach((text, i) => {
    if (isCommentLine(text, lang)) return;
    const assign =
      lang === 'js' ? (JS_ASSIGN.exec(text) ?? JS_DEFINE.exec(text)) : (PY_ASSIGN.exec(text) ?? PY_SETATTR.exec(text));
    if (assign !== null) {
      push(
        i,
        `\`${assign[1]!.replace(/\s+/g, '')}${lang === 'py' && assign[2] !== undefined ? `.${assign[2]}` : ''}\` replaced: an assertion redefined`,
      );
      return;
    }
    const n = file.addedLines[i];
    if (!inTest || lines === null || n === undefined || lines[n - 1] !== text) return;
    if (lang === 'js') {
      const m = JS_HELPER.exec(text);
      if (m === null) return;
      const body = jsBody(lines, n - 1, m.index);
      if (body !== null && !canFail(body, 'js'))
        push(i, `\`${m[1] ?? m[2]}\` is named like an assertion and can never fail`);
    } else {
      const m = PY_HELPER.exec(text);
      if (m === null) return;
      const body = pyBody(lines, n - 1, m[1]!.length, m[3]!);
      if (!canFail(body, 'py')) push(i, `\`${m[2]}\` is named like an assertion and can never fail`);
    }
  });
  return findings;
}
