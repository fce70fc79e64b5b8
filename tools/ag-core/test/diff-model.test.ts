import test from 'ava';
import { readFileSync } from 'node:fs';
import {
  classifyPath,
  countableFiles,
  DiffParseError,
  formatRange,
  fromRanges,
  parseUnifiedDiff,
  rangeCount,
  sourceAddedLines,
  splitCountable,
  toRanges,
} from '../src/index.js';

const edge = readFileSync(new URL('./fixtures/diff-edge-semantics/patch.diff', import.meta.url), 'utf8');

const added = (text: string) => Object.fromEntries(parseUnifiedDiff(text).files.map((f) => [f.path, f.addedLines]));

test('"\\ No newline at end of file" does not shift the added line numbers', (t) => {
  t.deepEqual(added(edge)['a.py'], [3, 4, 5]);
});

test('git octal-escaped non-ASCII paths are decoded', (t) => {
  t.deepEqual(added(edge)['ünï.py'], [2, 3]);
});

test('renames are keyed by the new path and keep the old one', (t) => {
  const f = parseUnifiedDiff(edge).files.find((x) => x.path === 'new_name.py');
  t.is(f?.status, 'renamed');
  t.is(f?.oldPath, 'old_name.py');
  t.deepEqual(f?.addedLines, [5]);
});

test('deletions, binary files, added files and CRLF lines are told apart', (t) => {
  const files = Object.fromEntries(parseUnifiedDiff(edge).files.map((f) => [f.path, f]));
  t.is(files['gone.py']?.status, 'deleted');
  t.deepEqual(files['gone.py']?.deletedLines, [1, 2, 3, 4, 5]);
  t.true(files['img.bin']?.binary);
  t.is(files['b.py']?.status, 'added');
  t.deepEqual(files['crlf.py']?.addedText, ['n1 = 1', 'n2 = 2']);
  t.deepEqual(files['sp ace.py']?.addedLines, [2]);
});

test('a plain diff -u header with a date is read', (t) => {
  t.deepEqual(added('--- calc.py\t2020-01-01 00:00:00\n+++ calc.py\t2020-01-02 00:00:00\n@@ -1 +1 @@\n-a\n+b\n'), {
    'calc.py': [1],
  });
});

test('a no-newline marker after an added line does not shift later hunks', (t) => {
  const text =
    'diff --git a/x.js b/x.js\n--- a/x.js\n+++ b/x.js\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n';
  t.deepEqual(added(text), { 'x.js': [2] });
});

test('combined diffs are refused', (t) => {
  t.throws(() => parseUnifiedDiff('diff --cc f.c\nindex 1,2..3\n--- a/f.c\n+++ b/f.c\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n'), {
    instanceOf: DiffParseError,
    message: /combined/,
  });
});

test('paths that escape the tree are refused', (t) => {
  t.throws(() => parseUnifiedDiff('--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n'), {
    instanceOf: DiffParseError,
    message: /escapes/,
  });
  t.throws(() => parseUnifiedDiff('--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n'), {
    instanceOf: DiffParseError,
    message: /absolute|escapes/,
  });
});

test('hunks without a file header are refused', (t) => {
  t.throws(() => parseUnifiedDiff('@@ -1 +1 @@\n-a\n+b\n'), { instanceOf: DiffParseError });
});

test('a mode-only change is a change with no lines', (t) => {
  const [f] = parseUnifiedDiff('diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n').files;
  t.true(f?.modeOnly);
  t.deepEqual(f?.addedLines, []);
});

test('an empty diff touches no file', (t) => {
  t.deepEqual(parseUnifiedDiff('').files, []);
});

test('text that names no file is not a diff (never an empty patch)', (t) => {
  t.throws(() => parseUnifiedDiff('garbage\nmore garbage\n'), {
    instanceOf: DiffParseError,
    message: /not a unified diff/,
  });
  t.deepEqual(parseUnifiedDiff('\n').files, []);
});

test('a refused path holding a newline (git quotes it as \\n) is quoted, so the refusal stays one line', (t) => {
  const error = t.throws(
    () =>
      parseUnifiedDiff(
        'diff --git "a/../x\\ny" "b/../x\\ny"\n--- "a/../x\\ny"\n+++ "b/../x\\ny"\n@@ -1 +1 @@\n-a\n+b\n',
      ),
    { instanceOf: DiffParseError },
  );
  t.regex(error?.message ?? '', /escapes the tree: "\.\.\/x\\ny"/);
  t.false(error?.message.includes('\n'));
});

test('a "\\ No newline" marker that opens a hunk is refused as unreadable, not a crash', (t) => {
  const text = 'diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n\\ No newline at end of file\n-a\n+b\n';
  t.throws(() => parseUnifiedDiff(text), {
    instanceOf: DiffParseError,
    message: /No newline at end of file" marker with no line before it/,
  });
});

