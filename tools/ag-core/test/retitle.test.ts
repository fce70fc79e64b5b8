import test from 'ava';
import { isRetitle, unexplainedRenames } from '../src/index.js';

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

test('pairs the run matched across several reworded titles are explained when they are a permutation of them', (t) => {
  const path = 'test/format.test.js';
  const retitled = [
    { path, from: 'works', to: 'groups thousands with commas' },
    { path, from: 'works 2', to: 'keeps the sign' },
    { path, from: 'small', to: 'leaves small numbers' },
  ];
  const id = (title: string) => `${path}::${title}`;
  // The run paired two old titles with each other's new one, and one rightly.
  const pairs = [
    { from: id('small'), to: id('groups thousands with commas') },
    { from: id('works'), to: id('leaves small numbers') },
    { from: id('works 2'), to: id('keeps the sign') },
  ];
  t.deepEqual(unexplainedRenames(pairs, retitled), []);
  // A new test whose old title was not reworded (its body changed) stays a rename, and so does its partner.
  const changed = [
    { from: id('small'), to: id('groups thousands with commas') },
    { from: id('works'), to: id('asserts less') },
  ];
  t.deepEqual(unexplainedRenames(changed, retitled), changed);
  // Another file's tests are not explained by this file's titles.
  const other = [{ from: 'test/b.test.js::works', to: 'test/b.test.js::groups thousands with commas' }];
  t.deepEqual(unexplainedRenames(other, retitled), other);
});

test('a moved test file: its kept tests are explained by the move, ids from the baseline path to the patch path', (t) => {
  const moved = {
    path: 'tests/test_normalize.py',
    from_path: 'tests/test_helpers.py',
    from: 'test_slug',
    to: 'test_slug',
  };
  t.true(isRetitle({ from: 'tests/test_helpers.py::test_slug', to: 'tests/test_normalize.py::test_slug' }, moved));
  t.false(
    isRetitle({ from: 'tests/test_helpers.py::test_slug', to: 'tests/test_normalize.py::test_slug_other' }, moved),
  );
  t.false(isRetitle({ from: 'tests/test_other.py::test_slug', to: 'tests/test_normalize.py::test_slug' }, moved));
  const reworded = { ...moved, to: 'test_slugify' };
  t.true(
    isRetitle(
      { from: 'tests/test_helpers.py::test_slug[1]', to: 'tests/test_normalize.py::test_slugify[1]' },
      reworded,
    ),
  );
});

test('a moved file named by the run with its patch path is the same move', (t) => {
  const moved = {
    path: 'tests/test_normalize.py',
    from_path: 'tests/test_helpers.py',
    from: 'test_slug',
    to: 'test_slug',
  };
  const pair = {
    from: 'tests/test_helpers.py::test_slug',
    to: 'tests/test_normalize.py::test_slug',
    file: 'tests/test_normalize.py',
  };
  t.deepEqual(unexplainedRenames([pair], [moved]), []);
});
