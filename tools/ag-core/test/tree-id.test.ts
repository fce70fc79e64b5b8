import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gitTreeId } from '../src/evidence/index.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'ag-tree-id-'));
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' }).trim();

/** A repository with files, an executable, a link, nested folders and names git sorts specially. */
function repo(): string {
  const dir = path.join(scratch, 'repo');
  mkdirSync(path.join(dir, 'src', 'deep'), { recursive: true });
  mkdirSync(path.join(dir, 'a-b'));
  writeFileSync(path.join(dir, 'README.md'), '# hi\n');
  writeFileSync(path.join(dir, 'src', 'index.js'), 'module.exports = 1;\n');
  writeFileSync(path.join(dir, 'src', 'deep', 'ü ñ.txt'), 'non-ASCII and a space\n');
  writeFileSync(path.join(dir, 'a-b', 'x'), '');
  writeFileSync(path.join(dir, 'a.js'), 'a');
  writeFileSync(path.join(dir, 'big.bin'), Buffer.alloc(3 << 20, 7));
  writeFileSync(path.join(dir, 'run.sh'), '#!/bin/sh\n');
  chmodSync(path.join(dir, 'run.sh'), 0o755);
  symlinkSync('src/index.js', path.join(dir, 'link.js'));
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'x');
  return dir;
}

test.serial('the tree id of an exported commit is the one git gives for the commit', async (t) => {
  const dir = repo();
  const exported = path.join(scratch, 'exported');
  mkdirSync(exported);
  execFileSync('sh', ['-c', `git -C "${dir}" archive HEAD | tar -x -C "${exported}"`]);
  t.is(await gitTreeId(exported), git(dir, 'rev-parse', 'HEAD^{tree}'));
  t.is(await gitTreeId(dir), git(dir, 'rev-parse', 'HEAD^{tree}'), '.git is left out');
});

test.serial(
  'any change to a file, a mode, a link or a name changes the id; excluded names and empty folders do not',
  async (t) => {
    const dir = path.join(scratch, 'repo');
    const before = await gitTreeId(dir);
    mkdirSync(path.join(dir, 'empty'));
    symlinkSync('/elsewhere/node_modules', path.join(dir, 'node_modules'));
    t.is(await gitTreeId(dir, ['node_modules']), before);
    t.not(await gitTreeId(dir), before, 'a link not excluded counts');
    writeFileSync(path.join(dir, 'a.js'), 'b');
    t.not(await gitTreeId(dir, ['node_modules']), before);
    writeFileSync(path.join(dir, 'a.js'), 'a');
    chmodSync(path.join(dir, 'a.js'), 0o755);
    t.not(await gitTreeId(dir, ['node_modules']), before);
    chmodSync(path.join(dir, 'a.js'), 0o644);
    t.is(await gitTreeId(dir, ['node_modules']), before);
    // A workspace's own link to its installed packages, deeper down, is left out too; a folder of that name is not.
    mkdirSync(path.join(dir, 'packages', 'foo'), { recursive: true });
    writeFileSync(path.join(dir, 'packages', 'foo', 'i.js'), 'x');
    const withWorkspace = await gitTreeId(dir, ['node_modules']);
    symlinkSync('/elsewhere/packages/foo/node_modules', path.join(dir, 'packages', 'foo', 'node_modules'));
    t.is(await gitTreeId(dir, ['node_modules']), withWorkspace);
    rmSync(path.join(dir, 'packages', 'foo', 'node_modules'));
    mkdirSync(path.join(dir, 'packages', 'foo', 'node_modules'));
    writeFileSync(path.join(dir, 'packages', 'foo', 'node_modules', 'dep.js'), 'x');
    t.not(await gitTreeId(dir, ['node_modules']), withWorkspace);
    rmSync(path.join(dir, 'packages'), { recursive: true });
    t.is(await gitTreeId(dir, ['node_modules']), before);
  },
);
