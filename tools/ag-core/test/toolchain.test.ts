import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toolchainDirs } from '../src/process/toolchain.js';

const scratch = () => mkdtempSync(path.join(os.tmpdir(), 'ag-toolchain-'));

test('a file the command names by absolute path (a reporter module) has its folder bound, as a program has its prefix', (t) => {
  const root = scratch();
  const lib = path.join(root, 'gate', 'lib');
  const bin = path.join(root, 'opt', 'node', 'bin');
  mkdirSync(lib, { recursive: true });
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(lib, 'junit.mjs'), 'export default 1;\n');
  writeFileSync(path.join(bin, 'runner'), '#!/bin/sh\n');
  chmodSync(path.join(bin, 'runner'), 0o755);
  const dirs = toolchainDirs({
    path: `${bin}:/usr/bin`,
    command: `runner --test-reporter=${path.join(lib, 'junit.mjs')} --out=${path.join(root, 'missing.xml')}`,
    keepOut: [],
  });
  t.deepEqual(dirs, [lib, path.join(root, 'opt', 'node')].sort());
});

test('nothing inside or above a kept-out folder is bound, whatever the command names', (t) => {
  const root = scratch();
  const tree = path.join(root, 'tree');
  mkdirSync(path.join(tree, 'lib'), { recursive: true });
  writeFileSync(path.join(tree, 'lib', 'evil.mjs'), '\n');
  const dirs = toolchainDirs({
    path: '/usr/bin',
    command: `node --import=${path.join(tree, 'lib', 'evil.mjs')}`,
    keepOut: [tree],
  });
  t.deepEqual(dirs, []);
});
