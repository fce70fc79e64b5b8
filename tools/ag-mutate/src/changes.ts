/**
 * What the diff changed, from the mutation point of view: files an engine can mutate
 * (with their added lines), foreign source no engine judges, deleted source files, and
 * source files whose only change is removed lines.
 * @module
 */
import type { ChangedFile, DiffModel, FileClass } from '@adversary-gate/core';

/** The languages the built-in engines understand. */
export type Language = 'js' | 'python';

/** A changed file an engine will mutate. */
export interface MutableFile {
  readonly path: string;
  readonly language: Language;
  /** New-side numbers of the lines the patch added or modified. */
  readonly lines: ReadonlySet<number>;
}

/** The diff, sorted into what ag-mutate can and cannot judge. */
export interface ChangeSet {
  readonly mutable: readonly MutableFile[];
  /** Changed source files no engine judges (sorted). */
  readonly foreign: readonly string[];
  /** Source files the patch deleted (sorted). */
  readonly deleted: readonly string[];
  /** Source files whose only change is removed lines (nothing left to mutate; sorted). */
  readonly linesRemovedOnly: readonly string[];
  /** True when some non-deleted source-class file has an added line. */
  readonly sourceAdded: boolean;
  /** Test files the patch added or gave added lines (sorted): the likely killers of its mutants. */
  readonly tests: readonly string[];
}

const JS_EXTENSIONS = /\.(?:js|mjs|cjs|jsx|ts|mts|cts|tsx)$/;
const PY_EXTENSIONS = /\.py$/;

/** The engine for a path, or null when no engine judges it. */
export function languageOf(path: string): Language | null {
  if (path.endsWith('.d.ts') || path.endsWith('.d.mts') || path.endsWith('.d.cts')) return null;
  if (JS_EXTENSIONS.test(path)) return 'js';
  if (PY_EXTENSIONS.test(path)) return 'python';
  return null;
}

function hasChange(file: ChangedFile): boolean {
  return file.addedLines.length > 0 || file.deletedLines.length > 0 || file.binary || file.status !== 'modified';
}

/**
 * Sort the diff's files. Tests and plainly-not-code files are ignored; every other file
 * is source. A source file with added lines goes to its engine, or to `foreign` when no
 * engine reads its language (a `.d.ts` declaration included: nothing runs it).
 */
export function sortChanges(model: DiffModel, classify: (path: string) => FileClass): ChangeSet {
  const mutable: MutableFile[] = [];
  const foreign = new Set<string>();
  const deleted = new Set<string>();
  const linesRemovedOnly = new Set<string>();
  let sourceAdded = false;
  const tests = new Set<string>();
  for (const file of model.files) {
    const kind = classify(file.path);
    if (kind === 'test' && file.status !== 'deleted' && file.addedLines.length > 0) tests.add(file.path);
    if (kind !== 'source') continue;
    if (file.status === 'deleted') {
      deleted.add(file.path);
      continue;
    }
    if (!hasChange(file)) continue;
    const language = languageOf(file.path);
    if (file.addedLines.length > 0) sourceAdded = true;
    if (language === null || file.binary) {
      foreign.add(file.path);
    } else if (file.addedLines.length > 0) {
      mutable.push({ path: file.path, language, lines: new Set(file.addedLines) });
    } else if (file.deletedLines.length > 0) {
      linesRemovedOnly.add(file.path);
    }
  }
  mutable.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const sorted = (s: Set<string>) => [...s].sort();
  return {
    mutable,
    foreign: sorted(foreign),
    deleted: sorted(deleted),
    linesRemovedOnly: sorted(linesRemovedOnly),
    sourceAdded,
    tests: sorted(tests),
  };
}
