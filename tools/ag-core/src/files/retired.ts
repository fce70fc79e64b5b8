/**
 * A test file retired with its subject: the patch deletes a test file and a code file that test
 * imports (deletes it, not renames it: a renamed subject still exists, so its tests are lost).
 * Those tests cannot load against the patched code at all, so losing them is no regression;
 * it is still something a reviewer must see (ag-oracle's `test_file_retired`, ag-decide's
 * `TEST_RETIRED`), and ag-run's trusted tree leaves the file out instead of failing on it.
 * One rule, here, for every tool that needs it.
 * @module
 */
import type { DiffModel } from '../diff/model.js';
import { importCandidates, importLanguage } from './imports.js';

/** A deleted test file and the deleted files it imports. */
export interface RetiredTest {
  readonly path: string;
  /** The files it imports (resolved on the baseline) that the patch deletes, sorted; never empty. */
  readonly subjects: readonly string[];
}

/** What deciding needs to know of the baseline tree and the project's classes. */
export interface RetiredRules {
  /** A file some runner runs as a test: its deletion loses tests. */
  readonly isRunnableTest: (path: string) => boolean;
  /** Test code (a helper or fixture module is not a subject). */
  readonly isTestFile: (path: string) => boolean;
  /** The baseline's text of a file, or null when it cannot be read. */
  readonly readBaseline: (path: string) => Promise<string | null>;
  readonly existsOnBaseline: (path: string) => Promise<boolean>;
}

/**
 * The deleted files among `text`'s imports (the test file `from`, as on the baseline): each
 * import resolves to its first candidate the baseline holds, as the runtime would load it.
 */
export async function deletedImports(
  from: string,
  text: string,
  deleted: ReadonlySet<string>,
  existsOnBaseline: (path: string) => Promise<boolean>,
): Promise<string[]> {
  const lang = importLanguage(from);
  if (lang === null) return [];
  const found = new Set<string>();
  for (const candidates of importCandidates(from, text, lang)) {
    for (const c of candidates) {
      if (!(await existsOnBaseline(c))) continue;
      if (deleted.has(c)) found.add(c);
      break;
    }
  }
  return [...found].sort();
}

/** The runnable test files `diff` deletes together with a code file they import, sorted by path. */
export async function retiredTests(diff: DiffModel, rules: RetiredRules): Promise<RetiredTest[]> {
  const gone = diff.files.filter((f) => f.status === 'deleted').map((f) => f.oldPath ?? f.path);
  const deletedCode = new Set(gone.filter((p) => !rules.isTestFile(p)));
  if (deletedCode.size === 0) return [];
  const out: RetiredTest[] = [];
  for (const test of gone.filter((p) => rules.isRunnableTest(p)).sort()) {
    const text = await rules.readBaseline(test);
    if (text === null) continue;
    const subjects = await deletedImports(test, text, deletedCode, rules.existsOnBaseline);
    if (subjects.length > 0) out.push({ path: test, subjects });
  }
  return out;
}
