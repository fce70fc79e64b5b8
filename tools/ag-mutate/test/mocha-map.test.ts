import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Site } from '../src/engines/site.js';
import { mochaMap, type MochaRecord } from '../src/exec/mocha-map.js';

const site = (start: number, file = 'src/a.js'): Site => ({
  file,
  line: 1,
  column: 1,
  start,
  end: start + 1,
  operator: 'op',
  rank: 1,
  original: 'a',
  replacement: 'b',
  parses: true,
});

function setup(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-mocha-map-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'tree');
  const records = path.join(dir, 'records');
  const cover = path.join(dir, 'cover');
  for (const d of [path.join(root, 'src'), records, cover]) mkdirSync(d, { recursive: true });
  return { root, records, cover, file: path.join(root, 'src', 'a.js') };
}

test('mocha records: the tests that ran a site cover it; a site run outside every test, or in a child process, is unknown; none ran it: none', (t) => {
  const { root, records, cover, file } = setup(t);
  const record: MochaRecord = {
    pid: 7,
    granularity: 'test',
    units: { 'test/a.js::a one': { [file]: [10, 20] }, 'test/a.js::a two': { [file]: [20] } },
    outside: { [file]: [30] },
    extents: { [file]: 100 },
    durations: { 'test/a.js::a one': 3, 'test/a.js::a two': 1 },
  };
  writeFileSync(path.join(records, '7.json'), JSON.stringify(record));
  // pid 7's own dump is ignored (the hook reset its counters: here it says offset 70 ran);
  // pid 8, a child of a test, ran only the block 45–55.
  const ranges = (late: number) => ({
    result: [
      {
        url: `file://${file}`,
        functions: [
          {
            ranges: [
              { startOffset: 0, endOffset: 100, count: 1 },
              { startOffset: 5, endOffset: 60, count: 0 },
              { startOffset: 45, endOffset: 55, count: 1 },
              { startOffset: 65, endOffset: 100, count: late },
            ],
          },
        ],
      },
    ],
  });
  writeFileSync(path.join(cover, 'coverage-7-1-0.json'), JSON.stringify(ranges(1)));
  writeFileSync(path.join(cover, 'coverage-8-1-0.json'), JSON.stringify(ranges(0)));
  const map = mochaMap(records, { v8: cover }, root, new Map([['src/a.js', 100]]))!;
  t.is(map.mode, 'per-test');
  t.deepEqual(map.coverers(site(10)), { kind: 'tests', tests: [{ id: 'test/a.js::a one', ms: 3 }] });
  t.is(map.coverers(site(20)).kind, 'tests');
  t.deepEqual(map.coverers(site(30)), { kind: 'unknown' });
  t.deepEqual(map.coverers(site(50)), { kind: 'unknown' });
  t.deepEqual(map.coverers(site(70)), { kind: 'none' });
  t.deepEqual(map.coverers(site(10, 'src/b.js')), { kind: 'unknown' });
});

test('mocha records: a script that is not the file text (a loader transformed it) is unknown, never none; no record at all is no map', (t) => {
  const { root, records, cover, file } = setup(t);
  const record: MochaRecord = {
    pid: 7,
    granularity: 'file',
    units: { 'test/a.js': { [file]: [10] } },
    outside: {},
    extents: { [file]: 982 },
    durations: {},
  };
  t.is(mochaMap(records, { v8: cover }, root, new Map([['src/a.js', 295]])), null);
  writeFileSync(path.join(records, '7.json'), JSON.stringify(record));
  const map = mochaMap(records, { v8: cover }, root, new Map([['src/a.js', 295]]))!;
  t.is(map.mode, 'per-test-file');
  t.deepEqual(map.coverers(site(70)), { kind: 'unknown' });
  t.deepEqual(map.coverers(site(10)), { kind: 'unknown' });
});

test('mocha records with site counters: a site another process counted is unknown; a process whose counts were lost leaves no map', (t) => {
  const { root, records, cover: counts, file } = setup(t);
  const record: MochaRecord = {
    pid: 7,
    granularity: 'file',
    units: { 'test/a.js': { [file]: [10, 20] } },
    outside: {},
    extents: { [file]: 100 },
    durations: { 'test/a.js': 4 },
  };
  writeFileSync(path.join(records, '7.json'), JSON.stringify(record));
  const child = { pid: 9, thread: 0, files: { [file]: [20] }, lengths: { [file]: 100 } };
  writeFileSync(path.join(counts, '9-0.started'), '');
  writeFileSync(path.join(counts, '9-0.json'), JSON.stringify(child));
  const map = mochaMap(records, { counters: counts }, root, new Map([['src/a.js', 100]]))!;
  t.deepEqual(map.coverers(site(10)), { kind: 'tests', tests: [{ id: 'test/a.js', ms: 4 }] });
  t.deepEqual(map.coverers(site(20)), { kind: 'unknown' });
  t.deepEqual(map.coverers(site(70)), { kind: 'none' });
  // A child that loaded the file and was killed before it wrote its counts.
  writeFileSync(path.join(counts, '11-0.started'), '');
  t.is(mochaMap(records, { counters: counts }, root, new Map([['src/a.js', 100]])), null);
});
