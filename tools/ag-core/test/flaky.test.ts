/** The flaky rule's one home: what ag-run lists, ag-decide finds again from the listing. */
import test from 'ava';
import fc from 'fast-check';
import { canonicalJson } from '@adversary-gate/schemas';
import {
  alwaysRed,
  fileOfId,
  flakyFiles,
  flakyFindings,
  listingShowsFlaky,
  type FlakyFinding,
  type FlakyListing,
  type TestSighting,
} from '../src/index.js';

type Outcome = TestSighting['outcome'];

/** Sightings from `{ id: { baseline: [...], patch: [...] } }`, round n for the n-th outcome of a side. */
function seen(tests: Record<string, { baseline?: Outcome[]; patch?: Outcome[] }>): TestSighting[] {
  return Object.entries(tests).flatMap(([id, sides]) =>
    (['baseline', 'patch'] as const).flatMap((side) =>
      (sides[side] ?? []).map((outcome, i) => ({ id, side, round: i + 1, outcome })),
    ),
  );
}

/** The listing ag-run writes for a finding (tests_flaky entry, without its command). */
const listing = (f: FlakyFinding): FlakyListing => ({
  id: f.id,
  runs: f.runs.map(({ side, round, outcome }) => ({ side, round, outcome })),
  ...(f.fileRuns.length > 0 ? { file_runs: f.fileRuns } : {}),
});

// Ids as runners write them: paths, parameters, spaces, percent signs, globs, non-ASCII.
const ODD = [
  'tests/dir with space/test_%2F*.py::test_ünïcödé[a/b-50%]',
  'tests/dir with space/test_%2F*.py::Test Klasse::test ✓ 日本',
  'src/a*b.spec.ts::group > it works / mostly',
  'src/a*b.spec.ts::group > 100% done',
  'plain name without a file',
];

test('passed and failed on one side: flaky by its own runs', (t) => {
  const found = flakyFindings(seen({ 'a.py::x': { baseline: ['passed', 'failed'], patch: ['passed'] } }));
  t.deepEqual(
    found.map((f) => [f.id, f.runs.length, f.fileRuns.length]),
    [['a.py::x', 3, 0]],
  );
});

test('a test failing on the patch in a flaky file is flaky, listed with the runs of the test that makes the file so', (t) => {
  const s = seen({
    'a.py::steady': { baseline: ['passed', 'passed'], patch: ['failed', 'failed', 'failed'] },
    'a.py::wobbly': { baseline: ['passed', 'failed'], patch: ['passed', 'passed', 'passed'] },
    'b.py::other': { baseline: ['passed', 'passed'], patch: ['failed', 'failed', 'failed'] },
  });
  t.deepEqual([...flakyFiles(s)], ['a.py']);
  const found = flakyFindings(s);
  t.deepEqual(
    found.map((f) => f.id),
    ['a.py::steady', 'a.py::wobbly'],
  );
  t.deepEqual(
    found[0]!.fileRuns,
    s.filter((x) => x.id === 'a.py::wobbly'),
  );
  t.deepEqual(found[1]!.fileRuns, []);
  // Its own runs alone do not show it flaky; with its file's, they do.
  t.false(listingShowsFlaky({ ...listing(found[0]!), file_runs: [] }));
  t.true(listingShowsFlaky(listing(found[0]!)));
});

test('a test red in every run on both sides is failing, not flaky: it is listed nowhere, whatever its file', (t) => {
  const red = { baseline: ['failed', 'error'] as Outcome[], patch: ['failed', 'failed', 'failed'] as Outcome[] };
  t.deepEqual(flakyFindings(seen({ 'a.py::red': red })), []);
  t.deepEqual(alwaysRed(seen({ 'a.py::red': red })), ['a.py::red']);
  // Its own runs show no flaky test, so ag-decide refuses a listing of it (ag-run writes none).
  t.false(listingShowsFlaky({ id: 'a.py::red', runs: seen({ 'a.py::red': red }) }));
  // Not even in a flaky file: a sibling that passed and failed does not make a steady failure flaky.
  const s = seen({ 'a.py::red': red, 'a.py::wobbly': { baseline: ['passed', 'failed'], patch: ['passed'] } });
  t.deepEqual(
    flakyFindings(s).map((f) => f.id),
    ['a.py::wobbly'],
  );
  t.deepEqual(alwaysRed(s), ['a.py::red']);
});

test('red on one side only, or not in every run, is not always red: a pass and a failure on one side is flaky', (t) => {
  const s = seen({
    'a.py::once': { baseline: ['passed', 'failed'], patch: ['failed', 'failed'] },
    'b.py::fixed': { baseline: ['failed', 'failed'], patch: ['passed', 'passed'] },
    'c.py::new': { patch: ['failed', 'failed'] },
    'd.py::skip': { baseline: ['failed', 'skipped'], patch: ['failed'] },
  });
  t.deepEqual(alwaysRed(s), []);
  const found = flakyFindings(s);
  // once: a pass and a failure on the baseline, listed with every run counted (both sides).
  t.deepEqual(
    found.map((f) => [f.id, f.runs.map((r) => `${r.side} ${r.round} ${r.outcome}`), f.fileRuns.length]),
    [
      ['a.py::once', ['baseline 1 passed', 'baseline 2 failed', 'patch 1 failed', 'patch 2 failed'], 0],
      ['d.py::skip', ['baseline 1 failed', 'baseline 2 skipped', 'patch 1 failed'], 0],
    ],
  );
  for (const f of found) t.true(listingShowsFlaky(listing(f)), f.id);
});

