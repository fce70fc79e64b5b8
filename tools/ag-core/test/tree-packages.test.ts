import test from 'ava';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyTree } from '../src/files/tree.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'ag-tree-packages-'));
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

function installed(root: string): void {
  mkdirSync(path.join(root, 'pkg-a'), { recursive: true });
  writeFileSync(path.join(root, 'pkg-a', 'index.js'), 'module.exports = 1;\n');
  mkdirSync(path.join(root, '@scope', 'b'), { recursive: true });
  mkdirSync(path.join(root, '.bin'));
  mkdirSync(path.join(root, '.vite'));
  writeFileSync(path.join(root, '.vite', 'results.json'), '{}');
}

for (const linked of [false, true]) {
  test(`a copy's node_modules is its own folder of links to the installed packages (${linked ? 'node_modules a link' : 'node_modules a folder'})`, async (t) => {
    const src = path.join(scratch, `src-${linked}`);
    mkdirSync(src);
    writeFileSync(path.join(src, 'index.js'), 'require("pkg-a");\n');
    let packages = path.join(src, 'node_modules');
    if (linked) {
      packages = path.join(scratch, `deps-${linked}`, 'node_modules');
      mkdirSync(packages, { recursive: true });
      symlinkSync(packages, path.join(src, 'node_modules'));
    } else mkdirSync(packages);
    installed(packages);
    const dest = path.join(scratch, `dest-${linked}`);
    await copyTree(src, dest);
    const folder = path.join(dest, 'node_modules');
    t.true(lstatSync(folder).isDirectory(), 'a real folder, not a link to the installed one');
    t.false(lstatSync(folder).isSymbolicLink());
    for (const name of ['pkg-a', '@scope', '.bin']) {
      t.true(lstatSync(path.join(folder, name)).isSymbolicLink(), `${name} is linked`);
      t.is(readlinkSync(path.join(folder, name)), path.join(realpathSync(packages), name));
    }
    t.false(existsSync(path.join(folder, '.vite')), 'a runner cache is neither copied nor linked');
    // What a runner writes beside the packages stays in the copy.
    mkdirSync(path.join(folder, '.vite'));
    t.false(existsSync(path.join(packages, '.vite', 'x')));
    t.true(lstatSync(path.join(dest, 'index.js')).isFile(), 'the rest of the tree is copied');
  });
}

test('a tree without node_modules is copied as before', async (t) => {
  const src = path.join(scratch, 'plain');
  mkdirSync(path.join(src, 'lib'), { recursive: true });
  writeFileSync(path.join(src, 'lib', 'a.js'), 'x');
  const dest = path.join(scratch, 'plain-copy');
  await copyTree(src, dest);
  t.true(lstatSync(path.join(dest, 'lib', 'a.js')).isFile());
  t.false(existsSync(path.join(dest, 'node_modules')));
});
