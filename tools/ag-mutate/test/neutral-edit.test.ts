import test from 'ava';
import { readFileSync } from 'node:fs';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { neutralEdit } from '../src/exec/neutral-edit.js';
import { makeRepo, runBin } from './helpers/repo.js';

test('the neutral edit appends a comment the language ignores', (t) => {
  t.is(
    neutralEdit('src/a.js', 'export const a = 1;\n'),
    'export const a = 1;\n/* adversary-gate: a behaviour-neutral edit */\n',
  );
  t.is(
    neutralEdit('src/a.ts', 'export const a = 1;'),
    'export const a = 1;\n/* adversary-gate: a behaviour-neutral edit */\n',
  );
  t.is(neutralEdit('app/a.py', 'A = 1\n'), 'A = 1\n# adversary-gate: a behaviour-neutral edit\n');
});

const DOUBLE_JS = 'export function double(x) {\n  return x + 2;\n}\n';

test('a suite that pins the source bytes kills every mutant for nothing: strength is not measured (neutral_edit_failed)', async (t) => {
  // The test passes only on the patch's exact file: any mutant "fails" it, whatever it changes.
  const pin = `import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { double } from '../src/double.js';
test('double', () => {
  assert.equal(typeof double(2), 'number');
  assert.equal(readFileSync(new URL('../src/double.js', import.meta.url), 'utf8'), ${JSON.stringify(DOUBLE_JS)});
});
`;
  const repo = makeRepo(
    { 'package.json': '{"type":"module"}\n' },
    { 'src/double.js': DOUBLE_JS, 'test/double.test.js': pin },
  );
  t.teardown(repo.cleanup);
  const r = await runBin([
    '--diff',
    repo.diff,
    '--tree',
    repo.tree,
    '--test-command',
    'node --test',
    '--jobs',
    '2',
    '--out',
    repo.file('m.json'),
  ]);
  t.is(r.code, 0, r.stderr);
  const m = JSON.parse(readFileSync(repo.file('m.json'), 'utf8')) as MutationArtefact;
  t.is(m.suite_strength, null);
  t.is(m.reason, 'neutral_edit_failed');
  t.deepEqual(m.mutants, []);
});
