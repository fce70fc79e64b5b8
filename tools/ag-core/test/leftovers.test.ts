import test from 'ava';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratch } from './scratch.js';
import { normalizeLeftover, removeLeftovers, sweepLeftovers } from '../src/index.js';

const me = { uid: process.getuid!(), gid: process.getgid!() };

/** A folder standing for /tmp: what `me` left there, another's file, a kept folder, a link out. */
function shared() {
  const dir = mkdtempSync(path.join(scratch, 'shared-'));
  const outside = mkdtempSync(path.join(scratch, 'outside-'));
  writeFileSync(path.join(outside, 'precious'), 'keep\n');
  mkdirSync(path.join(dir, `cache-${me.uid}`));
  writeFileSync(path.join(dir, `cache-${me.uid}`, 'run-4711.log'), 'x');
  writeFileSync(path.join(dir, 'tmp.Ab3dEf9xYz'), 'x');
  symlinkSync(outside, path.join(dir, 'link-out'));
  mkdirSync(path.join(dir, 'work'));
  writeFileSync(path.join(dir, 'work', 'copy.txt'), 'the caller still reads this');
  return { dir, outside };
}

test('a sweep removes what the uid left, names it normalized, and leaves kept folders and link targets alone', async (t) => {
  const { dir, outside } = shared();
  const left = await sweepLeftovers(me, { dirs: [dir], keep: [path.join(dir, 'work')] });
  const at = normalizeLeftover(dir, me.uid);
  t.deepEqual(
    left.paths,
    [`${at}/cache-<uid>`, `${at}/cache-<uid>/run-<n>.log`, `${at}/link-out`, `${at}/tmp.<random>`].sort(),
  );
  t.is(left.total, 4);
  t.false(existsSync(path.join(dir, `cache-${me.uid}`)));
  t.false(existsSync(path.join(dir, 'link-out')));
  t.true(existsSync(path.join(outside, 'precious')), 'a link is removed, never followed');
  t.true(existsSync(path.join(dir, 'work', 'copy.txt')), 'a kept folder is untouched');
});

test('files of another uid stay, and the blocking sweep removes as the listing one does', async (t) => {
  const { dir } = shared();
  const other = path.join(dir, 'theirs');
  writeFileSync(other, 'x');
  if (me.uid === 0) chownSync(other, 4242, 4242);
  removeLeftovers(me, { dirs: [dir], keep: [path.join(dir, 'work')] });
  t.false(existsSync(path.join(dir, 'tmp.Ab3dEf9xYz')));
  t.is(existsSync(other), me.uid === 0, "as root, another uid's file stays");
});

test('two runs of one suite leave names that compare equal; different names stay different', (t) => {
  const a = normalizeLeftover('/tmp/pytest-of-unknown/pytest-3/test_x0/tmpq8_zk2lm/out-171234.txt', 100123);
  const b = normalizeLeftover('/tmp/pytest-of-unknown/pytest-0/test_x0/tmpa1b2c3d4/out-171999.txt', 100456);
  t.is(a, b);
  t.is(normalizeLeftover('/tmp/app-100123/tmp.Zx81QkP0aa', 100123), '/tmp/app-<uid>/tmp.<random>');
  t.is(normalizeLeftover('/dev/shm/node-xyzabc', 7), '/dev/shm/node-<random>', "mkdtemp's tail, lower case only");
  t.is(normalizeLeftover('/tmp/run-99999.log', 7), normalizeLeftover('/tmp/run-100000.log', 7), 'a pid of any length');
  t.is(normalizeLeftover('/var/tmp/tmpab_cdefg.json', 7), '/var/tmp/tmp<random>.json');
  t.not(normalizeLeftover('/tmp/stash.json', 1), normalizeLeftover('/tmp/cache.json', 1));
  t.not(normalizeLeftover('/tmp/a-keys/x', 1), normalizeLeftover('/tmp/b-keys/x', 1));
});

test("a sweep looks only where the uid could have written: another's closed folder is not walked, a shared one is", async (t) => {
  const dir = mkdtempSync(path.join(scratch, 'shared-'));
  const open = path.join(dir, 'open');
  mkdirSync(open);
  chmodSync(open, 0o1777);
  writeFileSync(path.join(open, 'mine.txt'), 'x');
  const closed = path.join(dir, 'closed');
  mkdirSync(closed);
  writeFileSync(path.join(closed, 'inside.txt'), 'x');
  const other = me.uid === 0 ? 4242 : me.uid;
  // As root, both folders belong to another uid: only the one every uid may write in is walked.
  if (me.uid === 0) for (const d of [open, closed]) chownSync(d, other, other);
  chmodSync(closed, 0o755);
  const left = await sweepLeftovers(me, { dirs: [dir] });
  const at = normalizeLeftover(dir, me.uid);
  t.true(left.paths.includes(`${at}/open/mine.txt`), left.paths.join(' '));
  t.false(existsSync(path.join(open, 'mine.txt')));
  t.is(existsSync(path.join(closed, 'inside.txt')), me.uid === 0, left.paths.join(' '));
});
