import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { measureFixtures } from '../src/fixtures/measure.js';
import { removeTempDirs, tempDir } from './helpers/tmp.js';

test.after.always(removeTempDirs);

function trees(files: { baseline: Record<string, string>; patch: Record<string, string> }) {
  const dir = tempDir('measure');
  for (const side of ['baseline', 'patch'] as const) {
    mkdirSync(path.join(dir, side));
    for (const [rel, body] of Object.entries(files[side])) {
      mkdirSync(path.dirname(path.join(dir, side, rel)), { recursive: true });
      writeFileSync(path.join(dir, side, rel), body);
    }
  }
  return { baseline: path.join(dir, 'baseline'), patch: path.join(dir, 'patch') };
}

test('each root is compared once; a root in neither tree is a fault', async (t) => {
  const { baseline, patch } = trees({ baseline: { 'fx/a': '1' }, patch: { 'fx/a': '2' } });
  const r = await measureFixtures(baseline, patch, ['fx', 'fx', 'gone']);
  t.deepEqual(
    r.fixtures.map((f) => [f.root, f.changed]),
    [
      ['fx', ['fx/a']],
      ['gone', []],
    ],
  );
  t.deepEqual(
    r.faults.map((f) => f.code),
    ['FIXTURE_ROOT_MISSING'],
  );
});

test('a root only the patch removed is drift, not a fault', async (t) => {
  const { baseline, patch } = trees({ baseline: { 'fx/a': '1' }, patch: {} });
  const r = await measureFixtures(baseline, patch, ['fx']);
  t.deepEqual(r.faults, []);
  t.deepEqual(r.fixtures[0]!.removed, ['fx/a']);
  t.not(r.fixtures[0]!.expected, r.fixtures[0]!.actual);
});
