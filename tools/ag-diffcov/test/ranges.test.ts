import test from 'ava';
import { formatRange, fromRanges, rangeCount, toRanges } from '../src/ranges.js';

test('line numbers become sorted, merged inclusive ranges', (t) => {
  t.deepEqual(toRanges([5, 1, 2, 3, 9, 10, 3]), [
    [1, 3],
    [5, 5],
    [9, 10],
  ]);
  t.deepEqual(toRanges([]), []);
});

test('ranges count and expand back to the same lines', (t) => {
  const r = toRanges([4, 7, 8, 9]);
  t.is(rangeCount(r), 4);
  t.deepEqual(fromRanges(r), [4, 7, 8, 9]);
  t.is(formatRange([3, 3]), '3');
  t.is(formatRange([3, 5]), '3-5');
});
