import test from 'ava';
import { classifyPath, makeClassifier, parseUnifiedDiff } from '@adversary-gate/core';
import type { FileCoverage } from '../src/measure/report-index.js';
import { measure as measureSplit, pragmasOf, splitByClass } from '../src/measure/measure.js';

const DIFF = `diff --git a/src/a.js b/src/a.js
--- a/src/a.js
+++ b/src/a.js
@@ -1,2 +1,5 @@
 const a = 1;
+const b = 2;
+// note
+const c = 3; /* istanbul ignore next */
 module.exports = a;
diff --git a/src/new.js b/src/new.js
new file mode 100644
--- /dev/null
+++ b/src/new.js
@@ -0,0 +1,2 @@
+
+run();
diff --git a/test/a.test.js b/test/a.test.js
--- a/test/a.test.js
+++ b/test/a.test.js
@@ -1 +1,2 @@
 t();
+t2();
diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1 +1,2 @@
 # x
+more
diff --git a/old.js b/old.js
deleted file mode 100644
--- a/old.js
+++ /dev/null
@@ -1 +0,0 @@
-gone();
`;

const model = parseUnifiedDiff(DIFF);
const measure = (
  m: typeof model,
  classify: (p: string) => 'test' | 'not_code' | 'source',
  byPath: Map<string, FileCoverage>,
) => measureSplit(splitByClass(m, classify), byPath);
const cov = (entries: [string, [number, number][]][]): Map<string, FileCoverage> =>
  new Map(entries.map(([p, lines]) => [p, { lines: new Map(lines), reportPaths: [p] }]));

test('source files are counted; test, docs and deleted files are not', (t) => {
  const m = measure(
    model,
    classifyPath,
    cov([
      [
        'src/a.js',
        [
          [2, 1],
          [4, 0],
        ],
      ],
    ]),
  );
  t.deepEqual(
    m.files.map((f) => f.path),
    ['src/a.js', 'src/new.js'],
  );
  t.deepEqual(m.excluded_files, [
    { path: 'README.md', class: 'not_code', added_lines: 1 },
    { path: 'test/a.test.js', class: 'test', added_lines: 1 },
  ]);
  t.deepEqual(m.files[0], {
    path: 'src/a.js',
    in_report: true,
    covered: [[2, 2]],
    uncovered: [[4, 4]],
    non_executable: [[3, 3]],
    report_paths: ['src/a.js'],
  });
});

test('a changed source file absent from the report is listed and its code lines are uncovered', (t) => {
  const m = measure(
    model,
    classifyPath,
    cov([
      [
        'src/a.js',
        [
          [2, 1],
          [4, 0],
        ],
      ],
    ]),
  );
  t.deepEqual(m.unmatched_files, ['src/new.js']);
  t.deepEqual(m.files[1], {
    path: 'src/new.js',
    in_report: false,
    covered: [],
    uncovered: [[2, 2]],
    non_executable: [[1, 1]],
    report_paths: [],
  });
  t.deepEqual(m.totals, { measured: 3, covered: 1, uncovered: 2 });
  t.is(m.diff_coverage_ratio, 1 / 3);
  t.is(m.reason, null);
});

test('no executable changed line gives a null ratio with a reason', (t) => {
  const docs = parseUnifiedDiff(
    'diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1 +1,2 @@\n x();\n+// comment\n',
  );
  const m = measure(docs, classifyPath, cov([['src/a.js', [[1, 1]]]]));
  t.is(m.diff_coverage_ratio, null);
  t.is(m.reason, 'no_executable_changed_lines');
  t.deepEqual(m.totals, { measured: 0, covered: 0, uncovered: 0 });
});

test('the policy file classes decide what counts', (t) => {
  // a policy's globs extend the defaults: src/new.js becomes a test, test/a.test.js stays one
  t.deepEqual(
    measure(model, makeClassifier({ test: ['src/new.js'] }), cov([])).files.map((f) => f.path),
    ['src/a.js'],
  );
  // unless the policy replaces them: then test/a.test.js is source and counts
  t.deepEqual(
    measure(model, makeClassifier({ test: ['src/new.js'], replace: ['test'] }), cov([])).files.map((f) => f.path),
    ['src/a.js', 'test/a.test.js'],
  );
});

test('pragmas are found on added lines of source files', (t) => {
  t.deepEqual(pragmasOf(splitByClass(model, classifyPath)), [
    { path: 'src/a.js', line: 4, text: 'const c = 3; /* istanbul ignore next */' },
  ]);
});

test('a file named by two sections of one diff is counted once with its lines united', (t) => {
  const twice = parseUnifiedDiff(
    '--- a/x.py\n+++ b/x.py\n@@ -1 +1,2 @@\n a\n+b\n--- a/x.py\n+++ b/x.py\n@@ -10 +11,2 @@\n c\n+d\n',
  );
  t.deepEqual(splitByClass(twice, classifyPath).source, [{ path: 'x.py', addedLines: [2, 12], addedText: ['b', 'd'] }]);
});
