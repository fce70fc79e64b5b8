import test from 'ava';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { compareSnapshots, hashIfFile, snapshotTree } from '../src/tree-snapshot.js';
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
  t.is(await hashIfFile(path.join(dir, 'b.txt')), 'sha256:0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f');
  t.is(await hashIfFile(path.join(dir, 'link')), null);
  t.is(await hashIfFile(path.join(dir, 'src')), null);
});

