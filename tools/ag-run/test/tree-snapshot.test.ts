import test from 'ava';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { compareSnapshots, hashIfFile, snapshotTree, snapshotTrees } from '../src/tree-snapshot.js';
import { smallTrees } from './helpers/small-tree.js';

const { tree, removeAll } = smallTrees('ag-snap-');

test.after.always(removeAll);

test('an untouched tree compares equal, reads included', async (t) => {
  const dir = await tree();
  const before = await snapshotTree(dir);
  await fs.readFile(path.join(dir, 'src', 'a.py'));
  t.deepEqual(compareSnapshots(before, await snapshotTree(dir)), []);
});

test('added, removed and changed entries are named, a changed symlink target too', async (t) => {
  const dir = await tree();
  const before = await snapshotTree(dir);
  await fs.writeFile(path.join(dir, 'src', 'new.py'), '');
  await fs.rm(path.join(dir, 'b.txt'));
  await fs.rm(path.join(dir, 'link'));
  await fs.symlink('/etc/passwd', path.join(dir, 'link'));
  const changes = compareSnapshots(before, await snapshotTree(dir));
  t.deepEqual(
    changes.filter((c) => c.path !== '.' && c.path !== 'src'),
    [
      { path: 'b.txt', change: 'removed' },
      { path: 'link', change: 'changed' },
      { path: 'src/new.py', change: 'added' },
    ],
  );
});

test('a same-size rewrite that restores the mtime is still seen (ctime cannot be set back)', async (t) => {
  const dir = await tree();
  const file = path.join(dir, 'src', 'a.py');
  const st = await fs.stat(file);
  const before = await snapshotTree(dir);
  await fs.writeFile(file, 'x = 2\n');
  await fs.utimes(file, st.atime, st.mtime);
  t.deepEqual(compareSnapshots(before, await snapshotTree(dir)), [{ path: 'src/a.py', change: 'changed' }]);
});

test('a file created and removed again is seen through its directory', async (t) => {
  const dir = await tree();
  const before = await snapshotTree(dir);
  await fs.writeFile(path.join(dir, 'src', 'tmp'), 'x');
  await fs.rm(path.join(dir, 'src', 'tmp'));
  t.deepEqual(compareSnapshots(before, await snapshotTree(dir)), [{ path: 'src', change: 'changed' }]);
});

test('skipped subtrees are left out of the walk', async (t) => {
  const dir = await tree();
  const snap = await snapshotTree(dir, [path.join(dir, 'src')]);
  t.false(snap.has('src'));
  t.true(snap.has('b.txt'));
});

test('only regular files are hashed', async (t) => {
  const dir = await tree();
  t.is(
    await hashIfFile(path.join(dir, 'b.txt')),
    'sha256:0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f',
  );
  t.is(await hashIfFile(path.join(dir, 'link')), null);
  t.is(await hashIfFile(path.join(dir, 'src')), null);
});

test('several trees from one walk: each snapshot equals the tree walked on its own', async (t) => {
  const dirs = [await tree(), await tree(), await tree()];
  await fs.writeFile(path.join(dirs[1]!, 'only in one.txt'), 'x');
  const together = await snapshotTrees(dirs);
  t.is(together.length, 3);
  for (const [i, dir] of dirs.entries()) t.deepEqual(together[i], await snapshotTree(dir));
  t.true(together[1]!.has('only in one.txt'));
  t.false(together[0]!.has('only in one.txt'));
});

test('several trees, one unreadable: the problem is recorded for that tree alone', async (t) => {
  const dirs = [await tree(), await tree()];
  const gone = path.join(dirs[1]!, 'gone');
  const together = await snapshotTrees([dirs[0]!, gone]);
  t.deepEqual(together[0], await snapshotTree(dirs[0]!));
  t.false(together[0]!.has('/unreadable'));
  t.true(together[1]!.has('/unreadable'));
});
