/**
 * Where a coverage.py exclusion reaches in a Python file (indentation is the syntax): the
 * logical line (brackets, triple-quoted strings and `\` continuations followed) holding the
 * pragma, the decorated `def`/`class` after a decorator, and, when it opens a block (ends
 * with `:`), every following logical line more indented than it: coverage.py's own rule (the
 * excluded line, and its block). See `statement-extent.ts` for the other languages.
 * @module
 */

/** Leading whitespace width (a tab to the next multiple of 8, as Python reads it). */
export function indentOf(text: string): number {
  let w = 0;
  for (const ch of text) {
    if (ch === ' ') w++;
    else if (ch === '\t') w = (Math.floor(w / 8) + 1) * 8;
    else if (ch === '\f') w = 0;
    else break;
  }
  return w;
}

interface Logical {
  readonly start: number;
  end: number;
  readonly indent: number;
  code: string;
  /** False while brackets, a triple-quoted string or a `\` continuation are still open at `end`. */
  closed: boolean;
}

/** The file's logical lines (1-based physical line numbers), and each physical line's logical line. */
function pythonLogical(lines: readonly string[]): { logical: Logical[]; at: (number | undefined)[] } {
  const logical: Logical[] = [];
  const at: (number | undefined)[] = [];
  let depth = 0;
  let triple: string | null = null;
  let current: Logical | null = null;
  for (let k = 1; k <= lines.length; k++) {
    const text = lines[k - 1]!;
    let code = '';
    let i = 0;
    let backslash = false;
    while (i < text.length) {
      if (triple !== null) {
        let j = i;
        // an escaped quote does not close
        while (j < text.length && !text.startsWith(triple, j)) j += text[j] === '\\' ? 2 : 1;
        if (j >= text.length) {
          i = text.length;
          break;
        }
        i = j + 3;
        triple = null;
        code += '""';
        continue;
      }
      const ch = text[i]!;
      if (ch === '#') break;
      if (ch === '"' || ch === "'") {
        if (text.startsWith(ch.repeat(3), i)) {
          triple = ch.repeat(3);
          i += 3;
          continue;
        }
        let j = i + 1;
        while (j < text.length && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
        code += '""';
        i = j + 1;
        continue;
      }
      if (ch === '\\' && i === text.replace(/\s+$/, '').length - 1) {
        backslash = true;
        break;
      }
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
      code += ch;
      i++;
    }
    if (current === null && (code.trim() !== '' || triple !== null)) {
      current = { start: k, end: k, indent: indentOf(text), code: '', closed: false };
      logical.push(current);
    }
    if (current !== null) {
      current.end = k;
      current.code += ` ${code}`;
      at[k] = logical.length - 1;
      if (depth === 0 && triple === null && !backslash) {
        current.closed = true;
        current = null;
      }
    }
  }
  return { logical, at };
}

/**
 * The last line a coverage.py exclusion on physical `line` (1-based) reaches, and whether the
 * statement is simple (its own logical line, closed, neither a decorator nor opening a block:
 * what follows it cannot be part of it).
 */
export function pythonStatement(
  lines: readonly string[],
  line: number,
): { end: number; simple: boolean; indent: number } {
  const { logical, at } = pythonLogical(lines);
  let index = at[line];
  if (index === undefined) {
    // A pragma on a line of its own: taken to reach the next statement (a superset).
    index = logical.findIndex((l) => l.start > line);
    if (index === -1) return { end: line, simple: false, indent: indentOf(lines[line - 1] ?? '') };
  }
  let cur = logical[index]!;
  const decorated = /^\s*@/.test(cur.code);
  while (/^\s*@/.test(cur.code) && index + 1 < logical.length) cur = logical[++index]!;
  let end = cur.end;
  const block = /:\s*$/.test(cur.code);
  if (block) {
    for (let m = index + 1; m < logical.length && logical[m]!.indent > cur.indent; m++) end = logical[m]!.end;
  }
  return { end, simple: at[line] !== undefined && !decorated && !block && cur.closed, indent: cur.indent };
}

/** The last line a coverage.py exclusion on physical `line` (1-based) reaches. */
export function pythonStatementEnd(lines: readonly string[], line: number): number {
  return pythonStatement(lines, line).end;
}
