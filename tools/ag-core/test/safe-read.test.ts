import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readInside, type SafeRead } from '../src/files/safe-read.js';

const LCOV = 'TN:\nSF:src/a.ts\nDA:1,1\nend_of_record\n';

/** A temporary `tree/` (where the tests ran, holding coverage/lcov.info) and `outside/` beside it. */
function trees(t: ExecutionContext): { tree: string; outside: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'ag-gate-read-'));
  t.teardown(() => fs.rmSync(base, { recursive: true, force: true }));
  const tree = path.join(base, 'tree');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(tree, 'coverage'), { recursive: true });
  fs.writeFileSync(path.join(tree, 'coverage', 'lcov.info'), LCOV);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'lcov.info'), 'root-only secret\n');
  return { tree, outside };
}

/** The problem of a refused read (fails the test when it was read). */
function problem(t: ExecutionContext, r: SafeRead): string {
  if (r.ok) {
    t.fail(`read ${r.data.length} bytes`);
    return '';
  }
  return r.problem;
}

test('a regular file inside the tree is read, also through a root given as a link', (t) => {
  const { tree } = trees(t);
  const r = readInside(tree, 'coverage/lcov.info', 1024);
  t.true(r.ok);
  if (r.ok) t.is(r.data.toString('utf8'), LCOV);
  const alias = `${tree}-alias`;
  fs.symlinkSync(tree, alias);
  t.teardown(() => fs.rmSync(alias, { force: true }));
  t.true(readInside(alias, './coverage/lcov.info', 1024).ok);
});

test('a file of exactly the cap is read; one byte more is refused, naming size and cap', (t) => {
  const { tree } = trees(t);
  const size = Buffer.byteLength(LCOV);
  t.true(readInside(tree, 'coverage/lcov.info', size).ok);
  t.is(problem(t, readInside(tree, 'coverage/lcov.info', size - 1)), `is ${size} bytes, over the ${size - 1}-byte cap`);
});

test('a last component that is a link is refused, wherever it points', (t) => {
  const { tree, outside } = trees(t);
  fs.symlinkSync(path.join(outside, 'lcov.info'), path.join(tree, 'coverage', 'out.info'));
  fs.symlinkSync('lcov.info', path.join(tree, 'coverage', 'same.info'));
  t.is(problem(t, readInside(tree, 'coverage/out.info', 1024)), 'is a symbolic link');
  t.is(problem(t, readInside(tree, 'coverage/same.info', 1024)), 'is a symbolic link');
});

test('a directory on the way that is a link is refused, even to a file that exists', (t) => {
  const { tree, outside } = trees(t);
  fs.rmSync(path.join(tree, 'coverage'), { recursive: true });
  fs.symlinkSync(outside, path.join(tree, 'coverage'));
  t.is(problem(t, readInside(tree, 'coverage/lcov.info', 1024)), 'a component of the path is a symbolic link');
  fs.mkdirSync(path.join(tree, 'real'));
  fs.writeFileSync(path.join(tree, 'real', 'lcov.info'), LCOV);
  fs.symlinkSync('real', path.join(tree, 'inner'));
  t.is(problem(t, readInside(tree, 'inner/lcov.info', 1024)), 'a component of the path is a symbolic link');
});

test('a FIFO is refused at once, not read', (t) => {
  const { tree } = trees(t);
  const fifo = path.join(tree, 'coverage', 'lcov.info');
  fs.rmSync(fifo);
  t.is(spawnSync('mkfifo', [fifo]).status, 0);
  const started = Date.now();
  t.is(problem(t, readInside(tree, 'coverage/lcov.info', 1024)), 'is not a regular file');
  t.true(Date.now() - started < 5000);
});

test('/dev/zero is refused, as a link and through a linked directory', (t) => {
  const { tree } = trees(t);
  fs.rmSync(path.join(tree, 'coverage', 'lcov.info'));
  fs.symlinkSync('/dev/zero', path.join(tree, 'coverage', 'lcov.info'));
  t.is(problem(t, readInside(tree, 'coverage/lcov.info', 1024)), 'is a symbolic link');
  fs.symlinkSync('/dev', path.join(tree, 'dev'));
  t.is(problem(t, readInside(tree, 'dev/zero', 1024)), 'is not a regular file');
});

test('a directory is not a regular file', (t) => {
  const { tree } = trees(t);
  t.is(problem(t, readInside(tree, 'coverage', 1024)), 'is not a regular file');
});

test('paths that leave the tree or are not plain are refused before anything is opened', (t) => {
  const { tree, outside } = trees(t);
  t.regex(problem(t, readInside(tree, '../outside/lcov.info', 1024)), /`\.\.` component/);
  t.regex(problem(t, readInside(tree, 'coverage/../../outside/lcov.info', 1024)), /`\.\.` component/);
  t.regex(problem(t, readInside(tree, path.join(outside, 'lcov.info'), 1024)), /absolute/);
  t.regex(problem(t, readInside(tree, 'coverage//lcov.info', 1024)), /empty component/);
  t.regex(problem(t, readInside(tree, '', 1024)), /empty component/);
});

test('a missing file, or one under a missing directory, does not exist', (t) => {
  const { tree } = trees(t);
  t.is(problem(t, readInside(tree, 'coverage/missing.info', 1024)), 'does not exist');
  t.is(problem(t, readInside(tree, 'nowhere/lcov.info', 1024)), 'does not exist');
});

test('a link whose target is gone is a link, never a missing file', (t) => {
  const { tree, outside } = trees(t);
  fs.rmSync(path.join(tree, 'coverage'), { recursive: true });
  fs.symlinkSync(path.join(outside, 'gone'), path.join(tree, 'coverage'));
  t.is(problem(t, readInside(tree, 'coverage/lcov.info', 1024)), 'a component of the path is a symbolic link');
  fs.mkdirSync(path.join(tree, 'reports'));
  fs.symlinkSync(path.join(outside, 'gone.info'), path.join(tree, 'reports', 'lcov.info'));
  t.is(problem(t, readInside(tree, 'reports/lcov.info', 1024)), 'is a symbolic link');
});
