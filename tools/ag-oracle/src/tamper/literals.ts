/**
 * Reading one line of test code the way an expectation check needs it: its literals, a
 * form that survives reformatting, its shape (literals masked), and the lines that carry no
 * expectation (imports, test declarations). Every pattern is linear in the line's length.
 * @module
 */
import { countAssertions } from './assertions.js';
import { isCommentLine } from './markers.js';

/** String, number and keyword literals of JS and Python. */
const LITERAL =
  /(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`|(?<![\w$.])-?\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?n?(?![\w$])|(?<![\w$.])(?:true|false|null|undefined|NaN|Infinity|None|True|False)(?![\w$]))/g;

/** True when the line holds at least one literal. */
export function hasLiteral(line: string): boolean {
  LITERAL.lastIndex = 0;
  return LITERAL.test(line);
}

/** The line with every literal replaced by `_`: two lines of one shape differ only in values. */
export function shapeOf(line: string): string {
  return normalised(line.replace(LITERAL, '_'));
}

/**
 * The line with whitespace removed, every quote character made `"`, and trailing commas
 * and semicolons dropped: a line that was only reformatted or moved keeps this form.
 */
export function normalised(line: string): string {
  return line
    .replace(/\s+/g, '')
    .replace(/['`]/g, '"')
    .replace(/[,;]+$/, '');
}

const JS_IMPORT =
  /^\s*(?:import\b|export\s+(?:\*|\{[^}]*\})\s+from\b|(?:const|let|var)\s+[\w${}\s,:]+=\s*(?:require|await\s+import)\s*\()/;
const PY_IMPORT = /^\s*(?:import\s|from\s+[\w.]+\s+import\b)/;
const JS_DECLARATION =
  /^\s*(?:it|test|describe|suite|context|specify)(?:\s*\.\s*\w+)*\s*\(\s*(?:'[^']*'|"[^"]*"|`[^`]*`)\s*,\s*(?:async\s*)?(?:function\b[^{]*|\([^)]*\)\s*=>|\w+\s*=>)\s*\{?\s*$/;
const PY_DECLARATION =
  /^\s*(?:(?:async\s+)?def\s+test\w*\s*\(.*\)\s*(?:->\s*[\w.]+\s*)?:|class\s+\w+\s*(?:\(.*\))?\s*:)\s*$/;

/**
 * True when the line can state an expectation: an assertion, or a literal that is not in an
 * import, a comment, or a test's own declaration (its title is a name, not an expected value).
 */
export function carriesExpectation(line: string, lang: 'js' | 'py'): boolean {
  if (line.trim() === '' || isCommentLine(line, lang)) return false;
  if (countAssertions(line, lang) > 0) return true;
  if ((lang === 'js' ? JS_IMPORT : PY_IMPORT).test(line)) return false;
  if ((lang === 'js' ? JS_DECLARATION : PY_DECLARATION).test(line)) return false;
  return hasLiteral(line);
}

/** A line shortened for a finding's detail. */
export function quoted(line: string, max = 100): string {
  const t = line.trim();
  return `\`${t.length > max ? `${t.slice(0, max - 1)}…` : t}\``;
}
