import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Site } from '../src/engines/site.js';
import { killersFirst, likelyKillersFirst, nodeTestMap, orderTests, pytestMap, stem } from '../src/exec/test-map.js';

test('a test file and its source share a stem', (t) => {
  t.is(stem('src/price.js'), 'price');
  t.is(stem('test/price.test.js'), 'price');
  t.is(stem('test/price.spec.ts'), 'price');
  t.is(stem('tests/test_price.py'), 'price');
  t.is(stem('tests/price_test.py'), 'price');
});

test('likely killers first: the tests named for the mutated file, then the fastest, then by id', (t) => {
  const order = orderTests(
    [
      { id: 'test/slow.test.js', ms: 900 },
      { id: 'test/fast.test.js', ms: 10 },
      { id: 'test/price.test.js', ms: 500 },
      { id: 'test/b.test.js', ms: 10 },
    ],
    'src/price.js',
  ).map((u) => u.id);
  t.deepEqual(order, ['test/price.test.js', 'test/b.test.js', 'test/fast.test.js', 'test/slow.test.js']);
  t.deepEqual(
    orderTests(
      [
        { id: 'tests/test_a.py::t', ms: 1 },
        { id: 'tests/test_price.py::t', ms: 5 },
      ],
      'app/price.py',
    ).map((u) => u.id),
    ['tests/test_price.py::t', 'tests/test_a.py::t'],
  );
  // A file named for an abbreviation of the source (express's `req.fresh.js` for `request.js`) comes next.
  const abbreviated = [
    { id: 'test/app.js::x', ms: 1 },
    { id: 'test/req.fresh.js::y', ms: 9 },
    { id: 'test/re.js::z', ms: 2 },
  ];
  t.deepEqual(
    orderTests(abbreviated, 'lib/request.js').map((u) => u.id),
    ['test/req.fresh.js::y', 'test/app.js::x', 'test/re.js::z'],
  );
});

test('likely killers run on their own first: the tests named for the mutated file, then the rest; one run when either part is empty', (t) => {
  const units = [
    { id: 'test/req.fresh.js::a', ms: 1 },
    { id: 'test/app.js::b', ms: 2 },
    { id: 'test/request.js::c', ms: 3 },
  ];
  const ids = (tiers: { id: string }[][]) => tiers.map((tier) => tier.map((u) => u.id));
  t.deepEqual(ids(likelyKillersFirst(units, 'lib/request.js')), [
    ['test/req.fresh.js::a', 'test/request.js::c'],
    ['test/app.js::b'],
  ]);
  t.deepEqual(ids(likelyKillersFirst(units, 'lib/view.js')), [
    ['test/req.fresh.js::a', 'test/app.js::b', 'test/request.js::c'],
  ]);
  t.deepEqual(ids(likelyKillersFirst(units.slice(0, 1), 'lib/request.js')), [['test/req.fresh.js::a']]);
});

test('known killers run on their own, then every other covering unit in one run; none known changes nothing', (t) => {
  const units = [
    { id: 'test/req.fresh.js::a', ms: 1 },
    { id: 'test/app.js::b', ms: 2 },
    { id: 'test/request.js::c', ms: 3 },
  ];
  const ids = (runs: { units: { id: string }[]; known: boolean }[]) =>
    runs.map((r) => [r.known, r.units.map((u) => u.id)]);
  t.deepEqual(ids(killersFirst(units, 'lib/request.js', new Set(['test/app.js::b']))), [
    [true, ['test/app.js::b']],
    [false, ['test/req.fresh.js::a', 'test/request.js::c']],
  ]);
  // After the known killers, the likely killers and the rest in one run.
  t.deepEqual(ids(killersFirst(units, 'lib/request.js', new Set(['test/request.js::c']))), [
    [true, ['test/request.js::c']],
    [false, ['test/req.fresh.js::a', 'test/app.js::b']],
  ]);
  // A per-file unit holds the killer named by its test's id.
  const files = [
    { id: 'test/req.fresh.js', ms: 1 },
    { id: 'test/app.js', ms: 2 },
  ];
  t.deepEqual(ids(killersFirst(files, 'lib/request.js', new Set(['test/req.fresh.js::req .fresh works']))), [
    [true, ['test/req.fresh.js']],
    [false, ['test/app.js']],
  ]);
  t.deepEqual(ids(killersFirst(units, 'lib/request.js', new Set(['test/gone.js::x']))), [
    [false, ['test/req.fresh.js::a', 'test/request.js::c']],
    [false, ['test/app.js::b']],
  ]);
  t.deepEqual(ids(killersFirst(units.slice(1, 2), 'lib/request.js', new Set(['test/app.js::b']))), [
    [true, ['test/app.js::b']],
  ]);
});

const site = (over: Partial<Site>): Site => ({
  file: 'app/m.py',
  line: 3,
  column: 1,
  start: 0,
  end: 1,
  operator: 'op',
  rank: 1,
  original: 'a',
  replacement: 'b',
  parses: true,
  ...over,
});

