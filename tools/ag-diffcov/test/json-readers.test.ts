import test from 'ava';
import { LoadError } from '@adversary-gate/schemas';
import { looksCoveragePy, readCoveragePy } from '../src/reports/coveragepy.js';
import { looksIstanbul, readIstanbul } from '../src/reports/istanbul.js';
import { looksLlvm, readLlvm, segmentLines } from '../src/reports/llvm.js';
import { all, table } from './helpers/feed.js';

const istanbul = {
  '/w/src/a.ts': {
    path: '/w/src/a.ts',
    statementMap: {
      '0': { start: { line: 1, column: 0 }, end: { line: 1, column: 9 } },
      '1': { start: { line: 2, column: 0 }, end: { line: 4, column: 1 } },
      '2': { start: { line: 2, column: 4 }, end: { line: 2, column: 9 } },
    },
    s: { '0': 1, '1': 0, '2': 3 },
    fnMap: {},
    f: {},
    branchMap: {},
    b: {},
  },
};

test('istanbul: a line takes the largest count of the statements starting on it', (t) => {
  t.true(looksIstanbul(istanbul));
  t.deepEqual(table(readIstanbul('c.json', istanbul, all)), {
    '/w/src/a.ts': [
      [1, 1],
      [2, 3],
    ],
  });
});

test('istanbul: a statement count that is not a count is refused, naming the field', (t) => {
  const bad = { 'a.ts': { ...istanbul['/w/src/a.ts'], s: { '0': -1 } } };
  const error = t.throws(() => readIstanbul('c.json', bad, all), { instanceOf: LoadError });
  t.regex(error?.message ?? '', /^c\.json: field "a\.ts\.s\.0"/);
});

const coveragepy = {
  meta: { version: '7.4.0', timestamp: 'x', branch_coverage: false, show_contexts: false },
  files: { 'pkg/m.py': { executed_lines: [1, 2, 4], missing_lines: [3], excluded_lines: [5], summary: {} } },
  totals: {},
};

test('coverage.py: executed and missing lines are executable; excluded lines are not', (t) => {
  t.true(looksCoveragePy(coveragepy));
  t.false(looksIstanbul(coveragepy));
  t.deepEqual(table(readCoveragePy('c.json', coveragepy, all)), {
    'pkg/m.py': [
      [1, 1],
      [2, 1],
      [3, 0],
      [4, 1],
    ],
  });
});

test("llvm-cov: segments become line counts with llvm-cov's own rule", (t) => {
  // line 1: region starts (count 5); line 2: wrapped; line 3: gap; line 4: region count 0; line 6: skipped region.
  const segments: [number, number, number, boolean, boolean, boolean][] = [
    [1, 10, 5, true, true, false],
    [3, 1, 0, true, false, true],
    [4, 1, 0, true, true, false],
    [5, 2, 0, false, false, false],
    [6, 1, 0, false, true, false],
    [6, 9, 0, false, false, false],
  ];
  t.deepEqual(
    [...segmentLines(segments)],
    [
      [1, 5],
      [2, 5],
      [3, 5],
      [4, 0],
      [5, 0],
    ],
  );
  const report = {
    type: 'llvm.coverage.json.export',
    version: '2.0.1',
    data: [{ files: [{ filename: '/w/src/x.c', segments, summary: {} }], functions: [] }],
  };
  t.true(looksLlvm(report));
  t.is(readLlvm('l.json', report, all).files.get('/w/src/x.c')?.lines.get(2), 5);
});

test('llvm-cov: a gap segment keeps its flag and does not start a region', (t) => {
  const segments = [
    [1, 1, 0, true, true, false],
    [2, 1, 5, true, true, true],
    [3, 1, 0, false, false, false],
  ];
  const report = {
    type: 'llvm.coverage.json.export',
    version: '2.0.1',
    data: [{ files: [{ filename: 'src/a.c', segments }] }],
  };
  t.is(readLlvm('r.json', report, all).files.get('src/a.c')?.lines.get(2), 0);
});

test('llvm-cov: a segment of seven items is refused', (t) => {
  const report = {
    type: 'llvm.coverage.json.export',
    version: '2.0.1',
    data: [{ files: [{ filename: 'src/a.c', segments: [[1, 1, 0, true, true, false, 9]] }] }],
  };
  t.throws(() => readLlvm('r.json', report, all), { instanceOf: LoadError });
});

test('llvm-cov: a segment on a line beyond any real file is refused, not walked', (t) => {
  const report = {
    type: 'llvm.coverage.json.export',
    version: '2',
    data: [
      {
        files: [
          {
            filename: 'a.c',
            segments: [
              [1, 1, 1, true, true, false],
              [100000000, 1, 0, false, false, false],
            ],
          },
        ],
      },
    ],
  };
  t.throws(() => readLlvm('r.json', report, all), { instanceOf: LoadError, message: /segments\.1.*at most 10000000/ });
});
