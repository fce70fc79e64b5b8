import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '@adversary-gate/core';
import { BusyError, EVIDENCE_MARKER, claimOutDir, excludeFromGit } from '../src/out-dir.js';

/** A fresh temporary directory holding `repo/` (with a `.git/`), removed after the test. */
function place(t: ExecutionContext): { base: string; repo: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ag-gate-out-')));
  t.teardown(() => fs.rmSync(base, { recursive: true, force: true }));
  const repo = path.join(base, 'repo');
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  return { base, repo };
}

/** Claim `out` from inside `repo`, the repository's work tree protected. */
const claim = (repo: string, out: string) => claimOutDir(out, { cwd: repo, protectedRoots: [repo] });

/** The UsageError `claim` throws; its message is one line that names the path. */
function refused(t: ExecutionContext, repo: string, out: string): string {
  const err = t.throws(() => claim(repo, out), { instanceOf: UsageError });
  t.false(err.message.includes('\n'), err.message);
  t.true(err.message.startsWith(`--out ${out === '' ? '""' : out}: `), err.message);
  return err.message;
}

test('a new path is created, parents and all, with the marker, and can be claimed again once released', (t) => {
  const { repo } = place(t);
  const out = claim(repo, 'build/evidence');
  t.is(out.dir, path.join(repo, 'build', 'evidence'));
  t.true(fs.lstatSync(out.dir).isDirectory());
  t.true(fs.lstatSync(path.join(out.dir, EVIDENCE_MARKER)).isFile());
  t.deepEqual(fs.readdirSync(out.dir), [EVIDENCE_MARKER]);
  out.release();
  out.release();
  claim(repo, 'build/evidence').release();
});

test('a regular file is refused and kept byte for byte', (t) => {
  const { repo } = place(t);
  const file = path.join(repo, 'verdict.json');
  fs.writeFileSync(file, '{"mine": true}\n');
  t.regex(refused(t, repo, 'verdict.json'), /a regular file, not a directory/);
  t.is(fs.readFileSync(file, 'utf8'), '{"mine": true}\n');
});

test('a FIFO is refused without opening it', (t) => {
  const { repo } = place(t);
  t.is(spawnSync('mkfifo', [path.join(repo, 'pipe')]).status, 0);
  t.regex(refused(t, repo, 'pipe'), /a FIFO, not a directory/);
});

test("a folder holding the user's files is refused and they survive", (t) => {
  const { repo } = place(t);
  fs.mkdirSync(path.join(repo, 'notes'));
  fs.writeFileSync(path.join(repo, 'notes', 'todo.txt'), 'buy milk\n');
  t.is(
    refused(t, repo, 'notes'),
    '--out notes: it holds files the gate did not make (no .adversary-gate-evidence): choose another directory or remove it yourself',
  );
  t.deepEqual(fs.readdirSync(path.join(repo, 'notes')), ['todo.txt']);
  t.is(fs.readFileSync(path.join(repo, 'notes', 'todo.txt'), 'utf8'), 'buy milk\n');
});

