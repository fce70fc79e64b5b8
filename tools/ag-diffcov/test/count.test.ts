import test from 'ava';
import { countFile } from '../src/measure/count.js';

const file = { path: 'src/a.py', addedLines: [1, 2, 3, 4], addedText: ['# doc', 'x = 1', '', 'y = 2'] };

test('known and run is covered, known and not run is uncovered, unknown is non-executable', (t) => {
  const hits = new Map([
    [2, 3],
    [4, 0],
  ]);
  t.like(countFile(file, hits), { covered: [2], uncovered: [4], nonExecutable: [1, 3], partlyRun: [] });
});

test('a file absent from every report: its code lines are uncovered, blank and comment lines are not', (t) => {
  t.like(countFile(file, null), { covered: [], uncovered: [2, 4], nonExecutable: [1, 3] });
});

test('a line the report ran in part is uncovered, unless its text holds no code of its own', (t) => {
  const js = {
    path: 'a.js',
    addedLines: [1, 2, 3],
    addedText: ['if (x) return 1; const z = 2;', '} finally {', 'y();'],
  };
  const hits = new Map([
    [1, 1],
    [2, 1],
    [3, 1],
  ]);
  t.like(countFile(js, hits, { partial: new Set([1, 2]) }), { covered: [2, 3], uncovered: [1], partlyRun: [1] });
});

test('under a pragma or excluded by the report: code is uncovered whatever the hits; a comment the report ran is not counted', (t) => {
  const js = {
    path: 'a.js',
    addedLines: [1, 2, 3, 4, 5],
    addedText: ['/* c8 ignore next 2 */', 'a();', '// note', 'b();', 'c();'],
  };
  const hits = new Map([
    [1, 1],
    [2, 1],
    [3, 1],
    [4, 1],
    [5, 1],
  ]);
  const c = countFile(js, hits, { excluded: new Set([5]) });
  t.like(c, { covered: [4], uncovered: [2, 5], nonExecutable: [1, 3], excludedByReport: [5] });
  t.deepEqual([...c.ignored], [[0, [2]]]);
});