test('a test red in every run is not flaky itself, but its failure on the baseline still makes its file flaky for a sibling failing on the patch', (t) => {
  const s = seen({
    'a.py::red': { baseline: ['failed'], patch: ['failed', 'failed'] },
    'a.py::sib': { baseline: ['passed'], patch: ['failed', 'failed'] },
  });
  const found = flakyFindings(s);
  t.deepEqual(
    found.map((f) => [f.id, f.fileRuns.map((r) => r.id)]),
    [['a.py::sib', ['a.py::red', 'a.py::red', 'a.py::red']]],
  );
  t.true(listingShowsFlaky(listing(found[0]!)));
  t.deepEqual(alwaysRed(s), ['a.py::red']);
});

test('honest controls: a clean regression, a steady file, and an id with no file are not flaky', (t) => {
  t.deepEqual(flakyFindings(seen({ 'a.py::x': { baseline: ['passed', 'passed'], patch: ['failed', 'failed'] } })), []);
  t.deepEqual(
    flakyFindings(
      seen({
        'no file x': { baseline: ['failed'], patch: ['failed'] },
        'no file y': { baseline: ['passed'], patch: ['failed'] },
      }),
    ),
    [],
  );
  // A witness in another file proves nothing about this one.
  t.false(
    listingShowsFlaky({
      id: 'a.py::x',
      runs: [
        { side: 'baseline', round: 1, outcome: 'passed' },
        { side: 'patch', round: 1, outcome: 'failed' },
      ],
      file_runs: seen({ 'b.py::w': { baseline: ['passed', 'failed'] } }),
    }),
  );
});

test('odd ids (%, /, *, spaces, non-ASCII) keep their file and survive the JSON round trip', (t) => {
  t.is(fileOfId(ODD[0]!), 'tests/dir with space/test_%2F*.py');
  t.is(fileOfId(ODD[2]!), 'src/a*b.spec.ts');
  t.is(fileOfId(ODD[4]!), null);
  const s = seen({
    [ODD[0]!]: { baseline: ['passed', 'passed'], patch: ['failed', 'error'] },
    [ODD[1]!]: { baseline: ['passed', 'failed'], patch: ['passed'] },
    [ODD[2]!]: { baseline: ['failed'], patch: ['failed'] },
    [ODD[3]!]: { baseline: ['passed'], patch: ['failed'] },
  });
  const found = flakyFindings(s);
  // ODD[2] failed in every run on both sides: failing, not flaky; its file makes ODD[3] flaky.
  t.deepEqual(
    found.map((f) => f.id),
    [ODD[3], ODD[0], ODD[1]].sort(),
  );
  t.deepEqual(alwaysRed(s), [ODD[2]]);
  t.deepEqual(
    found.find((f) => f.id === ODD[3])!.fileRuns,
    s.filter((x) => x.id === ODD[2]),
  );
  // Red in every run on both sides, the odd ids are never flaky by themselves.
  const red = seen(Object.fromEntries(ODD.map((id) => [id, { baseline: ['failed', 'error'], patch: ['failed'] }])));
  t.deepEqual(flakyFindings(red), []);
  t.deepEqual(alwaysRed(red), [...ODD].sort());
  for (const id of ODD) t.false(listingShowsFlaky({ id, runs: red.filter((x) => x.id === id) }), id);
  const back = JSON.parse(canonicalJson(found.map(listing))) as FlakyListing[];
  t.deepEqual(back, found.map(listing));
  t.true(back.every(listingShowsFlaky));
});

test('property: every test the rule finds is found again from its listing alone, whatever the other tests did', (t) => {
  const ids = ['a.py::x', 'a.py::y', 'a.py::z', 'b.py::x', 'bare', ...ODD];
  const outcome = fc.constantFrom<Outcome>('passed', 'failed', 'error', 'skipped');
  const sighting = fc.record({
    id: fc.constantFrom(...ids),
    side: fc.constantFrom<'baseline' | 'patch'>('baseline', 'patch'),
    round: fc.integer({ min: 1, max: 6 }),
    outcome,
  });
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.array(sighting, { maxLength: 40 }), (s) => {
        const found = flakyFindings(s);
        for (const f of found) if (!listingShowsFlaky(listing(f))) return false;
        // And nothing else: a test the rule does not find is not shown flaky by its own runs.
        const flaky = new Set(found.map((f) => f.id));
        // A test red in every run on both sides is never found flaky.
        for (const id of alwaysRed(s)) if (flaky.has(id)) return false;
        for (const id of new Set(s.map((x) => x.id)))
          if (!flaky.has(id) && listingShowsFlaky({ id, runs: s.filter((x) => x.id === id) })) return false;
        return true;
      }),
      { numRuns: 2000 },
    ),
  );
});
