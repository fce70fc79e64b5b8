/**
 * Which lines of a file a coverage-ignore pragma reaches. A changed line a pragma reaches is
 * never counted covered, whatever the report says (c8 and v8-to-istanbul report such lines
 * as run; Node's own reporter and coverage.py leave them out): the report does not truly
 * measure it. The rule, per pragma (tools' names; case and spacing as loose as any tool
 * reads them):
 *
 * | pragma | lines it reaches |
 * |---|---|
 * | `c8`/`v8`/`node:coverage` `ignore next N` | its own line and the N after it |
 * | `c8`/`v8`/`node:coverage` `ignore next` (no N), `istanbul ignore next|if|else`, `# pragma: no cover` (coverage.py's default exclusion regex, also without a `#`), `@codeCoverageIgnore`, `#[coverage(off)]` | its own line to the end of the statement it precedes or sits on (`statement-extent.ts`) |
 * | `c8`/`v8` `ignore start` … `stop`, `node:coverage disable` … `enable`, `LCOV_EXCL_START` … `STOP` (also `GCOV`, `GCOVR`, `_BR_`), `@codeCoverageIgnoreStart` … `End`, `coverage:ignore-start` … `-end` | start to stop, both included; a start never stopped: to the end of the file; a stop with no start: nothing |
 * | `LCOV_EXCL_LINE` (and kin, `_BR_LINE`), `coverage:ignore-line`, `# pragma: no branch` | its own line |
 * | `istanbul`/`c8`/`v8` `ignore file`, `coverage:ignore-file`, `#![coverage(off)]` | the whole file |
 * | any other text ag-diffcov lists as a pragma (`pragmas.ts`) that none of these reads | its own line to the end of the file |
 *
 * With only the diff's added lines to read (no `--tree`), the pragmas on added lines are
 * found, and one whose reach is a statement is followed through the run of consecutive added
 * lines that holds it: it ends where the rule above ends it only when a code line after that
 * end, in the same run, shows that it ended; otherwise it reaches the end of the file (the
 * lines after the run are not known).
 * @module
 */
import { PRAGMA_PATTERNS, PRAGMA_WORDS } from './pragmas.js';
import { strippedLines } from './source-lines.js';
import { indentOf, pythonStatement, pythonStatementEnd } from './python-extent.js';
import { cStatementEnd, isPython } from './statement-extent.js';

/** One pragma and the lines it reaches (inclusive; `to` is `END_OF_FILE` when it runs to the end). */
export interface PragmaScope {
  readonly line: number;
  /** The pragma's line, trimmed, at most 200 characters. */
  readonly text: string;
  readonly from: number;
  readonly to: number;
}

/** `to` of a scope that reaches the end of the file. */
export const END_OF_FILE = Number.MAX_SAFE_INTEGER;

type Token =
  | { readonly at: number; readonly kind: 'lines'; readonly count: number }
  | { readonly at: number; readonly kind: 'statement'; readonly end: number }
  | { readonly at: number; readonly kind: 'start' | 'stop'; readonly family: string }
  | { readonly at: number; readonly kind: 'file' };

type Grammar = { readonly re: RegExp; readonly token: (m: RegExpExecArray, at: number, end: number) => Token };

