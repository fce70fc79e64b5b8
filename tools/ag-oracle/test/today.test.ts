import test from 'ava';
import { isRealDate, todayUtc } from '../src/today.js';

test('real dates pass; impossible days and other shapes do not', (t) => {
  for (const ok of ['2026-11-30', '2028-02-29', '1999-01-01']) t.true(isRealDate(ok), ok);
  for (const bad of [
    '2026-02-29',
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-1-01',
    '26-01-01',
    '2026-01-01T00:00:00Z',
    '',
    'tomorrow',
  ])
    t.false(isRealDate(bad), bad);
});

test('today is the UTC calendar date', (t) => {
  t.is(todayUtc(new Date('2026-11-30T23:59:59-05:00')), '2026-12-01');
  t.is(todayUtc(new Date('2026-11-30T00:00:00Z')), '2026-11-30');
});
