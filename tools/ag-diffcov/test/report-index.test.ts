import test from 'ava';
import type { ReportData } from '../src/reports/types.js';
import { indexReports } from '../src/measure/report-index.js';
import { makeMatcher } from '../src/paths/match.js';
import { normaliseReportPath } from '../src/paths/normalise.js';

function report(entries: [string, [number, number][]][]): ReportData {
  return {
    format: 'lcov',
    fileCount: entries.length,
    files: new Map(
      entries.map(([k, lines]) => [
        normaliseReportPath(k).key,
        { path: normaliseReportPath(k), lines: new Map(lines) },
      ]),
    ),
  };
}

test('several reports merge: a line is covered when any report ran it', (t) => {
  const m = makeMatcher(['src/a.ts'], '/w');
  const { byPath, faults } = indexReports(
    [
      report([
        [
          'src/a.ts',
          [
            [1, 0],
            [2, 0],
          ],
        ],
      ]),
      report([
        [
          '/w/src/a.ts',
          [
            [2, 5],
            [3, 0],
          ],
        ],
      ]),
    ],
    m,
  );
  t.deepEqual(faults, []);
  t.deepEqual([...byPath.get('src/a.ts')!.lines].sort(), [
    [1, 0],
    [2, 5],
    [3, 0],
  ]);
  t.deepEqual(byPath.get('src/a.ts')!.reportPaths, ['/w/src/a.ts', 'src/a.ts']);
});

test('an exact match wins over a suffix match', (t) => {
  const { byPath } = indexReports(
    [
      report([
        ['/other/src/a.ts', [[1, 0]]],
        ['src/a.ts', [[1, 1]]],
      ]),
    ],
    makeMatcher(['src/a.ts'], null),
  );
  t.deepEqual(byPath.get('src/a.ts')!.reportPaths, ['src/a.ts']);
});

test('two different report files claiming one changed file: fault, and the file stays unmatched', (t) => {
  const { byPath, faults } = indexReports(
    [
      report([
        ['/a/src/x.ts', [[1, 1]]],
        ['/b/src/x.ts', [[1, 0]]],
      ]),
    ],
    makeMatcher(['src/x.ts'], null),
  );
  t.false(byPath.has('src/x.ts'));
  t.is(faults[0]?.code, 'AMBIGUOUS_REPORT_PATH');
});

test('a report entry that fits several changed files: fault, used for none', (t) => {
  const { byPath, faults } = indexReports(
    [report([['src/b.ts', [[1, 1]]]])],
    makeMatcher(['p/src/b.ts', 'q/src/b.ts'], null),
  );
  t.is(byPath.size, 0);
  t.regex(faults[0]?.message ?? '', /could be any of p\/src\/b\.ts, q\/src\/b\.ts/);
});
