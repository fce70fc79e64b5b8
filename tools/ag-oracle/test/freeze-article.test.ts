import test from 'ava';
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { OracleArtefact } from '@adversary-gate/schemas';
import { BASE, makeRepos, oracleArgs, runOracle } from './helpers/repo.js';
import { removeTempDirs } from './helpers/tmp.js';

test.after.always(removeTempDirs);

test('a freeze list written as the verdict-file article writes it is read, its last_signature recorded', async (t) => {
  const entry = {
    nodeid: 'test/add.test.js::adds',
    expires: '2026-12-31',
    last_signature: 'AssertionError: 4 !== 5',
    covers: ['src/add.js'],
  };
  const repos = await makeRepos(
    { ...BASE, 'tests/flake_freeze.json': JSON.stringify([entry]) },
    { 'src/add.js': 'export const add = (a, b) => a + b;\n' },
  );
  const r = await runOracle(oracleArgs(repos));
  t.is(r.status, 0, r.stderr);
  const a = v.parse(OracleArtefact, JSON.parse(readFileSync(repos.out, 'utf8')));
  t.deepEqual(a.freeze.entries, [{ index: 0, ...entry, status: 'valid' }]);
  t.true(a.freeze.frozen_only, 'the entry still freezes what it covers');
});
