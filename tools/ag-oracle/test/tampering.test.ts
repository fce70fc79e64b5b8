import test from 'ava';
import { parseUnifiedDiff } from '@adversary-gate/core';
import { findTampering, type TamperContext } from '../src/tamper/tampering.js';
import { isRunnableTest } from '../src/tamper/test-files.js';
import { ONLY_A, OPENS_A, OPENS_A_SKIPPED, skippedIt } from './fixtures/markers.js';

const ctx = (onBaseline: string[]): TamperContext => ({
  isTestFile: isRunnableTest,
  isRunnableTest,
  existsOnBaseline: async (p) => onBaseline.includes(p),
  read: async () => null,
  sourceChanged: false,
  isRecordedExpectation: () => null,
  importedBySource: () => false,
});

test('a marker in a copy of a test file is in a new file: it holds, and the copy removes no assertion', async (t) => {
  const diff = parseUnifiedDiff(
    `diff --git a/test/a.test.js b/test/b.test.js\nsimilarity index 80%\ncopy from test/a.test.js\ncopy to test/b.test.js\n--- a/test/a.test.js\n+++ b/test/b.test.js\n@@ -1,2 +1,2 @@\n-${OPENS_A}\n-  assert.ok(1);\n+${OPENS_A_SKIPPED}\n+  run();\n`,
  );
  t.deepEqual(
    (await findTampering(diff.files, ctx(['test/a.test.js']))).map((f) => [f.kind, f.path, f.line]),
    [['skip_added_new_file', 'test/b.test.js', 1]],
  );
});

test('a file the diff calls new but the baseline holds counts as existing', async (t) => {
  const diff = parseUnifiedDiff(
    `diff --git a/test/a.test.js b/test/a.test.js\nnew file mode 100644\n--- /dev/null\n+++ b/test/a.test.js\n@@ -0,0 +1 @@\n+${ONLY_A}\n`,
  );
  t.deepEqual(
    (await findTampering(diff.files, ctx(['test/a.test.js']))).map((f) => f.kind),
    ['skip_added'],
  );
  t.deepEqual(
    (await findTampering(diff.files, ctx([]))).map((f) => f.kind),
    ['skip_added_new_file'],
  );
});

test('findings come sorted by path and line', async (t) => {
  const diff = parseUnifiedDiff(
    `diff --git a/z.test.js b/z.test.js\n--- a/z.test.js\n+++ b/z.test.js\n@@ -1,2 +1,2 @@\n-a\n-b\n+${skippedIt('b')}\n+${skippedIt('a')}\n` +
      'diff --git a/conftest.py b/conftest.py\nnew file mode 100644\n--- /dev/null\n+++ b/conftest.py\n@@ -0,0 +1 @@\n+x\n',
  );
  t.deepEqual(
    (await findTampering(diff.files, ctx(['z.test.js']))).map((f) => `${f.path}:${f.line}`),
    ['conftest.py:1', 'z.test.js:1', 'z.test.js:2'],
  );
});
