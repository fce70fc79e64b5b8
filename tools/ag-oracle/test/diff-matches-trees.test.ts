import test from 'ava';
import { parseUnifiedDiff } from '@adversary-gate/core';
import { diffTreeMismatch } from '../src/tree/diff-matches-trees.js';

const diff = parseUnifiedDiff(
  'diff --git a/new.js b/new.js\nnew file mode 100644\n--- /dev/null\n+++ b/new.js\n@@ -0,0 +1 @@\n+x\n' +
    'diff --git a/old.js b/old.js\ndeleted file mode 100644\n--- a/old.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n',
).files;

test('trees that match the diff give no fault', async (t) => {
  const trees = { baseline: new Set(['old.js']), patch: new Set(['new.js']) };
  t.deepEqual(await diffTreeMismatch(diff, async (side, p) => trees[side].has(p)), []);
});

test('a new file missing from the patch and a deleted file still there are one fault', async (t) => {
  const trees = { baseline: new Set(['old.js', 'new.js']), patch: new Set(['old.js']) };
  const faults = await diffTreeMismatch(diff, async (side, p) => trees[side].has(p));
  t.is(faults.length, 1);
  t.is(faults[0]!.code, 'DIFF_TREE_MISMATCH');
  t.regex(
    faults[0]!.message,
    /new\.js \(added; absent in the patch tree\).*new\.js \(added; present in the baseline tree\).*old\.js \(deleted; present in the patch tree\)/,
  );
});
