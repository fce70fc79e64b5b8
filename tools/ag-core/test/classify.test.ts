import test from 'ava';
import { classifyPath, makeClassifier } from '../src/index.js';

test('test files by JS/TS and Python conventions', (t) => {
  for (const p of ['test/a.js', 'src/__tests__/x.ts', 'pkg/foo.test.ts', 'a/b.spec.mjs', 'tests/test_x.py', 'test_x.py', 'x_test.py', 'conftest.py']) {
    t.is(classifyPath(p), 'test', p);
  }
});

test('docs, images, lock files and data are not code', (t) => {
  for (const p of ['README.md', 'docs/guide.rst', 'logo.png', 'package-lock.json', 'data/x.csv', 'LICENSE', '.gitignore', 'types.pyi', 'src/index.d.ts']) {
    t.is(classifyPath(p), 'not_code', p);
  }
});

test('anything unrecognised counts as source', (t) => {
  for (const p of ['src/a.js', 'calc.py', 'schema.sql', 'vec.cpp', 'Makefile', 'lib/x.vue', 'src/types.ts']) t.is(classifyPath(p), 'source', p);
});

test('the policy can override the test globs', (t) => {
  const classify = makeClassifier({ test: ['checks/**'] });
  t.is(classify('checks/a.js'), 'test');
  t.is(classify('test/a.js'), 'source');
});
