// ag-decide checks diffcov.json against the changed lines by ag-core's rule, the one ag-diffcov
// measures by: the same diff gives the same files and lines on both sides.
import test from 'ava';
import { classifyPath, parseUnifiedDiff } from '@adversary-gate/core';
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { sourceAddedLines } from '../src/consistency/changed-lines.js';
import { diffcovProblem } from '../src/consistency/diffcov.js';

// One path in two sections, a deletion, a binary file and a test file.
const DIFF = [
  'diff --git a/src/a.js b/src/a.js',
  '--- a/src/a.js',
  '+++ b/src/a.js',
  '@@ -10 +10,2 @@',
  ' x',
  '+y',
  'diff --git a/src/gone.js b/src/gone.js',
  'deleted file mode 100644',
  '--- a/src/gone.js',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-g',
  'diff --git a/img.png b/img.png',
  'Binary files a/img.png and b/img.png differ',
  'diff --git a/test/a.test.js b/test/a.test.js',
  '--- a/test/a.test.js',
  '+++ b/test/a.test.js',
  '@@ -1 +1,2 @@',
  ' t',
  '+u',
  'diff --git a/src/a.js b/src/a.js',
  '--- a/src/a.js',
  '+++ b/src/a.js',
  '@@ -1 +1,2 @@',
  ' a',
  '+b',
  '',
].join('\n');

const lines = sourceAddedLines(parseUnifiedDiff(DIFF), classifyPath);

const artefact = (
  files: { path: string; covered: [number, number][]; uncovered: [number, number][] }[],
): DiffcovArtefact => {
  const count = (rs: [number, number][]) => rs.reduce((n, [a, b]) => n + b - a + 1, 0);
  const covered = files.reduce((n, f) => n + count(f.covered), 0);
  const uncovered = files.reduce((n, f) => n + count(f.uncovered), 0);
  return {
    diff_coverage_source: 'computed',
    diff_coverage_ratio: covered / (covered + uncovered),
    reason: null,
    totals: { measured: covered + uncovered, covered, uncovered },
    files: files.map((f) => ({ ...f, non_executable: [], in_report: true, report_paths: [f.path] })),
  } as unknown as DiffcovArtefact;
};

test('the changed source lines are one file with both sections united; deletion, binary and test file left out', (t) => {
  t.deepEqual(Object.fromEntries([...lines].map(([p, s]) => [p, [...s]])), { 'src/a.js': [2, 11] });
});

test('evidence measured on the united lines is consistent (honest control)', (t) => {
  t.is(diffcovProblem(artefact([{ path: 'src/a.js', covered: [[2, 2]], uncovered: [[11, 11]] }]), lines), null);
});

test('evidence that measured only one section of the file is refused', (t) => {
  t.regex(
    diffcovProblem(artefact([{ path: 'src/a.js', covered: [[11, 11]], uncovered: [] }]), lines) ?? '',
    /not the diff's added lines/,
  );
});

test('evidence that counts the deleted file or the test file is refused', (t) => {
  const honest = {
    path: 'src/a.js',
    covered: [[2, 2]] as [number, number][],
    uncovered: [[11, 11]] as [number, number][],
  };
  t.regex(
    diffcovProblem(artefact([honest, { path: 'src/gone.js', covered: [[1, 1]], uncovered: [] }]), lines) ?? '',
    /not a changed source file/,
  );
  t.regex(
    diffcovProblem(artefact([honest, { path: 'test/a.test.js', covered: [[2, 2]], uncovered: [] }]), lines) ?? '',
    /not a changed source file/,
  );
});
