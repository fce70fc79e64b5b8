import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { loadJson, OracleArtefact, PolicyFile, sha256 } from '@adversary-gate/schemas';
import { designPolicyExample } from './helpers/design-policy.js';
import { BASE, makeRepos, oracleArgs, runOracle, type Tree } from './helpers/repo.js';
import { removeTempDirs, tempDir } from './helpers/tmp.js';

test.after.always(removeTempDirs);

test('the example policy of docs/DESIGN.md passes the strict policy schema', async (t) => {
  const file = path.join(tempDir('design'), 'adversary-gate.json');
  writeFileSync(file, designPolicyExample());
  const { value } = await loadJson(file, PolicyFile);
  t.is(value.schema_version, 1);
});

test('ag-oracle runs under the example policy of docs/DESIGN.md on a repository that has what it names', async (t) => {
  const text = designPolicyExample();
  const policy = JSON.parse(text) as { oracle?: { fixtures?: string[]; freeze?: string | null } };
  // what the example names must exist for the measurement to be made; give it exactly that
  const base: Record<string, string | null> = {
    ...(BASE as Record<string, string | null>),
    'adversary-gate.json': text,
    'tests/flake_freeze.json': null,
    'tests/fixtures/golden.json': null,
    'tests/fixtures/deep/more.txt': null,
  };
  for (const root of policy.oracle?.fixtures ?? [])
    base[`${root.replace(/\/?\*.*$/, '') || 'fixtures'}/example.txt`] = 'x\n';
  if (typeof policy.oracle?.freeze === 'string') base[policy.oracle.freeze] = '[]\n';
  const repos = await makeRepos(base as Tree, { 'src/add.js': 'export const add = (a, b) => a + b;\n' });
  const r = await runOracle(oracleArgs(repos));
  t.is(r.status, 0, r.stderr);
  const artefact = v.parse(OracleArtefact, JSON.parse(readFileSync(repos.out, 'utf8')));
  t.deepEqual(artefact.policy, {
    source: 'file',
    path: path.join(repos.baseline, 'adversary-gate.json'),
    sha256: sha256(text),
  });
  t.deepEqual([artefact.faults, artefact.tampering, artefact.oracle_touched], [[], [], []]);
});
