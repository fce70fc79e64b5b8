import test from 'ava';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyTree } from '../src/tree-copy.js';

test('files, modes and symlinks are copied, .git is left behind, the source is untouched', async (t) => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-copy-'));
  t.teardown(() => fs.rm(root, { recursive: true, force: true }));
  const src = path.join(root, 'src');
  await fs.mkdir(path.join(src, '.git'), { recursive: true });
  await fs.mkdir(path.join(src, 'sub'));
  await fs.writeFile(path.join(src, '.git/HEAD'), 'ref');
  await fs.writeFile(path.join(src, 'sub/run.sh'), '#!/bin/sh\n', { mode: 0o755 });
  await fs.symlink('/etc/hostname', path.join(src, 'link'));
  const dest = path.join(root, 'dest');
  await copyTree(src, dest);
  t.is((await fs.stat(path.join(dest, 'sub/run.sh'))).mode & 0o777, 0o755);
  t.is(await fs.readlink(path.join(dest, 'link')), '/etc/hostname');
  await t.throwsAsync(fs.stat(path.join(dest, '.git')));
  t.true((await fs.stat(path.join(src, '.git/HEAD'))).isFile());
});
