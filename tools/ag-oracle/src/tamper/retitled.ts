/**
 * Tests whose title the patch reworded and whose body it left alone (or whose file it moved,
 * git's rename, keeping title and body): a JS `test`/`it`/
 * `describe` (and their `.only`-free variants) whose title literal changed while everything
 * from the callback to its closing brace is the same text, or a Python `def test_…` renamed
 * with its parameters and body unchanged. A body whose lines differ only by identifiers the
 * patch's code renames (ag-core's `sourceRenames`: the call sites of a rename refactor) is the
 * same body. Such a pair is a rename, not a lost test and a new one: ag-decide does not hold on
 * it (TEST_RENAMED stays for every other pair).
 * @module
 */

import { onlyRenamed, sourceRenames, type ChangedFile, type RetitledTest } from '@adversary-gate/core';
import type { SideReader } from './config-scan.js';
import { testLanguage } from './test-files.js';

/** A test or group: its title and the text that makes it what it is (the callback or the body). */
interface Titled {
  readonly title: string;
  readonly body: string;
}

const JS_TITLED =
  /(?<![\w$.])(?:it|test|specify|describe|context|suite)(?:\s*\.\s*(?:serial|concurrent|sequential|each\s*\([^)]*\)))?\s*\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`$\\]*`)\s*,/g;

/** The offset just past the bracket that closes the one opened before `from` (depth 1), skipping strings and comments; -1 when unbalanced. */
function closeOf(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (c === '/' && text[i + 1] === '*')
      i = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 1;
    else if (c === '"' || c === "'" || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function jsTitled(text: string): Titled[] {
  const out: Titled[] = [];
  for (const m of text.matchAll(JS_TITLED)) {
    const start = m.index + m[0].length;
    const end = closeOf(text, start);
    if (end < 0) continue;
    out.push({ title: m[1]!.slice(1, -1), body: text.slice(start, end) });
  }
  return out;
}

const PY_DEF = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(test\w*)[ \t]*(\(.*)$/;

function pyTitled(text: string): Titled[] {
  const lines = text.split('\n');
  const out: Titled[] = [];
  lines.forEach((line, i) => {
    const m = PY_DEF.exec(line);
    if (m === null) return;
    const indent = m[1]!.length;
    const body = [m[3]!];
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!;
      if (l.trim() !== '' && /^[ \t]*/.exec(l)![0].length <= indent) break;
      body.push(l);
    }
    while (body.length > 1 && body[body.length - 1]!.trim() === '') body.pop();
    out.push({ title: m[2]!, body: body.join('\n') });
  });
  return out;
}

/** Titles with exactly one test or group each, by title. */
function byTitle(tests: readonly Titled[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const t of tests) counts.set(t.title, (counts.get(t.title) ?? 0) + 1);
  return new Map(tests.filter((t) => counts.get(t.title) === 1).map((t) => [t.title, t.body]));
}

/** True when `after` is `before`, line for line, but for identifiers `renames` names (`old\0new`). */
function sameBody(before: string, after: string, renames: ReadonlySet<string>): boolean {
  if (before === after) return true;
  if (renames.size === 0) return false;
  const a = before.split('\n');
  const b = after.split('\n');
  return a.length === b.length && a.every((line, i) => line === b[i] || onlyRenamed(line, b[i]!, renames));
}

/**
 * The reworded titles between the baseline's and the patch's text of one test file: a title
 * gone from the patch and a title new on it whose bodies are the same (`sameBody`), each body
 * matched once among the gone and once among the new (so a pair is never a guess).
 */
export function retitledTests(
  path: string,
  before: string,
  after: string,
  lang: 'js' | 'py',
  renames: ReadonlySet<string> = new Set(),
  fromPath?: string,
): RetitledTest[] {
  const read = lang === 'js' ? jsTitled : pyTitled;
  const was = byTitle(read(before));
  const now = byTitle(read(after));
  // A test file the patch moved: each test whose title and body both stayed is one reworded id.
  const kept: RetitledTest[] =
    fromPath === undefined
      ? []
      : [...was].flatMap(([title, body]) =>
          now.has(title) && sameBody(body, now.get(title)!, renames)
            ? [{ path, from_path: fromPath, from: title, to: title }]
            : [],
        );
  const gone = [...was].filter(([title]) => !now.has(title));
  const added = [...now].filter(([title]) => !was.has(title));
  const matches = (list: [string, string][], body: string, old: boolean) =>
    list.filter(([, b]) => (old ? sameBody(b, body, renames) : sameBody(body, b, renames))).length;
  const out: RetitledTest[] = [];
  for (const [from, body] of gone) {
    const match = added.find(([, b]) => sameBody(body, b, renames));
    if (match !== undefined && matches(gone, match[1], true) === 1 && matches(added, body, false) === 1)
      out.push({ path, ...(fromPath === undefined ? {} : { from_path: fromPath }), from, to: match[0] });
  }
  return [...kept, ...out].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

/**
 * The reworded titles of every test file the patch modifies or moves (a text file on both sides;
 * a moved file's kept titles too, each with the baseline's path as `from_path`).
 */
export async function findRetitled(
  files: readonly ChangedFile[],
  isTestFile: (path: string) => boolean,
  read: SideReader,
  renames: ReadonlySet<string> = sourceRenames(files, isTestFile),
): Promise<RetitledTest[]> {
  const out: RetitledTest[] = [];
  for (const f of files) {
    const lang = testLanguage(f.path);
    const moved = f.status === 'renamed' && f.oldPath !== null && f.oldPath !== f.path;
    if ((f.status !== 'modified' && !moved) || f.binary || lang === null || !isTestFile(f.path)) continue;
    const from = moved ? f.oldPath! : f.path;
    const [before, after] = await Promise.all([read('baseline', from), read('patch', f.path)]);
    if (!Buffer.isBuffer(before) || !Buffer.isBuffer(after)) continue;
    out.push(
      ...retitledTests(
        f.path,
        before.toString('utf8'),
        after.toString('utf8'),
        lang,
        renames,
        moved ? from : undefined,
      ),
    );
  }
  return out;
}
