import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_POLICY, sha256 } from '@adversary-gate/schemas';
import { loadPolicy } from '../src/index.js';
import { codes, decideWith, defaultPolicy, golden } from './helpers/golden.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-decide-policy-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** The first `json` block under "## The policy file" in docs/DESIGN.md, read from this repository. */
function designExample(): string {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/DESIGN.md', import.meta.url)), 'utf8');
  const m = /^## The policy file[^\n]*\n(?:(?!^## )[\s\S])*?^```json\n([\s\S]*?)^```/m.exec(doc);
  if (m === null) throw new Error('docs/DESIGN.md: no json block under "## The policy file"');
  return m[1]!;
}

test('the example policy of docs/DESIGN.md loads without a problem', async (t) => {
  const text = designExample();
  const p = await loadPolicy(write('design.json', text));
  t.is(p.problem, null);
  t.deepEqual(p.ref, { source: 'file', path: path.join(dir, 'design.json'), sha256: sha256(text) });
});

test('no --policy is the documented defaults', async (t) => {
  const p = await loadPolicy(undefined);
  t.deepEqual(p, { policy: DEFAULT_POLICY, ref: { source: 'default', path: null, sha256: null }, problem: null });
});

test('$schema and files.replace are read; replace without the globs it replaces is a problem', async (t) => {
  const ok = await loadPolicy(
    write(
      'ok.json',
      '{"$schema":"./policy.v1.schema.json","schema_version":1,"files":{"test":["checks/**"],"replace":["test"]}}',
    ),
  );
  t.is(ok.problem, null);
  t.deepEqual(ok.policy.files, { test: ['checks/**'], not_code: null, replace: ['test'] });
  const bad = await loadPolicy(write('bad.json', '{"schema_version":1,"files":{"replace":["not_code"]}}'));
  t.regex(bad.problem ?? '', /files\.replace/);
});

test('an oracle artefact made under the default policy is consistent; a half-null policy is not', (t) => {
  const g = golden();
  g.oracle.policy = { source: 'default', path: null, sha256: null };
  t.deepEqual(codes(decideWith(g)), []);
  const broken = golden();
  broken.oracle.policy = { source: 'default', path: 'adversary-gate.json', sha256: null };
  t.true(codes(decideWith(broken)).includes('EVIDENCE_INVALID'));
  const lying = golden();
  lying.oracle.policy = { source: 'file', path: null, sha256: null };
  t.true(codes(decideWith(lying)).includes('EVIDENCE_INVALID'));
});

test('oracle evidence made under the defaults is stale against a policy file ag-decide applies', (t) => {
  const g = golden();
  g.oracle.policy = { source: 'default', path: null, sha256: null };
  const filed = {
    ...defaultPolicy(),
    ref: { source: 'file' as const, path: 'adversary-gate.json', sha256: sha256('policy') },
  };
  t.true(codes(decideWith(g, filed)).includes('EVIDENCE_STALE'));
});
