/**
 * Where the statement after a coverage pragma ends, for the pragmas whose reach is a piece of
 * syntax rather than a count of lines (`istanbul ignore next|if|else`, coverage.py's
 * `# pragma: no cover`, PHPUnit's `@codeCoverageIgnore`, Rust's `#[coverage(off)]`).
 * Deliberately a superset, never a parser: when unsure, the statement goes on (a line wrongly
 * taken in only counts against coverage).
 *
 * - Python: `python-extent.ts`.
 * - Everything else (C-like): from the first code after the pragma, lines go on while a
 *   bracket opened in the statement is open (strings, template literals, comments and, in
 *   JavaScript, regular expressions skipped), while a line ends with an operator, `,`, `else`
 *   or a braceless `if (…)`/`for (…)`/`while (…)` head, while the next code line starts with
 *   `.`, `?`, `:`, an operator, `else`, `catch` or `finally`, or is more indented than the
 *   statement's first line; it stops where a bracket of the enclosing block closes.
 * @module
 */
import { indentOf } from './python-extent.js';
import { syntaxFor, type CommentSyntax } from './source-lines.js';

const JS = new Set(['js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx']);

const extOf = (path: string): string => {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
};

/** Is this a Python file (its pragmas reach by indentation)? */
export const isPython = (path: string): boolean => ['py', 'pyi', 'pyw', 'pyx', 'pxd'].includes(extOf(path));

// ---- C-like ----------------------------------------------------------------------------

interface CState {
  depth: number;
  /** Inside a block comment: its closing token. */
  comment: string | null;
  /** Template literal / `${` expression nesting: 'tpl' or the brace depth inside an expression. */
  stack: ('tpl' | number)[];
}

const REGEX_BEFORE =
  /(?:^|[(,=:[!&|?{};+\-*%<>~^]|\b(?:return|typeof|case|do|else|in|of|void|yield|await|delete|throw|new))\s*$/;

/** Lex `text` from `state` (mutated); returns the line's code (strings and comments blanked). */
function lexC(text: string, state: CState, syntax: CommentSyntax, js: boolean, stopAt = text.length): string {
  let code = '';
  let i = 0;
  while (i < stopAt) {
    if (state.comment !== null) {
      const end = text.indexOf(state.comment, i);
      if (end === -1) return code;
      i = end + state.comment.length;
      state.comment = null;
      continue;
    }
    const top = state.stack[state.stack.length - 1];
    const ch = text[i]!;
    if (top === 'tpl') {
      if (ch === '\\') i += 2;
      else if (ch === '`') {
        state.stack.pop();
        code += '`';
        i++;
      } else if (ch === '$' && text[i + 1] === '{') {
        state.stack.push(0);
        i += 2;
      } else i++;
      continue;
    }
    const line = syntax.line.find((t) => text.startsWith(t, i));
    if (line !== undefined) return code;
    const block = syntax.block.find(([s]) => text.startsWith(s, i));
    if (block !== undefined) {
      state.comment = block[1];
      i += block[0].length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
      code += `${ch}${ch}`;
      i = j + 1;
      continue;
    }
    if (ch === '`' && js) {
      state.stack.push('tpl');
      code += '`';
      i++;
      continue;
    }
    if (ch === '/' && js && REGEX_BEFORE.test(code)) {
      let j = i + 1;
      let cls = false;
      while (j < text.length && (cls || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') cls = true;
        else if (text[j] === ']') cls = false;
        j++;
      }
      code += '/r/';
      i = j + 1;
      continue;
    }
    if (ch === '{' || ch === '(' || ch === '[') {
      if (typeof top === 'number' && ch === '{') state.stack[state.stack.length - 1] = top + 1;
      state.depth++;
    } else if (ch === '}' || ch === ')' || ch === ']') {
      if (typeof top === 'number' && ch === '}') {
        if (top === 0) {
          state.stack.pop();
          i++;
          continue;
        }
        state.stack[state.stack.length - 1] = top - 1;
      }
      state.depth--;
    }
    code += ch;
    i++;
  }
  return code;
}

const CONTINUES_AFTER =
  /(?:[=+\-*/%&|^!~?:.,([{<>]|=>|\b(?:else|do|return|typeof|new|in|of|instanceof|await|yield|extends|implements))$/;
const CONTINUES_BEFORE = /^(?:\?\.|[.?:]|&&|\|\||\?\?|=>|[+*/%&|^<>=,]|(?:else|catch|finally)\b)/;

/**
 * The last line of the statement a pragma at `line` (1-based) column `col` (just past the
 * pragma's text) reaches, in a file that is not Python.
 */
export function cStatementEnd(path: string, lines: readonly string[], line: number, col: number): number {
  const syntax = syntaxFor(path) ?? { line: ['//'], block: [['/*', '*/']] };
  const js = JS.has(extOf(path));
  const n = lines.length;
  const depthBefore: number[] = new Array<number>(n + 2).fill(0);
  const code: string[] = new Array<string>(n + 1).fill('');
  const state: CState = { depth: 0, comment: null, stack: [] };
  let atCol = 0;
  let afterPragma = '';
  for (let k = 1; k <= n; k++) {
    depthBefore[k] = state.depth;
    const text = lines[k - 1]!;
    if (k === line) {
      const probe: CState = { depth: state.depth, comment: state.comment, stack: [...state.stack] };
      lexC(text, probe, syntax, js, Math.min(col, text.length));
      atCol = probe.depth;
      // The code on the pragma's own line after its comment.
      const rest = text.slice(col);
      const close = rest.indexOf('*/');
      afterPragma = close === -1 ? '' : lexC(rest.slice(close + 2), { depth: 0, comment: null, stack: [] }, syntax, js);
    }
    code[k] = lexC(text, state, syntax, js);
  }
  depthBefore[n + 1] = state.depth;
  const nextCode = (from: number): number => {
    for (let k = from; k <= n; k++) if (code[k]!.trim() !== '') return k;
    return -1;
  };
  const start = afterPragma.trim() !== '' ? line : nextCode(line + 1);
  if (start === -1) return n;
  const base = start === line ? Math.min(depthBefore[line]!, atCol) : depthBefore[start]!;
  const baseIndent = indentOf(lines[start - 1]!);
  const head = code[start]!.trim();
  let j = start;
  for (;;) {
    const d = depthBefore[j + 1]!;
    if (d < base) return j;
    const last = code[j]!.trim();
    const braceless = /\)$/.test(last) && /^(?:\}\s*)?(?:else\s+)?(?:if|for|while|with)\b/.test(last);
    const next = nextCode(j + 1);
    if (next === -1) return d > base ? n : j;
    const following = code[next]!.trim();
    const goesOn =
      d > base ||
      CONTINUES_AFTER.test(last) ||
      braceless ||
      CONTINUES_BEFORE.test(following) ||
      (/^do\b/.test(head) && /^while\b/.test(following)) ||
      indentOf(lines[next - 1]!) > baseIndent;
    if (!goesOn) return j;
    j = next;
  }
}
