import test from 'ava';
import { isRetitle } from '../src/index.js';

test('a rename pair is a retitle when the new id is the old with the title replaced once, in the same file', (t) => {
  const r = { path: 'test/a.test.js', from: 'joins words', to: 'joins words with dashes' };
  t.true(isRetitle({ from: 'slug > joins words', to: 'slug > joins words with dashes' }, r));
  t.true(
    isRetitle({ from: 'test/a.test.js::slug > joins words', to: 'test/a.test.js::slug > joins words with dashes' }, r),
  );
  // another file's test of the same title, or another change beside the title
  t.false(isRetitle({ from: 'test/b.test.js::joins words', to: 'test/b.test.js::joins words with dashes' }, r));
  t.false(isRetitle({ from: 'slug > joins words', to: 'slugify > joins words with dashes' }, r));
  const py = { path: 'tests/test_m.py', from: 'test_slug', to: 'test_slug_dashes' };
  t.true(isRetitle({ from: 'tests/test_m.py::test_slug[1]', to: 'tests/test_m.py::test_slug_dashes[1]' }, py));
});
