import test from 'ava';
import { isRunnableTest, testLanguage } from '../src/tamper/test-files.js';

test("files the runners' default patterns pick up are runnable tests", (t) => {
  for (const p of [
    'test/a.test.js',
    'src/a.spec.ts',
    'a_test.mjs',
    'pkg/test-a.cjs',
    'test.js',
    'test/unit/a.js',
    'tests/b.ts',
    '__tests__/c.tsx',
    'spec/d.js',
    'tests/test_calc.py',
    'pkg/calc_test.py',
  ]) {
    t.true(isRunnableTest(p), p);
  }
});

test('helpers, fixtures, declarations, underscored files and sources are not', (t) => {
  for (const p of [
    'test/fixtures/a.js',
    'test/helpers/repo.ts',
    'test/_setup.js',
    'test/types.d.ts',
    'src/a.js',
    'node_modules/x/test/a.js',
    'tests/conftest.py',
    'tests/data.json',
  ]) {
    t.false(isRunnableTest(p), p);
  }
});

test('the language of a test file decides which markers apply', (t) => {
  t.is(testLanguage('a.test.mts'), 'js');
  t.is(testLanguage('a.spec.tsx'), 'js');
  t.is(testLanguage('test_a.py'), 'py');
  t.is(testLanguage('a.snap'), null);
});