test('pytest trace: tests that ran the statement cover it; lines run at import make it unknown; a file never traced is unknown', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-map-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'tree');
  const trace = path.join(dir, 'trace');
  mkdirSync(path.join(root, 'app'), { recursive: true });
  mkdirSync(trace);
  const file = path.join(root, 'app', 'm.py');
  writeFileSync(file, '');
  const record = {
    tests: { '': { [file]: [1] }, 't.py::a': { [file]: [3, 4] }, 't.py::b': { [file]: [4] }, 't.py::c': {} },
    durations: { 't.py::a': 2, 't.py::b': 1 },
  };
  writeFileSync(path.join(trace, '1.json'), JSON.stringify(record));
  const map = pytestMap(trace, root);
  t.is(map.mode, 'per-test');
  t.deepEqual(map.coverers(site({ line: 3, coverLines: [3, 3] })), {
    kind: 'tests',
    tests: [{ id: 't.py::a', ms: 2 }],
  });
  t.deepEqual(map.coverers(site({ line: 5, coverLines: [3, 5] })).kind, 'tests');
  t.deepEqual(map.coverers(site({ line: 7, coverLines: [7, 7] })), { kind: 'none' });
  t.deepEqual(map.coverers(site({ line: 1, coverLines: [1, 1] })), { kind: 'unknown' });
  t.deepEqual(map.coverers(site({ file: 'app/other.py' })), { kind: 'unknown' });
});

/** A tree (with src/ and test/), a folder for what each process ran and one for the preload's unit records; removed after the test. */
function nodeTestFolders(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-map-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'tree');
  const counts = path.join(dir, 'counts');
  const entries = path.join(dir, 'entries');
  for (const d of [path.join(root, 'src'), path.join(root, 'test'), counts, entries]) mkdirSync(d, { recursive: true });
  return { root, counts, entries };
}

test('node:test coverage: a process counts for the test file it was started for; a process no test file owns makes the site unknown', (t) => {
  const { root, counts: cover, entries } = nodeTestFolders(t);
  const url = `file://${path.join(root, 'src', 'a.js')}`;
  // offsets 0–100 the script; 10–20 ran in pid 11 only; 30–40 in pid 13 only (a process of no test file); 50–60 never.
  const script = (counts: [number, number, number]) => ({
    result: [
      {
        url,
        functions: [
          {
            ranges: [
              { startOffset: 0, endOffset: 100, count: 1 },
              { startOffset: 10, endOffset: 20, count: counts[0] },
              { startOffset: 30, endOffset: 40, count: counts[1] },
              { startOffset: 50, endOffset: 60, count: counts[2] },
            ],
          },
        ],
      },
    ],
  });
  writeFileSync(path.join(cover, 'coverage-11-1-0.json'), JSON.stringify(script([1, 0, 0])));
  writeFileSync(path.join(cover, 'coverage-12-1-0.json'), JSON.stringify(script([0, 0, 0])));
  writeFileSync(path.join(cover, 'coverage-13-1-0.json'), JSON.stringify(script([0, 1, 0])));
  writeFileSync(
    path.join(entries, '11.json'),
    JSON.stringify({ unit: path.join(root, 'test', 'a.test.js'), root: true, ms: 30 }),
  );
  writeFileSync(
    path.join(entries, '12.json'),
    JSON.stringify({ unit: path.join(root, 'test', 'b.test.js'), root: true, ms: 10 }),
  );
  writeFileSync(path.join(entries, '13.json'), JSON.stringify({ unit: null, root: false, ms: 5 }));
  const map = nodeTestMap({ v8: cover }, entries, root, new Set(['src/a.js']));
  t.is(map.mode, 'per-test-file');
  const at = (start: number) => map.coverers(site({ file: 'src/a.js', start }));
  t.deepEqual(at(15), { kind: 'tests', tests: [{ id: 'test/a.test.js', ms: 30 }] });
  t.deepEqual(at(35), { kind: 'unknown' });
  t.deepEqual(at(55), { kind: 'none' });
  t.deepEqual(map.coverers(site({ file: 'src/other.js' })), { kind: 'unknown' });
});

test('node:test map from site counters: each test file process counts its own sites; one that ran outside a test file is unknown; a lost count is unknown everywhere', (t) => {
  const { root, counts, entries } = nodeTestFolders(t);
  const file = path.join(root, 'src', 'a.js');
  const record = (pid: number, offsets: number[], unit: string | null) => {
    writeFileSync(path.join(counts, `${pid}-0.started`), '');
    writeFileSync(
      path.join(counts, `${pid}-0.json`),
      JSON.stringify({ pid, thread: 0, files: { [file]: offsets }, lengths: { [file]: 100 } }),
    );
    writeFileSync(path.join(entries, `${pid}.json`), JSON.stringify({ unit, root: unit !== null, ms: 7 }));
  };
  record(11, [15], path.join(root, 'test', 'a.test.js'));
  record(12, [], path.join(root, 'test', 'b.test.js'));
  record(13, [35], null);
  const lengths = new Map([['src/a.js', 100]]);
  const at = (start: number) =>
    nodeTestMap({ counters: counts }, entries, root, new Set(['src/a.js']), lengths).coverers(
      site({ file: 'src/a.js', start }),
    );
  t.deepEqual(at(15), { kind: 'tests', tests: [{ id: 'test/a.test.js', ms: 7 }] });
  t.deepEqual(at(35), { kind: 'unknown' });
  t.deepEqual(at(55), { kind: 'none' });
  writeFileSync(path.join(counts, '14-0.started'), '');
  t.deepEqual(at(15), { kind: 'unknown' });
  t.deepEqual(at(55), { kind: 'unknown' });
});
