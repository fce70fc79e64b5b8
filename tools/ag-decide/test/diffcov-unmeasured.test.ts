// unmeasured_files (source none / untrusted): where coverage is unknown. When given, it must be
// exactly the diff's changed source lines (ag-core's rule); older evidence without it still reads.
import test from 'ava';
import { classifyPath, parseUnifiedDiff } from '@adversary-gate/core';
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { sourceAddedLines } from '../src/consistency/changed-lines.js';
import { diffcovProblem } from '../src/consistency/diffcov.js';
import { diffcovReasons } from '../src/rules/diffcov.js';
import { DEFAULT_POLICY } from '@adversary-gate/schemas';

const DIFF = [
  'diff --git a/src/a.js b/src/a.js',
  '--- a/src/a.js',
  '+++ b/src/a.js',
  '@@ -1 +1,3 @@',
  ' a',
  '+b',
  '+c',
  'diff --git a/test/a.test.js b/test/a.test.js',
  '--- a/test/a.test.js',
  '+++ b/test/a.test.js',
  '@@ -1 +1,2 @@',
  ' t',
  '+u',
  '',
].join('\n');
const lines = sourceAddedLines(parseUnifiedDiff(DIFF), classifyPath);

const none = (unmeasured?: { path: string; added: [number, number][] }[]): DiffcovArtefact =>
  ({
    diff_coverage_source: 'none',
    diff_coverage_ratio: null,
    reason: 'no_coverage_report',
    totals: { measured: 0, covered: 0, uncovered: 0 },
    files: [],
    pragmas: [],
    ...(unmeasured === undefined ? {} : { unmeasured_files: unmeasured }),
  }) as unknown as DiffcovArtefact;

test('honest control: the changed source files and their added lines', (t) => {
  t.is(diffcovProblem(none([{ path: 'src/a.js', added: [[2, 3]] }]), lines), null);
  t.is(
    diffcovProblem(
      {
        ...none([{ path: 'src/a.js', added: [[2, 3]] }]),
        diff_coverage_source: 'untrusted',
        diff_coverage_ratio: 1,
        reason: null,
      },
      lines,
    ),
    null,
  );
});

test('older evidence without the field still reads', (t) => {
  t.is(diffcovProblem(none(), lines), null);
});

test('a changed source file left out, a line left out, or a file that is not a changed source file is refused', (t) => {
  t.regex(diffcovProblem(none([]), lines) ?? '', /src\/a\.js is missing from unmeasured_files/);
  t.regex(
    diffcovProblem(none([{ path: 'src/a.js', added: [[2, 2]] }]), lines) ?? '',
    /its lines are not the diff's added lines/,
  );
  t.regex(
    diffcovProblem(
      none([
        { path: 'src/a.js', added: [[2, 3]] },
        { path: 'test/a.test.js', added: [[2, 2]] },
      ]),
      lines,
    ) ?? '',
    /not a changed source file/,
  );
  t.regex(
    diffcovProblem(
      none([
        { path: 'src/a.js', added: [[2, 3]] },
        { path: 'src/a.js', added: [[2, 3]] },
      ]),
      lines,
    ) ?? '',
    /listed twice/,
  );
});

test('a computed measurement lists no unmeasured files', (t) => {
  const d = {
    diff_coverage_source: 'computed',
    diff_coverage_ratio: 0.5,
    reason: null,
    totals: { measured: 2, covered: 1, uncovered: 1 },
    files: [{ path: 'src/a.js', in_report: true, covered: [[2, 2]], uncovered: [[3, 3]], non_executable: [] }],
  } as unknown as DiffcovArtefact;
  t.is(diffcovProblem(d, lines), null);
  t.regex(
    diffcovProblem({ ...d, unmeasured_files: [{ path: 'src/a.js', added: [[2, 3]] }] }, lines) ?? '',
    /unmeasured_files listed for a computed measurement/,
  );
});

test('no report and no changed source file: nothing to cover, no reason; a changed source file unmeasured still holds', (t) => {
  t.deepEqual(diffcovReasons(none([]), DEFAULT_POLICY).reasons, []);
  t.deepEqual(
    diffcovReasons(none([{ path: 'src/a.js', added: [[2, 3]] }]), DEFAULT_POLICY).reasons.map((r) => r.code),
    ['COVERAGE_NOT_MEASURED'],
  );
  t.deepEqual(
    diffcovReasons(none(), DEFAULT_POLICY).reasons.map((r) => r.code),
    ['COVERAGE_NOT_MEASURED'],
    'older evidence without the list',
  );
  const docsOnly = sourceAddedLines(
    parseUnifiedDiff('diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-a\n+b\n'),
    classifyPath,
  );
  t.is(diffcovProblem(none([]), docsOnly), null, 'an empty list is what the diff gives');
  t.not(diffcovProblem(none([]), lines), null, 'an empty list where source changed is refused');
});
