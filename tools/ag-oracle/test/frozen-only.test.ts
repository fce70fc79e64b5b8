import test from 'ava';
import { classifyPath, parseUnifiedDiff } from '@adversary-gate/core';
import { frozenOnlyCoverage } from '../src/freeze/frozen-only.js';
import type { JudgedEntry } from '../src/freeze/freeze-list.js';

const changes = (...paths: string[]) =>
  parseUnifiedDiff(paths.map((p) => `diff --git a/${p} b/${p}\n--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-a\n+b\n`).join(''))
    .files;
const entry = (covers: string[], status: JudgedEntry['status'] = 'valid'): JudgedEntry => ({
  index: 0,
  nodeid: 'n',
  expires: '2030-01-01',
  covers,
  status,
});

test('every changed production file covered by a valid entry is frozen-only', (t) => {
  t.deepEqual(
    frozenOnlyCoverage(changes('src/a.js', 'README.md', 'test/a.test.js'), classifyPath, [entry(['src/**'])]),
    { files: ['src/a.js'], all: true },
  );
});

test('one production file outside the covers is enough to clear it', (t) => {
  t.deepEqual(frozenOnlyCoverage(changes('src/a.js', 'lib/b.js'), classifyPath, [entry(['src/**'])]), {
    files: ['src/a.js'],
    all: false,
  });
});

test('expired and malformed entries freeze nothing', (t) => {
  t.deepEqual(
    frozenOnlyCoverage(changes('src/a.js'), classifyPath, [
      entry(['src/**'], 'expired'),
      entry(['src/**'], 'malformed'),
    ]),
    { files: [], all: false },
  );
});

test('a patch without production files is never frozen-only', (t) => {
  t.deepEqual(frozenOnlyCoverage(changes('README.md'), classifyPath, [entry(['**'])]), { files: [], all: false });
});