const GRAMMAR: readonly Grammar[] = [
  {
    re: /\b(?:[cv]8|node:coverage)\s+ignore\s+next(?:\s+(\d+))?/gi,
    token: (m, at, end) =>
      m[1] === undefined
        ? { at, kind: 'statement', end }
        : { at, kind: 'lines', count: Math.min(Number(m[1]), END_OF_FILE) },
  },
  {
    re: /\b[cv]8\s+ignore\s+(start|stop)\b/gi,
    token: (m, at) => ({ at, kind: m[1]!.toLowerCase() === 'start' ? 'start' : 'stop', family: 'v8' }),
  },
  {
    re: /\bnode:coverage\s+(disable|enable)\b/gi,
    token: (m, at) => ({ at, kind: m[1]!.toLowerCase() === 'disable' ? 'start' : 'stop', family: 'node' }),
  },
  { re: /\b(?:[cv]8|istanbul)\s+ignore\s+file\b/gi, token: (_m, at) => ({ at, kind: 'file' }) },
  { re: /\bistanbul\s+ignore\s+(?:next|if|else)\b/gi, token: (_m, at, end) => ({ at, kind: 'statement', end }) },
  { re: /\bpragma[:\s]?\s*no\s*cover/gi, token: (_m, at, end) => ({ at, kind: 'statement', end }) },
  { re: /#\s*pragma[:\s]?\s*no\s*branch/gi, token: (_m, at) => ({ at, kind: 'lines', count: 0 }) },
  {
    re: /\b(LCOV|GCOV|GCOVR)_EXCL_(BR_)?(LINE|START|STOP)\b/g,
    token: (m, at) =>
      m[3] === 'LINE'
        ? { at, kind: 'lines', count: 0 }
        : { at, kind: m[3] === 'START' ? 'start' : 'stop', family: `${m[1]}${m[2] ?? ''}` },
  },
  {
    re: /@codeCoverageIgnore(Start|End)?\b/g,
    token: (m, at, end) =>
      m[1] === undefined
        ? { at, kind: 'statement', end }
        : { at, kind: m[1] === 'Start' ? 'start' : 'stop', family: 'phpunit' },
  },
  { re: /#!\[[^\]]*\bcoverage\s*\(\s*off\s*\)/g, token: (_m, at) => ({ at, kind: 'file' }) },
  { re: /(?<!#!\[[^\]]*)\bcoverage\s*\(\s*off\s*\)/g, token: (_m, at, end) => ({ at, kind: 'statement', end }) },
  {
    re: /\bcoverage:ignore-(line|start|end|file)\b/g,
    token: (m, at) =>
      m[1] === 'line'
        ? { at, kind: 'lines', count: 0 }
        : m[1] === 'file'
          ? { at, kind: 'file' }
          : { at, kind: m[1] === 'start' ? 'start' : 'stop', family: 'dart' },
  },
];

/** The pragma tokens on one line, in the order they appear. */
function tokensOf(text: string): Token[] {
  const out: Token[] = [];
  for (const g of GRAMMAR) {
    g.re.lastIndex = 0;
    for (let m = g.re.exec(text); m !== null; m = g.re.exec(text)) out.push(g.token(m, m.index, m.index + m[0].length));
  }
  return out.sort((a, b) => a.at - b.at);
}

/** A file's text as far as it is known: its lines' numbers (ascending) and texts. */
export interface KnownText {
  readonly numbers: readonly number[];
  readonly texts: readonly string[];
  /** True when these are all the file's lines, 1 to n (read from the patch tree). */
  readonly complete: boolean;
}

/** The last line of the statement a pragma at `known.numbers[k]` reaches (`end`: column past the pragma). */
function statementEnd(path: string, known: KnownText, k: number, end: number): number {
  const line = known.numbers[k]!;
  const reach = (texts: readonly string[], at: number) =>
    isPython(path) ? pythonStatementEnd(texts, at) : cStatementEnd(path, texts, at, end);
  if (known.complete) return reach(known.texts, line);
  // Only the run of consecutive added lines around the pragma is known.
  let first = k;
  while (first > 0 && known.numbers[first - 1] === known.numbers[first]! - 1) first--;
  let last = k;
  while (last + 1 < known.numbers.length && known.numbers[last + 1] === known.numbers[last]! + 1) last++;
  const offset = known.numbers[first]! - 1;
  const texts = known.texts.slice(first, last + 1);
  const local = reach(texts, line - offset);
  const python = isPython(path) ? pythonStatement(texts, line - offset) : null;
  // A simple Python statement (no block, closed on its own line) ends where it ends, whatever follows.
  if (python?.simple === true) return local + offset;
  const code = strippedLines(
    path,
    texts.map((_, i) => i + 1),
    texts,
  ).map((c) => c.trim() !== '');
  // Ended inside the run only if a code line after the end, still in the run, shows it.
  if (code.slice(local).some(Boolean)) return local + offset;
  if (python === null) return END_OF_FILE;
  // A Python block cannot reach past a later added code line indented no deeper than its statement.
  for (let j = last + 1; j < known.numbers.length; j++) {
    const text = known.texts[j] ?? '';
    const bare = text.replace(/#.*$/, '').trim();
    if (bare !== '' && !/^[)\]}]/.test(bare) && indentOf(text) <= python.indent) return known.numbers[j]! - 1;
  }
  return END_OF_FILE;
}

/** Every coverage-ignore pragma in the known text and the lines each reaches. */
export function pragmaScopes(path: string, known: KnownText): PragmaScope[] {
  const last = known.complete ? known.numbers.length : END_OF_FILE;
  const scopes: PragmaScope[] = [];
  const seen = new Set<string>();
  const add = (line: number, text: string, from: number, to: number): void => {
    const key = `${line}:${from}:${to}`;
    if (seen.has(key)) return;
    seen.add(key);
    scopes.push({ line, text: text.trim().slice(0, 200), from, to: Math.min(to, last) });
  };
  const open = new Map<string, { line: number; text: string }>();
  for (let k = 0; k < known.numbers.length; k++) {
    const line = known.numbers[k]!;
    const text = known.texts[k] ?? '';
    if (!PRAGMA_WORDS.test(text)) continue;
    const tokens = tokensOf(text);
    if (tokens.length === 0) {
      // Listed as a pragma, read by no rule here: it counts against coverage to the end of the file.
      if (PRAGMA_PATTERNS.some((re) => re.test(text))) add(line, text, line, END_OF_FILE);
      continue;
    }
    for (const t of tokens) {
      if (t.kind === 'lines') add(line, text, line, line + t.count);
      else if (t.kind === 'file') add(line, text, 1, END_OF_FILE);
      else if (t.kind === 'statement') add(line, text, line, Math.max(statementEnd(path, known, k, t.end), line));
      else if (t.kind === 'start') {
        if (!open.has(t.family)) open.set(t.family, { line, text });
      } else {
        const start = open.get(t.family);
        if (start !== undefined) {
          add(start.line, start.text, start.line, line);
          open.delete(t.family);
        }
      }
    }
  }
  for (const start of open.values()) add(start.line, start.text, start.line, END_OF_FILE);
  return scopes.sort((a, b) => a.line - b.line || a.from - b.from);
}
