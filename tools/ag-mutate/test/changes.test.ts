import test from 'ava';
import { classifyPath, parseUnifiedDiff } from '@adversary-gate/core';
import { languageOf, sortChanges } from '../src/changes.js';

function diffOf(...sections: string[]): string {
  return sections.join('');
}
const modified = (file: string, added: string) =>
  `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1,1 +1,2 @@\n x\n+${added}\n`;
const deleted = (file: string) =>
  `diff --git a/${file} b/${file}\ndeleted file mode 100644\n--- a/${file}\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n`;
const removedLine = (file: string) =>
  `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1,2 +1,1 @@\n x\n-y\n`;

test('engines read JavaScript, TypeScript and Python; declarations and other languages are foreign', (t) => {
  for (const f of ['a.js', 'a.mjs', 'a.cjs', 'a.jsx', 'a.ts', 'a.mts', 'a.cts', 'a.tsx']) t.is(languageOf(f), 'js', f);
  t.is(languageOf('a.py'), 'python');
  for (const f of ['a.d.ts', 'a.sql', 'a.cpp', 'Makefile', 'a.vue']) t.is(languageOf(f), null, f);
});

test('source files are sorted into mutable, foreign, deleted and lines-removed-only; tests and docs are ignored', (t) => {
  const model = parseUnifiedDiff(
    diffOf(
      modified('src/b.js', 'let b = 1;'),
      modified('src/a.py', 'x = 1'),
      modified('db/s.sql', 'select 1;'),
      deleted('src/old.js'),
      removedLine('src/c.ts'),
      modified('test/a.test.js', 'x'),
      modified('README.md', 'hi'),
    ),
  );
  const c = sortChanges(model, classifyPath);
  t.deepEqual(
    c.mutable.map((f) => [f.path, f.language, [...f.lines]]),
    [
      ['src/a.py', 'python', [2]],
      ['src/b.js', 'js', [2]],
    ],
  );
  t.deepEqual(c.foreign, ['db/s.sql']);
  t.deepEqual(c.deleted, ['src/old.js']);
  t.deepEqual(c.linesRemovedOnly, ['src/c.ts']);
  t.true(c.sourceAdded);
});

test('a patch of tests and docs adds no source', (t) => {
  const c = sortChanges(
    parseUnifiedDiff(diffOf(modified('test/a.test.js', 'x'), modified('docs/x.md', 'y'))),
    classifyPath,
  );
  t.false(c.sourceAdded);
  t.deepEqual([c.mutable, c.foreign, c.deleted, c.linesRemovedOnly], [[], [], [], []]);
});
