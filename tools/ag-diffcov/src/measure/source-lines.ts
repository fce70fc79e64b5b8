/**
 * Which added lines are blank or only a comment, judged from their text, for files the
 * report does not know (every other added line of such a file counts as uncovered).
 * Languages are told by file extension; an unknown one has only blank lines excused.
 * Block comments are followed across consecutive added lines.
 * @module
 */

/** A language's comment tokens. */
export interface CommentSyntax {
  readonly line: readonly string[];
  readonly block: readonly (readonly [string, string])[];
}

const C_LIKE: CommentSyntax = { line: ['//'], block: [['/*', '*/']] };
const HASH: CommentSyntax = { line: ['#'], block: [] };
const SYNTAX: Record<string, CommentSyntax> = {};
for (const ext of [
  'js',
  'mjs',
  'cjs',
  'jsx',
  'ts',
  'mts',
  'cts',
  'tsx',
  'java',
  'kt',
  'kts',
  'scala',
  'go',
  'rs',
  'c',
  'h',
  'cc',
  'cpp',
  'cxx',
  'hpp',
  'hh',
  'cs',
  'swift',
  'dart',
  'groovy',
  'gradle',
  'proto',
  'm',
  'mm',
  'zig',
  'sol',
])
  SYNTAX[ext] = C_LIKE;
for (const ext of [
  'py',
  'pyi',
  'sh',
  'bash',
  'zsh',
  'rb',
  'pl',
  'pm',
  'r',
  'tcl',
  'cmake',
  'ps1',
  'jl',
  'ex',
  'exs',
  'cr',
  'nim',
  'coffee',
  'mk',
])
  SYNTAX[ext] = HASH;
for (const ext of ['css', 'scss', 'less']) SYNTAX[ext] = { line: ext === 'css' ? [] : ['//'], block: [['/*', '*/']] };
for (const ext of ['sql', 'lua', 'hs', 'elm', 'ada'])
  SYNTAX[ext] = { line: ['--'], block: ext === 'lua' ? [['--[[', ']]']] : [['{-', '-}']] };
for (const ext of ['html', 'htm', 'xml', 'vue', 'svelte'])
  SYNTAX[ext] = {
    line: [],
    block: [
      ['<!--', '-->'],
      ['/*', '*/'],
    ],
  };
SYNTAX.php = { line: ['//', '#'], block: [['/*', '*/']] };
for (const ext of ['clj', 'cljs', 'lisp', 'el', 'scm', 'asm', 's']) SYNTAX[ext] = { line: [';'], block: [] };
for (const ext of ['erl', 'hrl']) SYNTAX[ext] = { line: ['%'], block: [] };

/** The comment syntax of a file, by its name; null: unknown (no comment is recognised). */
export function syntaxFor(path: string): CommentSyntax | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === 'Makefile' || base === 'Dockerfile' || base === 'Rakefile' || base === 'Gemfile') return HASH;
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? null : (SYNTAX[base.slice(dot + 1).toLowerCase()] ?? null);
}

/** Remove comments from one line; returns what is left and the block-comment state after it. */
function stripComments(
  text: string,
  syntax: CommentSyntax,
  open: string | null,
): { rest: string; open: string | null } {
  let rest = '';
  let i = 0;
  let closing = open;
  while (i < text.length) {
    if (closing !== null) {
      const end = text.indexOf(closing, i);
      if (end === -1) return { rest, open: closing };
      i = end + closing.length;
      closing = null;
      continue;
    }
    const lineAt = Math.min(
      ...syntax.line.map((t) => text.indexOf(t, i)).filter((n) => n !== -1),
      Number.POSITIVE_INFINITY,
    );
    let blockAt = Number.POSITIVE_INFINITY;
    let blockEnd = '';
    let blockStart = '';
    for (const [s, e] of syntax.block) {
      const at = text.indexOf(s, i);
      if (at !== -1 && at < blockAt) [blockAt, blockStart, blockEnd] = [at, s, e];
    }
    if (lineAt === Number.POSITIVE_INFINITY && blockAt === Number.POSITIVE_INFINITY)
      return { rest: rest + text.slice(i), open: null };
    if (lineAt <= blockAt) return { rest: rest + text.slice(i, lineAt), open: null };
    rest += text.slice(i, blockAt);
    i = blockAt + blockStart.length;
    closing = blockEnd;
  }
  return { rest, open: closing };
}

/**
 * Each line's text with its comments removed (block comments followed across consecutive
 * line numbers; unknown languages keep the whole text).
 * @param lines the lines' numbers, ascending
 * @param texts their text, same order
 */
export function strippedLines(path: string, lines: readonly number[], texts: readonly string[]): string[] {
  const syntax = syntaxFor(path);
  const out: string[] = [];
  let open: string | null = null;
  let prev = -1;
  for (let k = 0; k < lines.length; k++) {
    const text = texts[k] ?? '';
    if (lines[k] !== prev + 1) open = null;
    prev = lines[k]!;
    if (syntax === null) {
      out.push(text);
      continue;
    }
    const stripped = stripComments(text, syntax, open);
    open = stripped.open;
    out.push(stripped.rest);
  }
  return out;
}

/**
 * For each added line, true when it is code (neither blank nor only a comment).
 * @param lines the added lines' numbers, ascending
 * @param texts their text, same order
 */
export function codeLines(path: string, lines: readonly number[], texts: readonly string[]): boolean[] {
  return strippedLines(path, lines, texts).map((rest) => rest.trim() !== '');
}

/**
 * Does a line's code (comments already removed) hold only structure, nothing that runs of its
 * own: brackets, `;`, `,`, `:` and the words `else`, `try`, `finally`, `do`, `except`, `catch` (with
 * its binding)? `}`, `} else {`, `} catch (e) {`, `} finally {`, `else:`, `try:` are;
 * `case 2:`, `return;`, `} else if (x) {` are not.
 */
export function structuralOnly(code: string): boolean {
  return (
    code
      .replace(/\bcatch\s*\([^()]*\)/g, ' ')
      .replace(/\b(?:else|try|finally|do|catch|except)\b/g, ' ')
      .replace(/[\s{}()[\];,:]/g, '') === ''
  );
}
