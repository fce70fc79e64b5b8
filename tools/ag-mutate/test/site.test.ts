import test from 'ava';
import { applySite, lineStarts, mutantId, position, shorten } from '../src/engines/site.js';

test('mutant ids are stable and change with any part of the mutant', (t) => {
  const id = mutantId('a.js', 3, 5, 'EqualityOperator', '<=');
  t.is(id, mutantId('a.js', 3, 5, 'EqualityOperator', '<='));
  t.regex(id, /^m[0-9a-f]{16}$/);
  t.not(id, mutantId('a.js', 3, 6, 'EqualityOperator', '<='));
  t.not(id, mutantId('a.js', 3, 5, 'EqualityOperator', '>='));
  t.not(id, mutantId('a.js', 3, 5, 'EqualityOperator', '<=', '7'));
});

test('positions are 1-based lines and columns', (t) => {
  const starts = lineStarts('ab\ncd\n\nef');
  t.deepEqual(position(starts, 0), { line: 1, column: 1 });
  t.deepEqual(position(starts, 4), { line: 2, column: 2 });
  t.deepEqual(position(starts, 7), { line: 4, column: 1 });
});

test('a site replaces exactly its span', (t) => {
  t.is(applySite('if (a < b) x();', { start: 6, end: 7, replacement: '<=' }), 'if (a <= b) x();');
});

test('long originals are shortened with an ellipsis', (t) => {
  t.is(shorten('x'.repeat(300)).length, 200);
  t.is(shorten('short'), 'short');
});
