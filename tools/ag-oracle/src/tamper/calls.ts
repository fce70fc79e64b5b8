/**
 * Just enough of JS and Python syntax to read an assertion's arguments: the argument list
 * after an opening parenthesis (strings and nesting respected), split at top-level commas,
 * and whether an argument is a constant. Linear in the line's length.
 * @module
 */

/** The text inside the parentheses that open at `open` (`line[open] === '('`) and the index after the close, or null when the line ends first. */
export function argumentText(line: string, open: number): { text: string; end: number } | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return { text: line.slice(open + 1, i), end: i + 1 };
    }
  }
  return null;
}

/** Split at commas outside brackets and strings; trimmed parts, empty ones dropped. */
export function splitTopLevel(text: string, separator = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((p) => p !== '');
}

const CONSTANT =
  /^(?:!+|not\s+|-|\+)?\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\$]|\\.)*`|\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?n?|true|false|null|undefined|NaN|Infinity|None|True|False|\[\s*\]|\{\s*\}|\(\s*\))$/;

/** True when an expression is a literal (possibly negated): its value cannot depend on the code. */
export function isConstant(expr: string): boolean {
  let e = expr.trim();
  while (e.startsWith('(') && e.endsWith(')') && argumentText(e, 0)?.end === e.length) e = e.slice(1, -1).trim();
  return CONSTANT.test(e);
}
