/**
 * Imports that follow a moved file: when the patch moves a code file (git's rename) and a hunk
 * of another file only rewrites the module names or paths that named it (`from shop.helpers
 * import slug` made `from shop.text.normalize import slug`, `require('./helpers')` made
 * `require('./text/normalize')`), its revert would import a module that no longer exists: it
 * could only fail to load, which tells nothing of the code. Such a hunk gets no revert, as a
 * hunk that only deletes dead code gets none; the moved file's code is the same code (git's
 * rename), and the baseline's tests judge it in ag-run's trusted tree.
 * @module
 */
import path from 'node:path';
import type { DiffModel } from '@adversary-gate/core';
import type { Hunk } from './hunks.js';

const CODE = /\.(?:py|[cm]?[jt]sx?)$/;

/** The old and new names a moved code file is imported by, from `importer` (a path in the tree). */
export function movedNames(model: DiffModel, importer: string): [string, string][] {
  const out: [string, string][] = [];
  for (const f of model.files) {
    if (f.status !== 'renamed' || f.oldPath === null || f.oldPath === f.path) continue;
    if (!CODE.test(f.oldPath) || !CODE.test(f.path)) continue;
    if (f.path.endsWith('.py') && f.oldPath.endsWith('.py')) out.push(...pythonNames(f.oldPath, f.path));
    else if (!f.path.endsWith('.py') && !f.oldPath.endsWith('.py'))
      out.push(...jsSpecifiers(importer, f.oldPath, f.path));
  }
  return out;
}

/** Dotted module names, from the whole path down to the part below the directories both share. */
function pythonNames(from: string, to: string): [string, string][] {
  const parts = (p: string) =>
    p
      .replace(/\.py$/, '')
      .replace(/\/__init__$/, '')
      .split('/');
  const a = parts(from);
  const b = parts(to);
  let shared = 0;
  while (shared < Math.min(a.length, b.length) - 1 && a[shared] === b[shared]) shared++;
  const out: [string, string][] = [];
  for (let i = 0; i <= shared; i++) out.push([a.slice(i).join('.'), b.slice(i).join('.')]);
  return out;
}

/** Relative specifiers from the importer's directory, with and without the extension. */
function jsSpecifiers(importer: string, from: string, to: string): [string, string][] {
  const spec = (p: string) => {
    const rel = path.posix.relative(path.posix.dirname(importer), p);
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  const bare = (p: string) => p.replace(/\.[cm]?[jt]sx?$/, '');
  return [
    [spec(from), spec(to)],
    [spec(bare(from)), spec(bare(to))],
  ];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `line` with each old name of `names` that stands alone (not part of a longer name) put in its new form. */
function renamed(line: string, names: readonly [string, string][], language: 'js' | 'python'): string {
  let out = line;
  for (const [from, to] of names) {
    const edge = language === 'python' ? '[\\w.]' : '[^\'"`]';
    out = out.replace(new RegExp(`(?<!${edge})${escape(from)}(?!${edge})`, 'g'), to);
  }
  return out;
}

/** True when `hunk` of `text` (the patch's side) changes nothing but the names of moved files, line for line. */
export function followsMove(
  text: string,
  hunk: Hunk,
  names: readonly [string, string][],
  language: 'js' | 'python',
): boolean {
  if (names.length === 0 || hunk.removed.length === 0 || hunk.removed.length !== hunk.newLines) return false;
  const added = text
    .split('\n')
    .slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines)
    .map((l) => l.replace(/\r$/, ''));
  return hunk.removed.every((line, i) => line !== added[i] && renamed(line, names, language) === added[i]);
}
