import test from 'ava';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { snapshotTree } from '../src/tree-snapshot.js';
import { finishWatch, startWatch } from '../src/write-watch.js';
import { smallTrees } from './helpers/small-tree.js';

const { tree, removeAll } = smallTrees('ag-watch-');

test.after.always(removeAll);

test('the watch names writes into watched roots with their content, and late writes into a copy', async (t) => {
  const base = await tree();
  const evidence = await tree();
  const copy = await tree();
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-watch-'));
  const start = await startWatch(
    [
      { role: 'baseline', path: base },
      { role: 'evidence', path: evidence },
    ],
    work,
  );
  const copyState = {
    side: 'patch' as const,
    round: 2,
    command: 'make test',
    dir: copy,
    snapshot: await snapshotTree(copy),
  };
  await fs.writeFile(path.join(evidence, 'mutation.json'), 'forged\n');
  await fs.writeFile(path.join(copy, 'b.txt'), 'late\n');
  const w = await finishWatch(start, [copyState]);
  t.deepEqual(
    w.watched.map((r) => r.role),
    ['baseline', 'evidence'],
  );
  t.deepEqual(w.outside_changes, [
    { role: 'evidence', path: '.', change: 'changed', sha256: null },
    {
      role: 'evidence',
      path: 'mutation.json',
      change: 'added',
      sha256: 'sha256:0ab55839dc48167751feca67b9256a6a088bc4d6787e91697c4f6aaae5753d7b',
    },
  ]);
  t.is(w.outside_changes_total, 2);
  t.deepEqual(w.late_changes, [{ side: 'patch', round: 2, command: 'make test', path: 'b.txt', change: 'changed' }]);
});

test('a world-writable evidence directory is listed as unwatched, not compared', async (t) => {
  const base = await tree();
  const shared = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-watch-'));
  await fs.chmod(shared, 0o1777);
  const start = await startWatch(
    [
      { role: 'baseline', path: base },
      { role: 'evidence', path: shared },
    ],
    os.tmpdir(),
  );
  await fs.writeFile(path.join(shared, 'someone-else'), '');
  const w = await finishWatch(start, []);
  t.deepEqual(w.unwatched, [{ role: 'evidence', path: shared, why: 'world-writable: anyone may write there' }]);
  t.is(w.outside_changes_total, 0);
});
