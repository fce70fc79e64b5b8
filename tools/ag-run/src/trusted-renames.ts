/**
 * A rename refactor in the trusted tree. The patch renames an identifier of its code
 * (`c2f` → `celsiusToFahrenheit`) and its test edits follow the rename; the baseline's tests,
 * which the trusted tree keeps, call the old name and could only fail to find it. The trusted
 * tree's copies of the patched code get the old names back (ag-core's `renameBack`: identifiers
 * in code only, strings and comments as the patch has them), so the baseline's tests judge the
 * patched behaviour under the names they call. The tests are never rewritten: what they expect
 * stays the baseline's. A rename is undone only when it is whole and one-to-one over the changed
 * code files (`confirmedRenames`) and a test file the patch edits follows it.
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  codeIdentifiers,
  codeLanguage,
  confirmedRenames,
  isWithin,
  readInside,
  renameBack,
  sourceRenames,
  wordsOf,
  type DiffModel,
  type IdentifierRename,
} from '@adversary-gate/core';
import type { TrustedPlan } from './trusted.js';

/** The renames the trusted tree undoes, and the trusted tree's files that carry them. */
export interface RenamedBack {
  readonly names: readonly IdentifierRename[];
  /** Paths in the trusted tree (patched code) whose identifiers are given their baseline names. */
  readonly files: readonly string[];
}

/** Largest file read for renames: a bigger one leaves the renames undone (the trusted run then shows the names missing). */
const MAX_BYTES = 1024 * 1024;

/** Reads files of the two trees as text, each once (null: unreadable or too large). */
function reader(baseline: string, patch: string): (root: 'baseline' | 'patch', rel: string) => string | null {
  const seen = new Map<string, string | null>();
  return (root, rel) => {
    const key = `${root}\0${rel}`;
    if (!seen.has(key)) {
      const read = readInside(root === 'baseline' ? baseline : patch, rel, MAX_BYTES + 1);
      seen.set(key, read.ok && read.data.length <= MAX_BYTES ? read.data.toString('utf8') : null);
    }
    return seen.get(key)!;
  };
}

/**
 * The renames a `baseline` plan's tree undoes: null when there are none, or when a file they
 * depend on cannot be read (nothing is undone then).
 */
export function planRenamedBack(
  diff: DiffModel,
  plan: TrustedPlan,
  baseline: string,
  patch: string,
): RenamedBack | null {
  if (plan.tree !== 'baseline') return null;
  const text = reader(baseline, patch);
  // Each test file the patch edits (or renames), as [baseline path, patch path].
  const testPaths = new Set(plan.heldBack.filter((h) => h.kind === 'test').map((h) => h.path));
  const editedTests = plan.files
    .filter((f) => testPaths.has(f.path) && (f.change === 'modified' || f.renamed_to !== null))
    .map((f) => [f.path, f.renamed_to ?? f.path] as const);
  if (editedTests.length === 0) return null;
  const taken = plan.fromPatch.filter((c) => c.change !== 'deleted' && codeLanguage(c.path) !== null);
  const takenPaths = new Set(taken.map((c) => c.from ?? c.path));
  const code = diff.files.filter((f) => !f.binary && codeLanguage(f.path) !== null && takenPaths.has(f.path));
  const candidates = sourceRenames(code, () => false);
  if (candidates.size === 0) return null;
  const before = code
    .filter((f) => f.oldPath !== null && f.status !== 'copied')
    .map((f) => text('baseline', f.oldPath!));
  const after = code.map((f) => text('patch', f.path));
  if (before.includes(null) || after.includes(null)) return null;
  const whole = confirmedRenames(candidates, before as string[], after as string[]);
  // Each edited test file's words on both sides, read once for every rename.
  const tests = editedTests.map(([from, to]) => {
    const was = text('baseline', from);
    const now = text('patch', to);
    return was === null || now === null ? null : { was: wordsOf(was), now: wordsOf(now) };
  });
  const followed = whole.filter((r) => tests.some((t) => t !== null && t.was.has(r.baseline) && t.now.has(r.patch)));
  if (followed.length === 0) return null;
  const names = new Set(followed.map((r) => r.patch));
  const files = taken
    .filter((c) => {
      const t = text('patch', c.from ?? c.path);
      const lang = codeLanguage(c.path)!;
      return t !== null && codeIdentifiers(t, lang).some(([s, e]) => names.has(t.slice(s, e)));
    })
    .map((c) => c.path)
    .sort();
  return files.length === 0 ? null : { names: followed, files };
}

/** Give the trusted tree `dest`'s `files` their baseline names back (regular files only: a link is refused). */
export async function undoRenames(dest: string, renamed: RenamedBack): Promise<void> {
  const root = await fs.realpath(dest);
  for (const rel of renamed.files) {
    const full = path.resolve(root, rel);
    if (!isWithin(root, full) || !isWithin(root, await fs.realpath(path.dirname(full))))
      throw new Error(`${rel} leaves the tree`);
    const st = await fs.lstat(full);
    if (!st.isFile()) throw new Error(`${rel} is not a regular file, so its renames cannot be undone`);
    const back = renameBack(await fs.readFile(full, 'utf8'), codeLanguage(rel)!, renamed.names);
    if (back !== null) await fs.writeFile(full, back);
  }
}
