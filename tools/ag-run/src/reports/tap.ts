/**
 * TAP from `node --test` (its reporter on a pipe): every test with its full name, and the
 * runner's own summary comments (`# pass`, `# fail`, `# cancelled`, …).
 * @module
 */
import { Parser, type Result } from 'tap-parser';
import type { TestResult } from '@adversary-gate/schemas';
import { stripRoot, type Counts } from './test-list.js';

/** What one TAP stream tells. */
export interface TapReport {
  readonly tests: TestResult[];
  /** The summary comments at the end, or null when the stream has none. */
  readonly summary: (Counts & { readonly cancelled: number }) | null;
  /**
   * Top-level entries named by a test file path that carry no subtest: node reports a file
   * this way when it ended without reporting its tests (`process.exit(0)` mid-file) or held none.
   */
  readonly filesWithoutTests: string[];
}

function outcomeOf(a: Result): TestResult['outcome'] {
  if (a.todo !== false) return 'todo';
  if (a.skip !== false) return 'skipped';
  return a.ok ? 'passed' : 'failed';
}

/**
 * Parse a TAP stream. Names that start with `root` (the tree copy the run used) are made
 * relative to it, so the same test has the same id on both sides.
 */
export function parseTap(text: string, root: string): TapReport {
  const tests: TestResult[] = [];
  const filesWithoutTests: string[] = [];
  const comments: string[] = [];
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const clean = (name: string) => stripRoot(name, root);
  const attach = (p: Parser, top: boolean) => {
    let childAsserts = 0;
    p.on('child', (c: Parser) => {
      childAsserts = 0;
      c.on('assert', () => childAsserts++);
      attach(c, false);
    });
    p.on('assert', (a: Result) => {
      const id = clean(a.fullname || a.name || `#${a.id}`);
      tests.push({ id, outcome: outcomeOf(a) });
      if (top && childAsserts === 0 && (a.name ?? '').startsWith(prefix)) filesWithoutTests.push(id);
      childAsserts = 0;
    });
    if (top) p.on('comment', (c: string) => comments.push(c));
  };
  const parser = new Parser();
  attach(parser, true);
  parser.end(text);
  return { tests, summary: summaryOf(comments), filesWithoutTests };
}

function summaryOf(comments: readonly string[]): TapReport['summary'] {
  const value = (key: string): number | null => {
    let found: number | null = null;
    for (const c of comments) {
      const m = new RegExp(`^# ${key} (\\d+)\\s*$`).exec(c);
      if (m) found = Number(m[1]);
    }
    return found;
  };
  const total = value('tests');
  const passed = value('pass');
  const failed = value('fail');
  if (total === null || passed === null || failed === null) return null;
  const cancelled = value('cancelled') ?? 0;
  return { total, passed, failed, cancelled, skipped: (value('skipped') ?? 0) + (value('todo') ?? 0) + cancelled };
}

/** Text that registers tests: the runner imported, or a call of a test or suite function. */
const REGISTERS_TESTS =
  /\bnode:test\b|\brequire\s*\(\s*['"]test['"]\s*\)|\bfrom\s+['"]test['"]|\b(?:describe|it|test|suite)\s*(?:\.\s*[\w$]+\s*)*\(/;

/**
 * Could a file with this text hold tests of its own? node runs every script under a `test`
 * folder, so a helper module there is reported as a file with no test; one whose text neither
 * imports the runner nor calls a test function is such a helper, not a test file that ended
 * early. The text must come from the original tree, never from the copy the tests ran in.
 */
export function mayHoldTests(text: string): boolean {
  return REGISTERS_TESTS.test(text);
}

/** `report` without the files that `text(file)` shows to be helpers (a file whose text cannot be read stays). */
export function withoutHelperFiles(report: TapReport, text: (file: string) => string | null): TapReport {
  const filesWithoutTests = report.filesWithoutTests.filter((f) => {
    const t = text(f);
    return t === null || mayHoldTests(t);
  });
  return { ...report, filesWithoutTests };
}
