import test from 'ava';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TreeCopy } from '../src/exec/tree-copy.js';

function fixture() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-copy-'));
  const src = path.join(dir, 'src');
  mkdirSync(path.join(src, 'lib'), { recursive: true });
  mkdirSync(path.join(src, '.git'));
  mkdirSync(path.join(src, 'node_modules', 'dep'), { recursive: true });
  mkdirSync(path.join(src, '__pycache__'));
  mkdirSync(path.join(src, '.venv'));
  writeFileSync(path.join(src, 'lib', 'a.js'), 'original\n');
  writeFileSync(path.join(src, '.git', 'HEAD'), 'ref\n');
  writeFileSync(path.join(src, 'node_modules', 'dep', 'index.js'), 'dep\n');
  writeFileSync(path.join(src, '__pycache__', 'a.pyc'), 'stale');
  linkSync(path.join(src, 'lib', 'a.js'), path.join(src, 'hard.js'));
  symlinkSync('lib/a.js', path.join(src, 'soft.js'));
  writeFileSync(path.join(dir, 'outside.js'), 'outside\n');
  symlinkSync('../outside.js', path.join(src, 'up.js'));
  return { dir, src, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test('a copy has its own inodes, links dependencies, and leaves out .git and caches', (t) => {
  const f = fixture();
  t.teardown(f.cleanup);
  const copy = TreeCopy.create(f.src, path.join(f.dir, 'copy'));
  t.not(lstatSync(path.join(copy.root, 'hard.js')).ino, lstatSync(path.join(f.src, 'hard.js')).ino);
  t.true(lstatSync(path.join(copy.root, 'node_modules')).isDirectory());
  t.true(lstatSync(path.join(copy.root, 'node_modules', 'dep')).isSymbolicLink());
  t.is(readFileSync(path.join(copy.root, 'node_modules', 'dep', 'index.js'), 'utf8'), 'dep\n');
  t.true(lstatSync(path.join(copy.root, '.venv')).isSymbolicLink());
  t.true(lstatSync(path.join(copy.root, 'soft.js')).isSymbolicLink());
  t.is(readFileSync(path.join(copy.root, 'soft.js'), 'utf8'), 'original\n');
  t.is(readFileSync(path.join(copy.root, 'up.js'), 'utf8'), 'outside\n');
  t.false(existsSync(path.join(copy.root, '.git')));
  t.false(existsSync(path.join(copy.root, '__pycache__')));
});

test('writing a mutant never reaches the original, even through a hard link', (t) => {
  const f = fixture();
  t.teardown(f.cleanup);
  const copy = TreeCopy.create(f.src, path.join(f.dir, 'copy'));
  copy.write('hard.js', 'mutant\n');
  copy.write('lib/a.js', 'mutant\n');
  t.is(readFileSync(path.join(f.src, 'lib', 'a.js'), 'utf8'), 'original\n');
  t.is(readFileSync(path.join(f.src, 'hard.js'), 'utf8'), 'original\n');
  copy.restoreFile('lib/a.js');
  t.is(readFileSync(path.join(copy.root, 'lib', 'a.js'), 'utf8'), 'original\n');
});

test('restore removes what a run created and puts back what it changed or deleted', (t) => {
  const f = fixture();
  t.teardown(f.cleanup);
  const copy = TreeCopy.create(f.src, path.join(f.dir, 'copy'));
  writeFileSync(path.join(copy.root, 'new.txt'), 'x');
  mkdirSync(path.join(copy.root, 'newdir'));
  writeFileSync(path.join(copy.root, 'lib', 'a.js'), 'changed by a test, longer\n');
  rmSync(path.join(copy.root, 'soft.js'));
  t.is(copy.restore(), 4);
  t.false(existsSync(path.join(copy.root, 'new.txt')));
  t.false(existsSync(path.join(copy.root, 'newdir')));
  t.is(readFileSync(path.join(copy.root, 'lib', 'a.js'), 'utf8'), 'original\n');
  t.true(lstatSync(path.join(copy.root, 'soft.js')).isSymbolicLink());
  t.is(copy.restore(), 0);
});

test('a deleted folder comes back whole', (t) => {
  const f = fixture();
  t.teardown(f.cleanup);
  const copy = TreeCopy.create(f.src, path.join(f.dir, 'copy'));
  rmSync(path.join(copy.root, 'lib'), { recursive: true });
  t.is(copy.restore(), 1);
  t.is(readFileSync(path.join(copy.root, 'lib', 'a.js'), 'utf8'), 'original\n');
});

test("a runner's cache beside the installed packages stays in the copy and is gone after a restore", (t) => {
  const f = fixture();
  t.teardown(f.cleanup);
  const results = path.join('node_modules', '.vite', 'vitest', 'results.json');
  mkdirSync(path.dirname(path.join(f.src, results)), { recursive: true });
  writeFileSync(path.join(f.src, results), 'original cache\n');
  mkdirSync(path.join(f.src, 'node_modules', '.cache', 'ava'), { recursive: true });
  // vite's bundled TypeScript config, left by a run in the tree itself (perhaps as another user).
  mkdirSync(path.join(f.src, 'node_modules', '.vite-temp'), { recursive: true });
  mkdirSync(path.join(f.src, 'node_modules', '.vitest'), { recursive: true });
  const copy = TreeCopy.create(f.src, path.join(f.dir, 'copy'));
  for (const cache of ['.vite', '.cache', '.vite-temp', '.vitest'])
    t.false(existsSync(path.join(copy.root, 'node_modules', cache)), `${cache} is neither copied nor linked`);
  // A run writes its results cache (vitest orders the next run's files by it).
  mkdirSync(path.dirname(path.join(copy.root, results)), { recursive: true });
  writeFileSync(path.join(copy.root, results), 'written by a mutant run\n');
  t.is(readFileSync(path.join(f.src, results), 'utf8'), 'original cache\n');
  t.is(copy.restore(), 1);
  t.false(existsSync(path.join(copy.root, 'node_modules', '.vite')));
  // A package link the run replaced comes back as a link, not a copy of the package.
  rmSync(path.join(copy.root, 'node_modules', 'dep'));
  mkdirSync(path.join(copy.root, 'node_modules', 'dep'));
  t.is(copy.restore(), 1);
  t.true(lstatSync(path.join(copy.root, 'node_modules', 'dep')).isSymbolicLink());
  t.is(readFileSync(path.join(copy.root, 'node_modules', 'dep', 'index.js'), 'utf8'), 'dep\n');
});

test('a linked package folder (a workspace, a shared install) is a folder of links in the copy too', (t) => {
  const f = fixture();
  t.teardown(f.cleanup);
  const shared = path.join(f.dir, 'shared-node_modules');
  mkdirSync(path.join(shared, 'dep2'), { recursive: true });
  writeFileSync(path.join(shared, 'dep2', 'index.js'), 'dep2\n');
  rmSync(path.join(f.src, 'node_modules'), { recursive: true });
  symlinkSync(shared, path.join(f.src, 'node_modules'));
  const copy = TreeCopy.create(f.src, path.join(f.dir, 'copy'));
  t.true(lstatSync(path.join(copy.root, 'node_modules')).isDirectory());
  t.is(readFileSync(path.join(copy.root, 'node_modules', 'dep2', 'index.js'), 'utf8'), 'dep2\n');
  mkdirSync(path.join(copy.root, 'node_modules', '.vite'));
  t.false(existsSync(path.join(shared, '.vite')));
  t.is(copy.restore(), 1);
});
