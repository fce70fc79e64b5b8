// The install in a workspaces root: a workspace's package files decide whether the patch shares
// the baseline's install (never read through a link), and each workspace's own node_modules in
// the install is linked into the tree, as the root's is.
import test from 'ava';
import { lstatSync, mkdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../ag-core/test/support/git-repo.js';
import { linkWorkspacePackages, samePackageFiles } from '../src/install.js';

function tree(files: Record<string, string>): string {
  const root = tempDir('ag-gate-install');
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), body);
  }
  return root;
}

const ROOT = { 'package.json': '{"workspaces":["packages/*"]}', 'package-lock.json': '{}' };

test('a workspace’s package.json or .npmrc that differs means the patch installs on its own', (t) => {
  const base = tree({ ...ROOT, 'packages/a/package.json': '{"name":"a"}' });
  const same = tree({ ...ROOT, 'packages/a/package.json': '{"name":"a"}', 'packages/a/src/i.js': 'changed' });
  t.true(samePackageFiles(base, same, ['packages/a']));
  const dep = tree({ ...ROOT, 'packages/a/package.json': '{"name":"a","dependencies":{"x":"1"}}' });
  t.false(samePackageFiles(base, dep, ['packages/a']));
  t.true(samePackageFiles(base, dep), 'the root’s files alone are equal');
  const npmrc = tree({ ...ROOT, 'packages/a/package.json': '{"name":"a"}', 'packages/a/.npmrc': 'x=1\n' });
  t.false(samePackageFiles(base, npmrc, ['packages/a']));
  const added = tree({ ...ROOT, 'packages/a/package.json': '{"name":"a"}', 'packages/b/package.json': '{}' });
  t.false(samePackageFiles(base, added, ['packages/a', 'packages/b']), 'a workspace the patch adds');
});

test('a workspace package file that is a link is not read: the patch installs on its own', (t) => {
  const base = tree({ ...ROOT, 'packages/a/package.json': '{"name":"a"}', 'elsewhere.json': '{"name":"a"}' });
  const linked = tree({ ...ROOT, 'elsewhere.json': '{"name":"a"}' });
  mkdirSync(path.join(linked, 'packages', 'a'), { recursive: true });
  symlinkSync(path.join(linked, 'elsewhere.json'), path.join(linked, 'packages', 'a', 'package.json'));
  t.false(samePackageFiles(base, linked, ['packages/a']));
});

test('each workspace’s node_modules in the install becomes a link in the tree; one the install lacks is skipped', (t) => {
  const deps = tree({ 'packages/a/node_modules/x/index.js': '', 'packages/c/node_modules/y/index.js': '' });
  const side = tree({
    'packages/a/package.json': '{}',
    'packages/a/node_modules/stale.js': 'from the commit',
    'packages/b/package.json': '{}',
  });
  const linked = linkWorkspacePackages(deps, side, ['packages/a', 'packages/b', 'packages/c']);
  t.deepEqual(linked, [path.join(deps, 'packages/a/node_modules')]);
  t.is(readlinkSync(path.join(side, 'packages/a/node_modules')), path.join(deps, 'packages/a/node_modules'));
  t.is(lstatSync(path.join(side, 'packages/b/node_modules'), { throwIfNoEntry: false }), undefined);
  t.is(lstatSync(path.join(side, 'packages/c'), { throwIfNoEntry: false }), undefined, 'no folder made');
});
