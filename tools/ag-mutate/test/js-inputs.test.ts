// The inputs the JavaScript judge tries beside the recorded calls: one argument changed at a
// time, to a value near it or to another argument's of its kind (where a comparison between
// two arguments turns), never a recorded call again.
import test from 'ava';
import { neighbours } from '../src/apart/js-inputs.js';

const none = { ints: [], strs: [] };
const key = (x: unknown) => JSON.stringify(x);

test('a number meets the other number of its call: `subtotal > freeFrom` is tried at subtotal === freeFrom', (t) => {
  const near = neighbours([[30, 50]], none).map(key);
  t.true(near.includes(key([50, 50])), near.join(' '));
  t.true(near.includes(key([30, 30])), near.join(' '));
  t.true(near.includes(key([29, 50])), 'a value near it, as before');
});

test('only another argument of the same kind is taken; a recorded call is never a neighbour', (t) => {
  const near = neighbours(
    [
      [3, 'a'],
      [3, 3],
    ],
    none,
  ).map(key);
  t.false(near.includes(key(['a', 'a'])), 'a string is no number');
  t.false(near.includes(key([3, 3])), 'recorded');
});
