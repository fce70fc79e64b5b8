/**
 * The texts a JavaScript/TypeScript equality probe is made of, each on one line so that the
 * probe moves no line: a strict field-by-field comparison written inline (no import), and a
 * hook's body put on one line (comments dropped, the semicolons automatic insertion would have
 * put in written out).
 * @module
 */
import type { Node } from '@babel/types';
import { childNodes } from '../engines/js.js';

/**
 * A function expression `(a, b) => boolean`: the same prototype, and every own enumerable key
 * equal by a deep strict comparison (`Object.is` for primitives; a Date by its time, a RegExp by
 * its text, a Map by its entries, a Set by its members; cycles held equal). `ts`: typed, so
 * that the project's own `tsc` finds nothing new in the probed file.
 */
export function strictComparison(ts: boolean): string {
  const any = ts ? ': any' : '';
  const bool = ts ? ': boolean' : '';
  const seen = ts ? ': any[][]' : '';
  return [
    `((ag$a${any}, ag$b${any})${bool} => {`,
    `const ag$seen${seen} = [];`,
    `const ag$eq = (x${any}, y${any})${bool} => {`,
    'if (Object.is(x, y)) return true;',
    "if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) return false;",
    'if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false;',
    'for (let i = 0; i < ag$seen.length; i++) if (ag$seen[i][0] === x && ag$seen[i][1] === y) return true;',
    'ag$seen.push([x, y]);',
    'if (x instanceof Date) return Object.is(x.getTime(), y.getTime());',
    'if (x instanceof RegExp) return String(x) === String(y);',
    `if (x instanceof Map) { if (x.size !== y.size) return false; let ok = true; x.forEach((v${any}, k${any}) => { if (!y.has(k) || !ag$eq(v, y.get(k))) ok = false; }); return ok; }`,
    `if (x instanceof Set) { if (x.size !== y.size) return false; let ok = true; x.forEach((v${any}) => { if (!y.has(v)) ok = false; }); return ok; }`,
    'const kx = Object.keys(x); const ky = Object.keys(y);',
    'if (kx.length !== ky.length) return false;',
    'for (const k of kx) if (!Object.prototype.hasOwnProperty.call(y, k) || !ag$eq(x[k], y[k])) return false;',
    'return true;',
    '};',
    'return ag$eq(ag$a, ag$b);',
    '})',
  ].join(' ');
}

/** Statements that end with a semicolon, written or inserted automatically. */
const ENDS_WITH_SEMICOLON = new Set([
  'ExpressionStatement',
  'VariableDeclaration',
  'ReturnStatement',
  'ThrowStatement',
  'BreakStatement',
  'ContinueStatement',
  'DoWhileStatement',
  'DebuggerStatement',
]);

/** Keys that hold a statement (or a list of them). */
const STATEMENT_KEYS = new Set(['body', 'consequent', 'alternate']);

/** Literals whose text may hold a line break of its own. */
const LITERALS = new Set(['StringLiteral', 'TemplateLiteral', 'RegExpLiteral', 'JSXText', 'DirectiveLiteral']);

/**
 * The statements of a block body (`{ … }`, from `text`) on one line: comments blanked, a `;`
 * after every statement that ends without one (where automatic insertion put it: `return`
 * before a line break stays `return;`), line breaks turned to spaces. Null when a literal holds
 * a line break (it cannot be put on one line unchanged).
 */
export function bodyOnOneLine(
  text: string,
  body: Node,
  comments: readonly { start?: number | null; end?: number | null }[],
): string | null {
  const from = body.start! + 1;
  const to = body.end! - 1;
  const chars = text.slice(from, to).split('');
  const blank = (s: number, e: number) => {
    for (let i = Math.max(s, from); i < Math.min(e, to); i++) chars[i - from] = ' ';
  };
  for (const c of comments) if (c.start! < to && c.end! > from) blank(c.start!, c.end!);
  const semicolons: number[] = [];
  let literalBreak = false;
  const visit = (node: Node, key: string) => {
    if (LITERALS.has(node.type) && /[\r\n\u2028\u2029]/.test(text.slice(node.start!, node.end!))) literalBreak = true;
    if (ENDS_WITH_SEMICOLON.has(node.type) && STATEMENT_KEYS.has(key) && text[node.end! - 1] !== ';')
      semicolons.push(node.end!);
    for (const [k, child] of childNodes(node)) visit(child, k);
  };
  for (const [k, child] of childNodes(body)) visit(child, k);
  if (literalBreak) return null;
  for (const at of semicolons.sort((a, b) => b - a)) chars.splice(at - from, 0, ';');
  return chars
    .join('')
    .replace(/[\r\n\u2028\u2029]/g, ' ')
    .trim();
}
