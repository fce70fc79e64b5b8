/**
 * Tests whose body is empty, read from a test file's whole text: a JS `test`/`it` whose
 * callback's braces hold nothing but whitespace and comments, a Python `def test_…` whose
 * body is only `pass`, `...`, a docstring or comments.
 * @module
 */

/** One empty test: its name and the lines from its declaration to the end of its body. */
export interface EmptyTest {
  readonly name: string;
  readonly first: number;
  readonly last: number;
}

const JS_TEST =
  /(?<![\w$.])(?:it|test|specify)(?:\s*\.\s*(?:serial|concurrent|only|sequential))?\s*\(\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`$]*`)\s*,\s*(?:\{[^{}]*\}\s*,\s*)?(?:async\s*)?(?:function\s*[\w$]*\s*\([^)]*\)|\([^)]*\)\s*=>|[\w$]+\s*=>)\s*\{/g;

/** Line number (1-based) of offset `i` in `text`, given the offsets where lines start. */
function lineAt(starts: readonly number[], i: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** The offset of the first character after `i` that is neither whitespace nor inside a comment. */
function skipBlank(text: string, i: number): number {
  while (i < text.length) {
    if (/\s/.test(text[i]!)) i++;
    else if (text.startsWith('//', i)) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else return i;
  }
  return i;
}

function jsEmptyTests(text: string): EmptyTest[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const out: EmptyTest[] = [];
  for (const m of text.matchAll(JS_TEST)) {
    const after = skipBlank(text, m.index + m[0].length);
    if (text[after] !== '}') continue;
    out.push({ name: m[1]!, first: lineAt(starts, m.index), last: lineAt(starts, after) });
  }
  return out;
}

const PY_DEF = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(test\w*)[ \t]*\(.*\)[ \t]*(?:->[^:]*)?:[ \t]*(.*)$/;
const indentOf = (line: string) => /^[ \t]*/.exec(line)![0].length;

/** True for a body statement that does nothing: `pass`, `...`, a one-line string, a comment. */
function inert(stmt: string): boolean {
  const s = stmt.trim().replace(/\s+#.*$/, '');
  return s === '' || s === 'pass' || s === '...' || s.startsWith('#') || /^[rbuRBU]?("""|'''|"|')[\s\S]*\1$/.test(s);
}

function pyEmptyTests(text: string): EmptyTest[] {
  const lines = text.split('\n');
  const out: EmptyTest[] = [];
  lines.forEach((line, i) => {
    const m = PY_DEF.exec(line);
    if (m === null) return;
    const inline = m[3]!.replace(/\s*#.*$/, '');
    if (inline !== '') {
      if (inline.split(';').every(inert)) out.push({ name: m[2]!, first: i + 1, last: i + 1 });
      return;
    }
    const indent = m[1]!.length;
    let last = i;
    let empty = true;
    let seen = false;
    let doc: string | null = null;
    for (let j = i + 1; j < lines.length; j++) {
      const body = lines[j]!;
      if (doc !== null) {
        last = j;
        if (body.includes(doc)) doc = null;
        continue;
      }
      if (body.trim() === '') continue;
      if (indentOf(body) <= indent) break;
      seen = true;
      last = j;
      const opens = /^\s*[rbuRBU]?("""|''')/.exec(body);
      if (opens !== null && !body.trim().slice(opens[0].trim().length).includes(opens[1]!)) {
        doc = opens[1]!;
        continue;
      }
      if (!inert(body)) {
        empty = false;
        break;
      }
    }
    if (seen && empty) out.push({ name: m[2]!, first: i + 1, last: last + 1 });
  });
  return out;
}

/** Every test in `text` whose body is empty. */
export function emptyTests(text: string, lang: 'js' | 'py'): EmptyTest[] {
  return lang === 'js' ? jsEmptyTests(text) : pyEmptyTests(text);
}
