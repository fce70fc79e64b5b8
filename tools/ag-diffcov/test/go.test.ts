import test from 'ava';
import { InputError } from '@adversary-gate/core';
import { GoParser } from '../src/reports/go.js';
import { all, feed, table } from './helpers/feed.js';

const PROFILE = `mode: count
example.com/m/pkg/calc.go:3.24,5.2 1 2
example.com/m/pkg/calc.go:7.20,8.10 1 0
example.com/m/pkg/calc.go:8.10,10.3 1 1
example.com/m/pkg/calc.go:7.20,8.10 1 3
example.com/m/other.go:1.1,2.2 1 0
`;

test('block lines are executable; a repeated block keeps its largest count', (t) => {
  const data = feed(new GoParser('c.out', (p) => p.key.includes('pkg/')), PROFILE);
  t.deepEqual(table(data), {
    'example.com/m/pkg/calc.go': [
      [3, 2],
      [4, 2],
      [5, 2],
      [7, 3],
      [8, 3],
      [9, 1],
      [10, 1],
    ],
  });
  t.is(data.fileCount, 2);
});

test('a line shared by an executed and an unexecuted block is uncovered', (t) => {
  const data = feed(new GoParser('c.out', all), 'mode: set\nm/a.go:1.1,2.5 1 1\nm/a.go:2.5,3.2 1 0\n');
  t.deepEqual(table(data)['m/a.go'], [
    [1, 1],
    [2, 0],
    [3, 0],
  ]);
});

test('refuses a profile without a mode line and a malformed block', (t) => {
  t.throws(() => feed(new GoParser('c.out', all), 'a.go:1.1,2.2 1 1\n'), {
    instanceOf: InputError,
    message: /line 1: expected "mode/,
  });
  t.throws(() => feed(new GoParser('c.out', all), 'mode: set\na.go:1.1 1 1\n'), {
    message: /line 2: not a coverprofile block/,
  });
});

test('a block ending beyond any real line is refused, not walked line by line', (t) => {
  t.throws(() => feed(new GoParser('c.out', all), 'mode: set\na.go:1.1,9007199254740991.1 1 1\n'), {
    instanceOf: InputError,
    message: /line 2: block out of range/,
  });
});
