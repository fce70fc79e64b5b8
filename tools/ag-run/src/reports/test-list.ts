/**
 * The per-test list one report gives, and how duplicates merge.
 * @module
 */
import type { TestResult } from '@adversary-gate/schemas';

/** Counts a report or a runner summary tells of. */
export interface Counts {
  readonly passed: number;
  /** Failures and errors together. */
  readonly failed: number;
  /** Skipped, todo, xfail, cancelled: anything that did not run to a verdict. */
  readonly skipped: number;
  readonly total: number;
}

const RANK: Readonly<Record<TestResult['outcome'], number>> = {
  error: 5,
  failed: 4,
  todo: 3,
  skipped: 2,
  xfail: 1,
  passed: 0,
};

/** Merge tests by id, keeping the worst outcome for an id reported twice, sorted by id. */
export function mergeTests(tests: readonly TestResult[]): TestResult[] {
  const byId = new Map<string, TestResult>();
  for (const t of tests) {
    const prev = byId.get(t.id);
    if (prev === undefined || RANK[t.outcome] > RANK[prev.outcome]) byId.set(t.id, t);
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Count a test list the way a summary would. */
export function countTests(tests: readonly TestResult[]): Counts {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const t of tests) {
    if (t.outcome === 'passed') passed++;
    else if (t.outcome === 'failed' || t.outcome === 'error') failed++;
    else skipped++;
  }
  return { passed, failed, skipped, total: tests.length };
}

/**
 * True for an id that names a test file itself rather than a test in it: node reports a file
 * that crashed before any test as one entry named by its path, pytest a collection error as
 * one entry for the module (after the pytest id resolver: `tests/test_calc.py`).
 */
export function isFileEntry(id: string): boolean {
  return !id.includes('::') && !/\s/.test(id) && /\.(?:py|[cm]?[jt]sx?)$/.test(id);
}

/** An id with every occurrence of `root/` (the tree copy a run used) removed, so both sides name a test alike. */
export function stripRoot(id: string, root: string): string {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return id.split(prefix).join('');
}
