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

const HONEST = `import test from 'node:test';
import assert from 'node:assert/strict';
import { double } from '../src/double.js';
test('double', () => { assert.equal(double(2), 4); });
`;

/** The pinning suite passes only on the patch's exact file: any mutant "fails" it, whatever it changes. */
const PIN = `import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { double } from '../src/double.js';
test('double', () => {
  assert.equal(typeof double(2), 'number');
  assert.equal(readFileSync(new URL('../src/double.js', import.meta.url), 'utf8'), ${JSON.stringify(DOUBLE_JS)});
});
`;

async function judged(spec: string, jobs: string): Promise<MutationArtefact> {
  const repo = makeRepo(
    { 'package.json': '{"type":"module"}\n' },
    { 'src/double.js': DOUBLE_JS, 'test/double.test.js': spec },
  );
  try {
    const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', 'node --test', '--jobs', jobs];
    const r = await runBin([...args, '--out', repo.file('m.json')]);
    if (r.code !== 0) throw new Error(r.stderr);
    return JSON.parse(readFileSync(repo.file('m.json'), 'utf8')) as MutationArtefact;
  } finally {
    repo.cleanup();
  }
}

/** The kinds of the baseline runs, sorted (two copies run theirs side by side, in whatever order they end). */
const kinds = (m: MutationArtefact) => m.baseline_runs?.map((r) => r.kind).sort();

for (const jobs of ['1', '2']) {
  test(`--jobs ${jobs}: a suite that pins the source bytes kills every mutant for nothing: strength is not measured (neutral_edit_failed)`, async (t) => {
    const m = await judged(PIN, jobs);
    t.is(m.suite_strength, null);
    t.is(m.reason, 'neutral_edit_failed');
    t.deepEqual(m.mutants, []);
    // The recorded run carries the edit and failed; so did the edit without the recording; a
    // plain run took its place (green twice with the other plain one), and the edit was asked
    // once more on its own.
    t.deepEqual(kinds(m), ['neutral', 'plain', 'plain', 'recorded']);
    t.is(typeof m.timing?.neutral_edit_ms, 'number');
  });

  test(`--jobs ${jobs}: control: an honest suite takes two baseline runs, the recorded one with the neutral edit, and is measured`, async (t) => {
    const m = await judged(HONEST, jobs);
    t.is(m.reason, null);
    t.true(m.mutants.length > 0);
    t.deepEqual(kinds(m), ['plain', 'recorded']);
    t.deepEqual(m.second_green_run, { source: 'own', note: null });
    t.is(m.timing?.neutral_edit_ms, undefined);
  });
}