test('the empty path, /, the work tree and its ancestors are refused', (t) => {
  const { base, repo } = place(t);
  t.regex(refused(t, repo, ''), /empty path/);
  t.regex(refused(t, repo, '/'), /filesystem root/);
  t.regex(refused(t, repo, '.'), /the repository's work tree/);
  t.regex(refused(t, repo, repo), /the repository's work tree/);
  t.regex(refused(t, repo, '..'), /holds the repository's work tree/);
  t.regex(refused(t, repo, base), /holds the repository's work tree/);
  t.regex(refused(t, repo, 'src/../..'), /holds the repository's work tree/);
});

test('a path inside .git is refused and nothing is made there', (t) => {
  const { repo } = place(t);
  t.regex(refused(t, repo, '.git'), /inside the repository's \.git/);
  t.regex(refused(t, repo, '.git/evidence'), /inside the repository's \.git/);
  t.deepEqual(fs.readdirSync(path.join(repo, '.git')), []);
});

test('a path reaching the work tree through a link is refused as the work tree', (t) => {
  const { base, repo } = place(t);
  fs.symlinkSync(base, path.join(repo, 'up'));
  t.regex(refused(t, repo, 'up/repo'), /the repository's work tree/);
});

test('a symbolic link to a directory is refused and its target left alone', (t) => {
  const { base, repo } = place(t);
  const target = path.join(base, 'user-data');
  fs.mkdirSync(target);
  fs.writeFileSync(path.join(target, 'keep.txt'), 'keep');
  fs.symlinkSync(target, path.join(repo, 'evidence'));
  t.regex(refused(t, repo, 'evidence'), /symbolic link/);
  t.deepEqual(fs.readdirSync(target), ['keep.txt']);
  t.true(fs.lstatSync(path.join(repo, 'evidence')).isSymbolicLink());
});

test('an empty directory is used', (t) => {
  const { base, repo } = place(t);
  const dir = path.join(base, 'empty');
  fs.mkdirSync(dir);
  const out = claimOutDir(dir, { cwd: '/', protectedRoots: [repo] });
  t.teardown(() => out.release());
  t.is(out.dir, dir);
  t.deepEqual(fs.readdirSync(dir), [EVIDENCE_MARKER]);
});

test("a reused evidence directory is emptied but for the marker; links in it lose nothing of the user's", (t) => {
  const { base, repo } = place(t);
  const user = path.join(base, 'user-folder');
  fs.mkdirSync(path.join(user, 'deep'), { recursive: true });
  fs.writeFileSync(path.join(user, 'deep', 'precious.txt'), 'precious');
  const first = claim(repo, 'evidence');
  const marker = fs.readFileSync(path.join(first.dir, EVIDENCE_MARKER), 'utf8');
  fs.writeFileSync(path.join(first.dir, 'verdict.json'), '{}');
  fs.mkdirSync(path.join(first.dir, 'logs', 'run'), { recursive: true });
  fs.writeFileSync(path.join(first.dir, 'logs', 'run', 'out.txt'), 'x');
  fs.symlinkSync(user, path.join(first.dir, 'link-to-user'));
  fs.symlinkSync(user, path.join(first.dir, 'logs', 'nested-link'));
  first.release();

  const second = claim(repo, 'evidence');
  t.teardown(() => second.release());
  t.deepEqual(fs.readdirSync(second.dir), [EVIDENCE_MARKER]);
  t.is(fs.readFileSync(path.join(second.dir, EVIDENCE_MARKER), 'utf8'), marker);
  t.is(fs.readFileSync(path.join(user, 'deep', 'precious.txt'), 'utf8'), 'precious');
});

test("a marker that is a link does not make a directory the gate's", (t) => {
  const { base, repo } = place(t);
  fs.writeFileSync(path.join(base, 'elsewhere'), '');
  fs.mkdirSync(path.join(repo, 'evidence'));
  fs.symlinkSync(path.join(base, 'elsewhere'), path.join(repo, 'evidence', EVIDENCE_MARKER));
  t.regex(refused(t, repo, 'evidence'), /did not make/);
  t.true(fs.existsSync(path.join(base, 'elsewhere')));
});

test('a second claim while the first is held is Busy, and succeeds after release', (t) => {
  const { repo } = place(t);
  const first = claim(repo, 'evidence');
  fs.writeFileSync(path.join(first.dir, 'verdict.json'), '{}');
  const err = t.throws(() => claim(repo, 'evidence'), { instanceOf: BusyError });
  t.is(err.message, `another gate run is using ${first.dir}: nothing written`);
  t.deepEqual(fs.readdirSync(first.dir).sort(), [EVIDENCE_MARKER, 'verdict.json']);
  first.release();
  const second = claim(repo, 'evidence');
  t.deepEqual(fs.readdirSync(second.dir), [EVIDENCE_MARKER]);
  second.release();
});

test('a locked directory without the marker yet is Busy, not refused', (t) => {
  const { repo } = place(t);
  const dir = path.join(repo, 'evidence');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'half-written.json'), '');
  const fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  t.teardown(() => fs.closeSync(fd));
  t.is(spawnSync('flock', ['-n', '3'], { stdio: ['ignore', 'ignore', 'ignore', fd] }).status, 0);
  t.throws(() => claim(repo, 'evidence'), { instanceOf: BusyError });
  t.deepEqual(fs.readdirSync(dir), ['half-written.json']);
});

/** A real repository made with `git init`, inside a fresh temporary directory. */
function gitRepo(t: ExecutionContext): { base: string; repo: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ag-gate-git-')));
  t.teardown(() => fs.rmSync(base, { recursive: true, force: true }));
  const repo = path.join(base, 'repo');
  fs.mkdirSync(repo);
  t.is(spawnSync('git', ['init', '-q'], { cwd: repo }).status, 0);
  return { base, repo };
}

const excludeFile = (repo: string) => path.join(repo, '.git', 'info', 'exclude');

test('excludeFromGit adds the directory to info/exclude once, and git then ignores it', (t) => {
  const { repo } = gitRepo(t);
  const out = claim(repo, 'gate-out/evidence');
  t.teardown(() => out.release());
  fs.writeFileSync(path.join(out.dir, 'verdict.json'), '{}');
  t.true(excludeFromGit(repo, out.dir));
  t.true(excludeFromGit(repo, out.dir));
  const lines = fs.readFileSync(excludeFile(repo), 'utf8').split('\n');
  t.is(lines.filter((l) => l === '/gate-out/evidence/').length, 1);
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo, encoding: 'utf8' });
  t.is(status.stdout, '');
});

test('excludeFromGit does nothing for a directory outside the repository', (t) => {
  const { base, repo } = gitRepo(t);
  const before = fs.readFileSync(excludeFile(repo), 'utf8');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(outside);
  t.true(excludeFromGit(repo, outside));
  t.is(fs.readFileSync(excludeFile(repo), 'utf8'), before);
});

test('excludeFromGit returns false, without throwing, where there is no repository', (t) => {
  const { base } = place(t);
  const notRepo = path.join(base, 'plain');
  fs.mkdirSync(path.join(notRepo, 'out'), { recursive: true });
  t.false(excludeFromGit(notRepo, path.join(notRepo, 'out')));
});
