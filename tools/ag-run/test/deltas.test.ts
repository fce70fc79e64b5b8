import test from 'ava';
import { testDeltas } from '../src/deltas.js';

test('lost, newly skipped and pass→fail tests are listed, sorted', (t) => {
  const d = testDeltas(
    [
      { id: 'gone', outcome: 'passed' },
      { id: 'skipped-now', outcome: 'passed' },
      { id: 'todo-now', outcome: 'failed' },
      { id: 'broke', outcome: 'passed' },
      { id: 'was-skipped', outcome: 'skipped' },
      { id: 'fixed', outcome: 'failed' },
    ],
    [
      { id: 'skipped-now', outcome: 'skipped' },
      { id: 'todo-now', outcome: 'todo' },
      { id: 'broke', outcome: 'error' },
      { id: 'was-skipped', outcome: 'skipped' },
      { id: 'fixed', outcome: 'passed' },
      { id: 'new', outcome: 'passed' },
    ],
  );
  t.deepEqual(d, {
    tests_lost: ['gone'],
    tests_newly_skipped: ['skipped-now', 'todo-now'],
    tests_pass_to_fail: ['broke'],
    tests_renamed: [],
    tests_not_collected: [],
  });
});

test('no per-test report on either side gives null, never empty lists', (t) => {
  t.is(testDeltas(null, []), null);
  t.is(testDeltas([], null), null);
});

test('a lost test whose every possible file is retired (deleted with its subject) is retired, not lost', (t) => {
  const locate = (id: string) =>
    id === 'slug works' ? ['test/slug.test.js'] : id === 'anywhere' ? [] : ['test/cart.test.js'];
  const d = testDeltas(
    [
      { id: 'slug works', outcome: 'passed' },
      { id: 'cart works', outcome: 'passed' },
      { id: 'anywhere', outcome: 'passed' },
    ],
    [],
    { locate, renamed: new Map(), retired: new Set(['test/slug.test.js']) },
  );
  t.deepEqual(d?.tests_retired, ['slug works']);
  // a test found in no file, or in a file that stays, is lost
  t.deepEqual(d?.tests_lost, ['anywhere', 'cart works']);
});