test('a section marked deleted whose old side is /dev/null is refused, never a file with no path', (t) => {
  const text =
    'diff --git a/gone.py b/gone.py\ndeleted file mode 100644\nnew file mode 100644\n--- /dev/null\n+++ b/x.py\n@@ -0,0 +1 @@\n+a\n';
  t.throws(() => parseUnifiedDiff(text), { instanceOf: DiffParseError, message: /contradicts itself/ });
});

test('a hunk whose lines do not add up to its header (cut short, or an added line in a deletion) is refused, naming the file', (t) => {
  const head = 'diff --git a/x.js b/x.js\n--- a/x.js\n+++ b/x.js\n';
  t.throws(() => parseUnifiedDiff(`${head}@@ -1,4 +1,4 @@\n a\n-b\n+c\n`), {
    instanceOf: DiffParseError,
    message: /"x\.js".*does not hold the lines its header counts/,
  });
  const deletion =
    'diff --git a/gone.py b/gone.py\ndeleted file mode 100644\n--- a/gone.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n+# comment\n-g = 1\n-g = 2\n';
  t.throws(
    () => parseUnifiedDiff(`${deletion}diff --git a/b.py b/b.py\n--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-a\n+b\n`),
    { instanceOf: DiffParseError, message: /"gone\.py"/ },
  );
  t.deepEqual(added(`${head}@@ -1,4 +1,4 @@\n a\n-b\n+c\n d\n e\n`), { 'x.js': [2] });
  // (parse-diff reads the empty string after the last newline as a context line: a hunk one
  // line short at the very end passes; the hunk count check above still catches swallowed headers.)
});

test('a git diff read section by section gives the model the whole text gives (text before the first section keeps it whole)', (t) => {
  const whole = parseUnifiedDiff(`From 0000 Mon Sep 17 00:00:00 2001\nSubject: a patch\n\n${edge}`);
  t.deepEqual(parseUnifiedDiff(edge), whole);
  t.true(whole.files.length >= 8);
});

test('which changed lines count: not deleted, not binary, not mode-only, with an added line (edge-semantics)', (t) => {
  const model = parseUnifiedDiff(edge);
  const countable = countableFiles(model).map((f) => f.path);
  t.deepEqual([...countable].sort(), ['a.py', 'b.py', 'c.py', 'crlf.py', 'new_name.py', 'sp ace.py', 'ünï.py']);
  const lines = sourceAddedLines(model, classifyPath);
  t.deepEqual(
    Object.fromEntries([...lines].map(([p, s]) => [p, [...s]])),
    Object.fromEntries(countableFiles(model).map((f) => [f.path, [...f.addedLines]])),
  );
  t.deepEqual([...(lines.get('a.py') ?? [])], [3, 4, 5]);
  t.false(lines.has('gone.py'));
  t.false(lines.has('img.bin'));
});

test('a path named by two sections of one diff counts once, its lines united and ascending', (t) => {
  const twice = parseUnifiedDiff(
    '--- a/x.py\n+++ b/x.py\n@@ -10 +11,2 @@\n c\n+d\n--- a/x.py\n+++ b/x.py\n@@ -1 +1,2 @@\n a\n+b\n',
  );
  t.deepEqual(countableFiles(twice), [{ path: 'x.py', addedLines: [2, 12], addedText: ['b', 'd'] }]);
  t.deepEqual([...(sourceAddedLines(twice, classifyPath).get('x.py') ?? [])], [2, 12]);
});

test('only source files count; test and not-code files are set aside with their class', (t) => {
  const model = parseUnifiedDiff(
    '--- a/src/a.js\n+++ b/src/a.js\n@@ -1 +1,2 @@\n a\n+b\n--- a/test/a.test.js\n+++ b/test/a.test.js\n@@ -1 +1,2 @@\n a\n+b\n--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n a\n+b\n',
  );
  const split = splitCountable(model, classifyPath);
  t.deepEqual(
    split.source.map((f) => f.path),
    ['src/a.js'],
  );
  t.deepEqual(
    split.other.map((f) => [f.path, f.cls]),
    [
      ['test/a.test.js', 'test'],
      ['README.md', 'not_code'],
    ],
  );
  t.deepEqual([...sourceAddedLines(model, classifyPath).keys()], ['src/a.js']);
  // a classifier that says otherwise moves the file: the rule follows the policy's classes
  t.deepEqual([...sourceAddedLines(model, () => 'source').keys()], ['src/a.js', 'test/a.test.js', 'README.md']);
});

test('line numbers become sorted, merged inclusive ranges, and back', (t) => {
  t.deepEqual(toRanges([5, 1, 2, 3, 9, 10, 3]), [
    [1, 3],
    [5, 5],
    [9, 10],
  ]);
  t.deepEqual(toRanges([]), []);
  const r = toRanges([4, 7, 8, 9]);
  t.is(rangeCount(r), 4);
  t.deepEqual(fromRanges(r), [4, 7, 8, 9]);
  t.is(formatRange([3, 3]), '3');
  t.is(formatRange([3, 5]), '3-5');
});
