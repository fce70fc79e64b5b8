/**
 * Which files a test runner would run, and which language a test file is written in.
 * @module
 */
import picomatch from 'picomatch';
import { codeLanguage } from '@adversary-gate/core';

const JS = '{js,mjs,cjs,jsx,ts,mts,cts,tsx}';

/**
 * The union of the default test-file patterns of node:test, jest, vitest, mocha, ava and
 * pytest: a file matching one of them is run by some runner's defaults.
 */
export const RUNNER_TEST_GLOBS: readonly string[] = [
  `**/*.{test,spec}.${JS}`,
  `**/*{-,_}test.${JS}`,
  `**/test-*.${JS}`,
  `**/test.${JS}`,
  `**/{test,tests,__tests__,spec}/**/*.${JS}`,
  '**/test_*.py',
  '**/*_test.py',
];

/** Files those runners skip by default even when a pattern above matches. */
export const RUNNER_IGNORE_GLOBS: readonly string[] = [
  '**/node_modules/**',
  '**/{fixtures,__fixtures__,helpers,__helpers__,__helper__}/**',
  '**/_*',
  '**/*.d.{ts,mts,cts}',
];

const runnable = picomatch([...RUNNER_TEST_GLOBS], { dot: true, ignore: [...RUNNER_IGNORE_GLOBS] });

/** True when some runner's default pattern picks `path` up as a test file. */
export function isRunnableTest(path: string): boolean {
  return runnable(path);
}

/** The language whose markers and assertions apply to `path`, or null. */
export function testLanguage(path: string): 'js' | 'py' | null {
  return codeLanguage(path);
}

/**
 * Snapshot files of jest, vitest and ava (`snapshots/<test file>.md` beside its binary
 * `.snap`): recorded expectations, read line by line (a binary one as a whole).
 */
export const SNAPSHOT_GLOBS: readonly string[] = [
  '**/__snapshots__/**',
  '**/*.snap',
  '**/snapshots/**/*.{js,cjs,mjs,ts,cts,mts,jsx,tsx}.md',
];

const snapshot = picomatch([...SNAPSHOT_GLOBS], { dot: true });

/** True for a snapshot file. */
export function isSnapshot(path: string): boolean {
  return snapshot(path);
}
