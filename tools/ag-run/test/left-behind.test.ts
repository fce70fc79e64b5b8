import test from 'ava';
import { leftBehind } from '../src/left-behind.js';

const swept = (side: 'baseline' | 'patch', paths: string[]) => ({ side, leftovers: { paths, total: paths.length } });

test('what each side left, and what only the patch side left, from every execution', (t) => {
  const left = leftBehind([
    swept('baseline', ['/tmp/cache-<random>']),
    swept('baseline', []),
    swept('patch', ['/tmp/cache-<random>', '/var/tmp/stash.json']),
    swept('patch', ['/dev/shm/x']),
  ]);
  t.deepEqual(left, {
    baseline: ['/tmp/cache-<random>'],
    baseline_total: 1,
    patch: ['/dev/shm/x', '/tmp/cache-<random>', '/var/tmp/stash.json'],
    patch_total: 3,
    patch_only: ['/dev/shm/x', '/var/tmp/stash.json'],
    patch_only_total: 2,
  });
});

test('lists are cut at 50, totals are not; runs as the caller record nothing', (t) => {
  const many = Array.from({ length: 60 }, (_, i) => `/tmp/f${String(i).padStart(2, '0')}`);
  const left = leftBehind([swept('baseline', []), swept('patch', many)])!;
  t.is(left.patch.length, 50);
  t.is(left.patch_total, 60);
  t.is(left.patch_only_total, 60);
  t.deepEqual(left.patch_only, many.slice(0, 50));
  t.is(leftBehind([{ side: 'patch', leftovers: null }]), null);
});
