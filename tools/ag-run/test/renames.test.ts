import test from 'ava';
import { testDeltas, testDeltasOver, type DeltaContext } from '../src/deltas.js';
import { fileOfId } from '@adversary-gate/core';
import { nameOfId, pairRenames, type Locator } from '../src/renames.js';

const where =
  (files: Record<string, { baseline?: string[]; patch?: string[] }>): Locator =>
  (id, side) =>
    files[id]?.[side] ?? (fileOfId(id) === null ? [] : [fileOfId(id)!]);
const ctx = (locate: Locator, renamed: Record<string, string> = {}): DeltaContext => ({
  locate,
  renamed: new Map(Object.entries(renamed)),
});

test('ids: the file part only when it names a file; the name without pytest parameters', (t) => {
  t.is(fileOfId('tests/test_a.py::TestX::test_y'), 'tests/test_a.py');
  t.is(fileOfId('test::adds'), null);
  t.is(fileOfId('adds'), null);
  t.is(nameOfId('tests/test_a.py::test_y[1-2]'), 'test_y');
  t.is(nameOfId('ParseError > should parse'), 'should parse');
});

test('a test renamed in its file is a rename pair, not a loss', (t) => {
  const d = testDeltas(
    [{ id: 'tests/test_a.py::test_old', outcome: 'passed' }],
    [{ id: 'tests/test_a.py::test_new', outcome: 'passed' }],
    ctx(where({})),
  )!;
  t.deepEqual(d.tests_lost, []);
  t.deepEqual(d.tests_renamed, [
    { from: 'tests/test_a.py::test_old', to: 'tests/test_a.py::test_new', file: 'tests/test_a.py' },
  ]);
});

test('the next cheat of the kind: a test deleted here and a stand-in added in another file is still lost', (t) => {
  const d = testDeltas(
    [{ id: 'tests/test_a.py::test_old', outcome: 'passed' }],
    [{ id: 'tests/test_b.py::test_trivial', outcome: 'passed' }],
    ctx(where({})),
  )!;
  t.deepEqual(d.tests_lost, ['tests/test_a.py::test_old']);
  t.deepEqual(d.tests_renamed, []);
});

test('a renamed file carries its tests: old path → new path pairs them', (t) => {
  const d = testDeltas(
    [{ id: 'tests/test_a.py::test_x', outcome: 'passed' }],
    [{ id: 'tests/test_b.py::test_x', outcome: 'passed' }],
    ctx(where({}), { 'tests/test_a.py': 'tests/test_b.py' }),
  )!;
  t.deepEqual(d.tests_renamed, [
    { from: 'tests/test_a.py::test_x', to: 'tests/test_b.py::test_x', file: 'tests/test_b.py' },
  ]);
});

test('file-less ids (node TAP) pair through the file the locator finds each name in', (t) => {
  const locate = where({
    'ParseError > parses': { baseline: ['src/index.spec.ts'] },
    'PathError > parses': { patch: ['src/index.spec.ts'] },
    other: { patch: ['test/x.js'] },
  });
  const d = testDeltas(
    [
      { id: 'ParseError > parses', outcome: 'passed' },
      { id: 'gone', outcome: 'passed' },
    ],
    [
      { id: 'PathError > parses', outcome: 'passed' },
      { id: 'other', outcome: 'passed' },
    ],
    ctx(locate),
  )!;
  t.deepEqual(d.tests_renamed, [{ from: 'ParseError > parses', to: 'PathError > parses', file: 'src/index.spec.ts' }]);
  t.deepEqual(d.tests_lost, ['gone'], 'a test no file of the patch names stays lost');
});

test('two lost, one added in the file: the most similar pairs, the other stays lost', (t) => {
  const r = pairRenames(['f.py::test_add_one', 'f.py::test_sub'], ['f.py::test_add_one_more'], where({}), new Map());
  t.deepEqual(
    r.renamed.map((p) => p.from),
    ['f.py::test_add_one'],
  );
  t.deepEqual(r.lost, ['f.py::test_sub']);
});

test('a test whose file failed to load on the patch is not collected, not lost', (t) => {
  const d = testDeltas(
    [
      { id: 'tests/test_calc.py::test_add', outcome: 'passed' },
      { id: 'tests/test_ok.py::test_b', outcome: 'passed' },
    ],
    [
      { id: 'tests/test_calc.py', outcome: 'error' },
      { id: 'tests/test_ok.py::test_b', outcome: 'passed' },
    ],
    ctx(where({})),
  )!;
  t.deepEqual(d.tests_not_collected, ['tests/test_calc.py::test_add']);
  t.deepEqual(d.tests_lost, []);
  t.deepEqual(d.tests_renamed, [], 'the crashed file is no new test');
});

test('over several runs: pass→fail needs a pass in every baseline run and no pass on the patch', (t) => {
  const d = testDeltasOver(
    [
      [
        { id: 'flaky', outcome: 'passed' },
        { id: 'broke', outcome: 'passed' },
      ],
      [
        { id: 'flaky', outcome: 'failed' },
        { id: 'broke', outcome: 'passed' },
      ],
    ],
    [
      [
        { id: 'flaky', outcome: 'failed' },
        { id: 'broke', outcome: 'failed' },
      ],
      [
        { id: 'flaky', outcome: 'passed' },
        { id: 'broke', outcome: 'failed' },
      ],
    ],
  )!;
  t.deepEqual(d.tests_pass_to_fail, ['broke']);
});
