import test from 'ava';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyTree, removeTree } from '../src/files/tree.js';

const asRoot = process.getuid?.() === 0;

async function scratch(t: { teardown: (f: () => Promise<void>) => void }): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-tree-'));
  t.teardown(() => fs.rm(root, { recursive: true, force: true }));
  return root;
}

test('files, modes and symlinks are copied, every .git is left behind, the source is untouched', async (t) => {
  const root = await scratch(t);
  const src = path.join(root, 'src');
  await fs.mkdir(path.join(src, '.git'), { recursive: true });
  await fs.mkdir(path.join(src, 'sub/vendored'), { recursive: true });
  await fs.writeFile(path.join(src, '.git/HEAD'), 'ref');
  await fs.writeFile(path.join(src, 'sub/vendored/.git'), 'gitdir: ../../.git/modules/x\n');
  await fs.writeFile(path.join(src, 'sub/run.sh'), '#!/bin/sh\n', { mode: 0o755 });
  await fs.symlink('/etc/hostname', path.join(src, 'link'));
  const dest = path.join(root, 'dest');
  await copyTree(src, dest);
  t.is((await fs.stat(path.join(dest, 'sub/run.sh'))).mode & 0o777, 0o755);
  t.is(await fs.readlink(path.join(dest, 'link')), '/etc/hostname');
  await t.throwsAsync(fs.lstat(path.join(dest, '.git')));
  await t.throwsAsync(fs.lstat(path.join(dest, 'sub/vendored/.git')));
  t.true((await fs.stat(path.join(src, '.git/HEAD'))).isFile());
  t.is((await fs.stat(path.join(dest, 'sub/run.sh'))).uid, process.getuid!());
});

test("a copy given an owner is that uid's throughout, the copy's root included (as root)", async (t) => {
  if (!asRoot) {
    // Only root can give files away; as another user the option is refused by tar.
    const root = await scratch(t);
    await fs.mkdir(path.join(root, 'src'));
    await t.throwsAsync(copyTree(path.join(root, 'src'), path.join(root, 'dest'), { uid: 54321, gid: 54321 }));
    return;
  }
  const root = await scratch(t);
  const src = path.join(root, 'src');
  await fs.mkdir(path.join(src, 'a'), { recursive: true });
  await fs.writeFile(path.join(src, 'a/f'), 'x');
  await fs.symlink('a', path.join(src, 'l'));
  const dest = path.join(root, 'dest');
  await copyTree(src, dest, { uid: 54321, gid: 54322 });
  for (const p of ['', 'a', 'a/f', 'l']) {
    const st = await fs.lstat(path.join(dest, p));
    t.deepEqual([st.uid, st.gid], [54321, 54322], p || '.');
  }
  t.is((await fs.lstat(path.join(src, 'a/f'))).uid, 0);
});

test('copying onto an existing directory or from a missing one fails with a message', async (t) => {
  const root = await scratch(t);
  await fs.mkdir(path.join(root, 'src'));
  await fs.mkdir(path.join(root, 'dest'));
  await t.throwsAsync(copyTree(path.join(root, 'src'), path.join(root, 'dest')), { code: 'EEXIST' });
  await t.throwsAsync(copyTree(path.join(root, 'missing'), path.join(root, 'dest2')), {
    message: /copying .*missing failed: /,
  });
});

test('removeTree removes a tree, read-only directories included, and accepts a missing one', async (t) => {
  const root = await scratch(t);
  const dir = path.join(root, 'd');
  await fs.mkdir(path.join(dir, 'ro/deep'), { recursive: true });
  await fs.writeFile(path.join(dir, 'ro/deep/f'), 'x');
  if (asRoot) await fs.chmod(path.join(dir, 'ro/deep'), 0o500); // only root removes what it cannot write
  await removeTree(dir);
  await t.throwsAsync(fs.lstat(dir));
  await t.notThrowsAsync(removeTree(path.join(root, 'never-was')));
});
