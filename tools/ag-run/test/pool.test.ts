import test from 'ava';
import { mapLimit } from '../src/pool.js';

test('never more than `jobs` in flight, results in input order', async (t) => {
  let inFlight = 0;
  let peak = 0;
  const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((r) => setImmediate(r));
    inFlight--;
    return n * 10;
  });
  t.deepEqual(out, [50, 10, 40, 20, 30]);
  t.is(peak, 2);
});

test('an empty list resolves at once', async (t) => {
  t.deepEqual(await mapLimit([], 4, async () => 1), []);
});
