/**
 * Code is what runs. Node's `require()` runs a file of any extension it does not know as
 * JavaScript (`require('./rule.txt')`), so a file the name rules call data (`*.txt`, `*.dat`,
 * a file with no extension) that product code requires is code: its lines must be covered
 * and mutated like any other, or be named as not measured. JSON and native addons are what
 * `require()` does not run as JavaScript. Reads relative `require(…)` specifiers of the
 * tree's JS source files (a `createRequire(…)(…)` call too); a computed path is not followed.
 * @module
 */
import path from 'node:path';
import type { FileClass } from './classify.js';
import { importLanguage } from './imports.js';

/** A file named like data that product code loads with `require()`. */
export interface LoadedAsCode {
  readonly path: string;
  /** The first source file (sorted) found requiring it. */
  readonly loaded_by: string;
}

const REQUIRE = [
  /(?<![\w$.])require\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
  /\bcreateRequire\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];

/** What `require()` loads as something other than JavaScript. */
const NOT_RUN = /\.(?:json|node)$/i;

/** True for a file `require()` would run as JavaScript although no JS extension says so. */
export function mayRunAsCode(file: string): boolean {
  return !NOT_RUN.test(file) && importLanguage(file) === null;
}

/**
 * The files of `files` classed `not_code` by name that a JS source file requires by a relative
 * path, sorted. `read` gives a file's text (null: unknown, its requires are not read).
 */
export function loadedAsCode(
  files: readonly string[],
  classify: (p: string) => FileClass,
  read: (p: string) => string | null,
): LoadedAsCode[] {
  const present = new Set(files);
  const found = new Map<string, string>();
  for (const from of files) {
    if (classify(from) !== 'source' || importLanguage(from) !== 'js') continue;
    const text = read(from);
    if (text === null) continue;
    for (const re of REQUIRE) {
      for (const m of text.matchAll(re)) {
        const spec = m[1]!;
        if (!spec.startsWith('./') && !spec.startsWith('../')) continue;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
        if (!present.has(target) || found.has(target) || !mayRunAsCode(target)) continue;
        if (classify(target) === 'not_code') found.set(target, from);
      }
    }
  }
  return [...found]
    .map(([p, by]) => ({ path: p, loaded_by: by }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
