/**
 * Identifier renames a patch makes in its code: a removed line and an added one that are the
 * same tokens but for identifiers (`export function oldName(a)` became `export function
 * newName(a)`). Found on the changed lines (candidates), confirmed on whole files (one-to-one,
 * and each name gone from the side it does not belong to), and undone on a copy of the patched
 * code, so the baseline's tests, which call the old names, judge the patched behaviour.
 * @module
 */
import type { ChangedFile } from './model.js';

const TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|\S/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Lines of one file compared pairwise at most: a huge rewrite is no rename refactor. */
const MAX_PAIRS = 40_000;

/** One confirmed rename: the name on the baseline and the name the patch gives it. */
export interface IdentifierRename {
  readonly baseline: string;
  readonly patch: string;
}

/** The language whose strings and comments `renameBack` skips, by file extension; null for any other file. */
export function codeLanguage(path: string): 'js' | 'py' | null {
  if (/\.(?:[cm]?[jt]sx?)$/i.test(path)) return 'js';
  if (/\.pyi?$/i.test(path)) return 'py';
  return null;
}

function tokens(line: string): string[] {
  return line.match(TOKEN) ?? [];
}

/**
 * The identifier pairs (`old\0new`) that turn `before` into `after`, or null when the two
 * lines differ in anything else (a value, an operator, a token more or less) or not at all.
 */
export function renamesBetween(before: string, after: string): string[] | null {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length !== b.length) return null;
  const pairs: string[] = [];
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (!IDENTIFIER.test(a[i]!) || !IDENTIFIER.test(b[i]!)) return null;
    pairs.push(`${a[i]}\0${b[i]}`);
  }
  return pairs.length === 0 ? null : pairs;
}

/** Every identifier rename the patch's changed non-test files show, as `old\0new` (candidates). */
export function sourceRenames(files: readonly ChangedFile[], isTestFile: (path: string) => boolean): Set<string> {
  const renames = new Set<string>();
  for (const f of files) {
    if (f.binary || isTestFile(f.path) || f.deletedText.length * f.addedText.length > MAX_PAIRS) continue;
    for (const before of f.deletedText)
      for (const after of f.addedText) for (const pair of renamesBetween(before, after) ?? []) renames.add(pair);
  }
  return renames;
}

/** True when `after` is `before` with only identifiers renamed, each a rename the source shows. */
export function onlyRenamed(before: string, after: string, renames: ReadonlySet<string>): boolean {
  const pairs = renamesBetween(before, after);
  return pairs !== null && pairs.every((p) => renames.has(p));
}

/** Every word of `text` that could be an identifier, strings and comments included. */
export function wordsOf(text: string): Set<string> {
  return new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

/**
 * The candidate renames that are whole and one-to-one: the baseline's name is no word of any
 * patched text, the patch's name no word of any baseline text (so undoing the rename collides
 * with nothing and leaves no use behind), and neither name takes part in another such pair.
 * `baseline` and `patched` are the full texts of the changed code files on each side.
 */
export function confirmedRenames(
  candidates: Iterable<string>,
  baseline: readonly string[],
  patched: readonly string[],
): IdentifierRename[] {
  const before = new Set<string>();
  for (const t of baseline) for (const w of wordsOf(t)) before.add(w);
  const after = new Set<string>();
  for (const t of patched) for (const w of wordsOf(t)) after.add(w);
  const whole = [...new Set(candidates)]
    .map((p) => p.split('\0') as [string, string])
    .filter(([old, now]) => !after.has(old) && !before.has(now));
  const uses = new Map<string, number>();
  for (const [old, now] of whole) for (const n of [`b:${old}`, `p:${now}`]) uses.set(n, (uses.get(n) ?? 0) + 1);
  return whole
    .filter(([old, now]) => uses.get(`b:${old}`) === 1 && uses.get(`p:${now}`) === 1)
    .map(([old, now]) => ({ baseline: old, patch: now }))
    .sort((a, b) => (a.baseline < b.baseline ? -1 : a.baseline > b.baseline ? 1 : 0));
}

/** Offsets `[start, end)` of the identifiers of `text` that lie in code, not in a string or a comment. */
export function codeIdentifiers(text: string, lang: 'js' | 'py'): [number, number][] {
  return lang === 'js' ? jsIdentifiers(text) : pyIdentifiers(text);
}

const WORD_START = /[A-Za-z_$]/;
const WORD_PART = /[\w$]/;

function wordEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && WORD_PART.test(text[j]!)) j++;
  return j;
}

/** JavaScript and TypeScript: quotes and comments skipped, a template literal's `${…}` read as code. */
function jsIdentifiers(text: string): [number, number][] {
  const out: [number, number][] = [];
  // One entry per open `${`: the brace depth inside it.
  const templates: number[] = [];
  const skipTemplate = (from: number): number => {
    for (let i = from; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '`') return i + 1;
      else if (text[i] === '$' && text[i + 1] === '{') {
        templates.push(0);
        return i + 2;
      }
    }
    return text.length;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (c === '/' && text[i + 1] === '*')
      i = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 2;
    else if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      i++;
    } else if (c === '`') i = skipTemplate(i + 1);
    else if (c === '{' && templates.length > 0) {
      templates[templates.length - 1]!++;
      i++;
    } else if (c === '}' && templates.length > 0) {
      if (templates[templates.length - 1] === 0) {
        templates.pop();
        i = skipTemplate(i + 1);
      } else {
        templates[templates.length - 1]!--;
        i++;
      }
    } else if (/\d/.test(c)) i = wordEnd(text, i);
    else if (WORD_START.test(c)) {
      const end = wordEnd(text, i);
      out.push([i, end]);
      i = end;
    } else i++;
  }
  return out;
}

const PY_STRING_PREFIX = /^(?:[rRbBuUfF]|[rR][bBfF]|[bBfF][rR])$/;

/** Python: comments and strings (any prefix, triple-quoted or not, f-strings whole) skipped. */
function pyIdentifiers(text: string): [number, number][] {
  const out: [number, number][] = [];
  const skipString = (at: number): number => {
    const q = text[at]!;
    const triple = text.startsWith(q.repeat(3), at);
    const close = triple ? q.repeat(3) : q;
    for (let i = at + close.length; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text.startsWith(close, i)) return i + close.length;
      else if (!triple && text[i] === '\n') return i;
    }
    return text.length;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '#') i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (c === '"' || c === "'") i = skipString(i);
    else if (/\d/.test(c)) i = wordEnd(text, i);
    else if (WORD_START.test(c) && c !== '$') {
      const end = wordEnd(text, i);
      if (PY_STRING_PREFIX.test(text.slice(i, end)) && (text[end] === '"' || text[end] === "'")) i = skipString(end);
      else {
        out.push([i, end]);
        i = end;
      }
    } else i++;
  }
  return out;
}

/**
 * `text` with every identifier in code that is a patch's name of `renames` given its baseline
 * name back; strings and comments are left as they are. Null when nothing was renamed.
 */
export function renameBack(text: string, lang: 'js' | 'py', renames: readonly IdentifierRename[]): string | null {
  const back = new Map(renames.map((r) => [r.patch, r.baseline]));
  let out = '';
  let at = 0;
  for (const [start, end] of codeIdentifiers(text, lang)) {
    const name = back.get(text.slice(start, end));
    if (name === undefined) continue;
    out += text.slice(at, start) + name;
    at = end;
  }
  return at === 0 ? null : out + text.slice(at);
}
