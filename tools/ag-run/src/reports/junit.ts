/**
 * JUnit XML (pytest `--junitxml`, jest-junit, node's junit reporter…) read with a strict
 * streaming parser: each test case's id and outcome, and the counts the suites declare.
 * @module
 */
import { SaxesParser } from 'saxes';
import type { TestResult } from '@adversary-gate/schemas';
import type { Counts } from './test-list.js';

/** What one JUnit report tells. */
export interface JunitReport {
  readonly tests: TestResult[];
  /** Counts the outermost suite elements declare (`tests`, `failures`, `errors`, `skipped`), or null. */
  readonly declared: Counts | null;
}

/** Turns a test case's `classname`/`name`/`file` into a test id (e.g. a pytest node id). */
export type IdResolver = (testcase: { classname: string; name: string; file: string | null }) => string;

/** The default id: `file::name`, else `classname::name`, else `name`. */
export const plainId: IdResolver = ({ classname, name, file }) =>
  file !== null && file !== '' ? `${file}::${name}` : classname !== '' ? `${classname}::${name}` : name;

/**
 * Parse a JUnit document. Throws an Error naming the problem when the XML is malformed
 * or holds no `testsuite`/`testsuites` root.
 */
export function parseJunit(xml: string, resolveId: IdResolver = plainId): JunitReport {
  const parser = new SaxesParser({ xmlns: false });
  const tests: TestResult[] = [];
  let current: { id: string; outcome: TestResult['outcome'] } | null = null;
  let depth = 0;
  let rootSeen = false;
  let declared: { passed: number; failed: number; skipped: number; total: number } | null = null;
  let rootDeclared = false;
  const num = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : 0);
  parser.on('opentag', (tag) => {
    depth++;
    const a = tag.attributes as Record<string, string>;
    if (depth === 1) {
      if (tag.name !== 'testsuites' && tag.name !== 'testsuite')
        throw new Error(`root element is <${tag.name}>, not <testsuites> or <testsuite>`);
      rootSeen = true;
    }
    const counted =
      a.tests !== undefined && (depth === 1 || (depth === 2 && tag.name === 'testsuite' && !rootDeclared));
    if (counted) {
      if (depth === 1) rootDeclared = true;
      const total = num(a.tests);
      const failed = num(a.failures) + num(a.errors);
      const skipped = num(a.skipped ?? a.skips);
      const d = declared ?? { passed: 0, failed: 0, skipped: 0, total: 0 };
      declared = {
        total: d.total + total,
        failed: d.failed + failed,
        skipped: d.skipped + skipped,
        passed: d.passed + total - failed - skipped,
      };
    }
    if (tag.name === 'testcase') {
      const id = resolveId({ classname: a.classname ?? '', name: a.name ?? '', file: a.file ?? null });
      if (id === '') throw new Error('a <testcase> names no test (no name, classname or file)');
      current = { id, outcome: 'passed' };
    } else if (current !== null) {
      if (tag.name === 'failure') current.outcome = 'failed';
      else if (tag.name === 'error' && current.outcome !== 'failed') current.outcome = 'error';
      else if (tag.name === 'skipped' && current.outcome === 'passed')
        current.outcome = /xfail/i.test(a.type ?? '') ? 'xfail' : 'skipped';
    }
  });
  parser.on('closetag', (tag) => {
    depth--;
    if (tag.name === 'testcase' && current !== null) {
      tests.push({ id: current.id, outcome: current.outcome });
      current = null;
    }
  });
  parser.write(xml).close();
  if (!rootSeen) throw new Error('no <testsuites> or <testsuite> element');
  return { tests, declared };
}
