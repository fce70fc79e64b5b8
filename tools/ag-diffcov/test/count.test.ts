import test from 'ava';
import { countFile } from '../src/measure/count.js';

const file = { path: 'src/a.py', addedLines: [1, 2, 3, 4], addedText: ['# doc', 'x = 1', '', 'y = 2'] };

test('known and run is covered, known and not run is uncovered, unknown is non-executable', (t) => {
  const hits = new Map([
    [2, 3],
    [4, 0],
  ]);
  t.deepEqual(countFile(file, hits), { covered: [2], uncovered: [4], nonExecutable: [1, 3] });
});

test('a file absent from every report: its code lines are uncovered, blank and comment lines are not', (t) => {
  t.deepEqual(countFile(file, null), { covered: [], uncovered: [2, 4], nonExecutable: [1, 3] });
});
