import test from 'ava';
import { diffHeaderPaths } from '../src/paths/diff-header-paths.js';

test('the file headers of a git diff give the paths on both sides, quoted and renamed ones included', (t) => {
  const diff = [
    'diff --git a/src/a.ts b/src/a.ts',
    'index 1..2 100644',
    '--- a/src/a.ts',
    '+++ b/src/a.ts',
    '@@ -1 +1 @@',
    '-old',
    '+new',
    'diff --git a/old name.py b/new name.py',
    'similarity index 100%',
    'rename from old name.py',
    'rename to new name.py',
    'diff --git "a/\\303\\274n.py" "b/\\303\\274n.py"',
    '--- "a/\\303\\274n.py"',
    '+++ "b/\\303\\274n.py"\r',
    'diff --git a/mode only.sh b/mode only.sh',
    'old mode 100644',
    'new mode 100755',
    '--- plain.c\t2024-01-01',
    '+++ plain.c\t2024-01-02',
  ].join('\n');
  const paths = diffHeaderPaths(diff);
  for (const p of ['src/a.ts', 'old name.py', 'new name.py', 'ün.py', 'mode only.sh', 'plain.c'])
    t.true(paths.has(p), p);
  t.false(paths.has('new'));
});

test('paths written as raw UTF-8 bytes are read from the bytes as the diff parser decodes them', (t) => {
  const diff = Buffer.from(
    'diff --git a/ünï.py b/ünï.py\n--- a/ünï.py\n+++ b/ünï.py\n@@ -1 +1 @@\n-+++ b/not/a/header\n++++ b/nor/this\n',
  );
  t.deepEqual([...diffHeaderPaths(diff)], ['ünï.py']);
});

test('a header on the very first line or at the very end without a newline is read', (t) => {
  t.deepEqual([...diffHeaderPaths('+++ b/first.py\n--- a/last.py')].sort(), ['first.py', 'last.py']);
  t.deepEqual([...diffHeaderPaths('')], []);
});
