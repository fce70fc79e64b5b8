import test from 'ava';
import { mapLimit, startLimited } from '../src/pool.js';

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

test('startLimited: every item gets its own promise at once, at most `jobs` run, started in input order', async (t) => {
  let inFlight = 0;
  let peak = 0;
  const started: number[] = [];
  const promises = startLimited([1, 2, 3, 4, 5], 2, async (n) => {
    started.push(n);
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((r) => setImmediate(r));
    inFlight--;
    return n * 10;
  });
  t.is(promises.length, 5);
  t.deepEqual(started, [1, 2], 'two start at once, the rest wait');
  t.is(await promises[4], 50);
  t.deepEqual(await Promise.all(promises), [10, 20, 30, 40, 50]);
  t.deepEqual(started, [1, 2, 3, 4, 5]);
  t.is(peak, 2);
});

test('startLimited: a failure belongs to its item (whoever awaits it gets it; nobody else, and never an unhandled rejection)', async (t) => {
  let unhandled = 0;
  const count = () => unhandled++;
  process.on('unhandledRejection', count);
  t.teardown(() => process.off('unhandledRejection', count));
  const promises = startLimited([1, 2, 3], 1, async (n) => {
    if (n === 2) throw new Error('copy failed');
    return n;
  });
  t.is(await promises[0], 1);
  t.is(await promises[2], 3, 'a later item still runs after a failed one');
  await t.throwsAsync(promises[1]!, { message: 'copy failed' });
  await new Promise((r) => setImmediate(r));
  t.is(unhandled, 0);
});
