/**
 * The file classes ag-oracle judges with: the policy's (extending the defaults), plus what
 * the trees' imports say. A test-named file that source imports is source (ag-core's
 * import check): on the baseline (trusted) side, when no test imports it as well, deleting
 * it loses no test and its lines are no expectations; on the patch side, changing it changes source. Markers and assertions are still read in every
 * test-named file: an import the patch adds must not take a test out of the scan.
 * @module
 */
import {
  classifyTree,
  importLanguage,
  listTreeFiles,
  loadedAsCode,
  makeClassifier,
  mayRunAsCode,
  treeReader,
  type LoadedAsCode,
  type ChangedFile,
  type ClassOverrides,
  type FileClass,
  type ImportedTest,
} from '@adversary-gate/core';
import { isRunnableTest } from './tamper/test-files.js';

/** The classes of one measurement. */
export interface OracleClasses {
  /** By name, under the policy. */
  readonly byName: (path: string) => FileClass;
  /** A file some runner would run as a test by default or the policy names a test, and the baseline's source does not import. */
  readonly isRunnableTest: (path: string) => boolean;
  /** True when the patch changes a source file, counting test-named files the patch's source imports. */
  readonly sourceChanged: boolean;
  /** True for a test-named file the baseline's (trusted) source imports and its tests do not: its lines are code, not expectations. */
  readonly importedByBaseline: (path: string) => boolean;
  /** Test-named files the patch tree's source imports. */
  readonly importedOnPatch: readonly ImportedTest[];
  /** Changed files named like data that the patch tree's source loads with `require()`: code. */
  readonly loadedOnPatch: readonly LoadedAsCode[];
}

/** Build the classes for `files` between `baseline` and `patch`; the trees are walked only when a changed file is test-named JS or Python. */
export function oracleClasses(
  files: readonly ChangedFile[],
  classes: ClassOverrides,
  trees: { baseline: string; patch: string },
): OracleClasses {
  const byName = makeClassifier(classes);
  const policyTest =
    classes.test === null || classes.test === undefined
      ? null
      : makeClassifier({ test: classes.test, replace: ['test'] });
  const named = (p: string) => isRunnableTest(p) || (policyTest !== null && policyTest(p) === 'test');
  const paths = files.flatMap((f) => (f.oldPath === null ? [f.path] : [f.path, f.oldPath]));
  const needed = paths.some((p) => importLanguage(p) !== null && (byName(p) === 'test' || named(p)));
  const onPatch = needed ? classifyTree(trees.patch, classes).promoted : [];
  const baseline = needed ? classifyTree(trees.baseline, classes) : { promoted: [], imported_by_tests: [] };
  // Only a file the baseline's source imports and its tests do not is code alone; a cases
  // table that a script and the tests both import is still the tests' expectations.
  const testData = new Set(baseline.imported_by_tests);
  const importedByBaseline = new Set(baseline.promoted.map((p) => p.path).filter((p) => !testData.has(p)));
  // A changed file named like data may be code that source requires (ag-core's loadedAsCode);
  // the tree is read only when one is a file require() would run (a changed JSON file is not).
  const dataChanged = files.some(
    (f) => f.status !== 'deleted' && !f.binary && byName(f.path) === 'not_code' && mayRunAsCode(f.path),
  );
  const changed = new Set(files.filter((f) => f.status !== 'deleted').map((f) => f.path));
  const loaded = dataChanged
    ? loadedAsCode(listTreeFiles(trees.patch), byName, treeReader(trees.patch)).filter((l) => changed.has(l.path))
    : [];
  const importedByPatch = new Set([...onPatch.map((p) => p.path), ...loaded.map((l) => l.path)]);
  const isSource = (p: string) => byName(p) === 'source' || importedByPatch.has(p);
  return {
    byName,
    isRunnableTest: (p) => named(p) && !importedByBaseline.has(p),
    sourceChanged: files.some((f) => !f.modeOnly && (isSource(f.path) || (f.oldPath !== null && isSource(f.oldPath)))),
    importedByBaseline: (p) => importedByBaseline.has(p),
    importedOnPatch: onPatch,
    loadedOnPatch: loaded,
  };
}
