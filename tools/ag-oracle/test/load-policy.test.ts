import test from 'ava';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { InputError, UsageError } from '@adversary-gate/core';
import { DEFAULT_POLICY, LoadError, sha256 } from '@adversary-gate/schemas';
import { loadPolicy } from '../src/policy/load-policy.js';
import { removeTempDirs, tempDir } from './helpers/tmp.js';

test.after.always(removeTempDirs);

function trees(policy: string | null) {
  const dir = tempDir('policy');
  const baseline = path.join(dir, 'baseline');
  const patch = path.join(dir, 'patch');
  mkdirSync(baseline);
  mkdirSync(patch);
  if (policy !== null) writeFileSync(path.join(baseline, 'adversary-gate.json'), policy);
  writeFileSync(path.join(patch, 'adversary-gate.json'), '{"schema_version":1,"oracle":{"protected":["x"]}}');
  return { dir, baseline, patch };
}

const GOOD = '{"schema_version":1,"oracle":{"protected":["tests/oracle/**"],"fixtures":["tests/fixtures"]}}';

test('the baseline policy is loaded with its digest and defaults filled in', async (t) => {
  const { baseline, patch } = trees(GOOD);
  const p = await loadPolicy({ baseline, patch });
  t.is(p.source, 'file');
  t.is(p.path, path.join(baseline, 'adversary-gate.json'));
  t.is(p.sha256, sha256(GOOD));
  t.deepEqual(p.policy.oracle, {
    protected: ['tests/oracle/**'],
    fixtures: ['tests/fixtures'],
    freeze: null,
    golden: [],
  });
});

test('a baseline without a policy file is judged under the defaults', async (t) => {
  const p = await loadPolicy(trees(null));
  t.deepEqual({ source: p.source, path: p.path, sha256: p.sha256 }, { source: 'default', path: null, sha256: null });
  t.deepEqual(p.policy, DEFAULT_POLICY);
});

test('a policy without oracle.protected protects the defaults; $schema is allowed', async (t) => {
  const p = await loadPolicy(trees('{"$schema":"./policy.v1.schema.json","schema_version":1,"oracle":{}}'));
  t.is(p.source, 'file');
  t.deepEqual(p.policy.oracle.protected, DEFAULT_POLICY.oracle.protected);
  const none = await loadPolicy(trees('{"schema_version":1,"floors":{"diff_coverage":0.9}}'));
  t.deepEqual(none.policy.oracle.protected, DEFAULT_POLICY.oracle.protected);
  t.is(none.policy.floors.diff_coverage, 0.9);
});

test('a missing --policy, an unreadable or invalid policy file is refused as an input error', async (t) => {
  const { baseline, patch, dir } = trees(null);
  await t.throwsAsync(loadPolicy({ baseline, patch, policy: path.join(dir, 'nowhere.json') }), {
    instanceOf: InputError,
    message: /no such file: the policy must be readable/,
  });
  await t.throwsAsync(loadPolicy(trees('{"schema_version":1,"oracle":{"protected":[]}}')), {
    instanceOf: LoadError,
    message: /must not be empty/,
  });
  await t.throwsAsync(loadPolicy(trees('{"schema_version":2}')), { instanceOf: LoadError });
  await t.throwsAsync(loadPolicy(trees('{"schema_version":1,"files":{"replace":["test"]}}')), {
    instanceOf: LoadError,
    message: /files\.replace/,
  });
  // something is at adversary-gate.json but it is no file: not "absent", so not the defaults
  const dangling = trees(null);
  symlinkSync(path.join(dangling.dir, 'gone.json'), path.join(dangling.baseline, 'adversary-gate.json'));
  await t.throwsAsync(loadPolicy(dangling), { instanceOf: LoadError, message: /symbolic link/ });
  const folder = trees(null);
  mkdirSync(path.join(folder.baseline, 'adversary-gate.json'));
  await t.throwsAsync(loadPolicy(folder));
});

test('a --policy inside the patch tree is refused, also through a symlink', async (t) => {
  const { dir, baseline, patch } = trees(GOOD);
  await t.throwsAsync(loadPolicy({ baseline, patch, policy: path.join(patch, 'adversary-gate.json') }), {
    instanceOf: UsageError,
  });
  symlinkSync(patch, path.join(dir, 'alias'));
  await t.throwsAsync(loadPolicy({ baseline, patch, policy: path.join(dir, 'alias', 'adversary-gate.json') }), {
    instanceOf: UsageError,
    message: /inside the patch tree/,
  });
});

test('a baseline placed inside the patch tree cannot supply the policy', async (t) => {
  const { patch } = trees(GOOD);
  const inner = path.join(patch, '.base');
  mkdirSync(inner);
  writeFileSync(path.join(inner, 'adversary-gate.json'), GOOD);
  await t.throwsAsync(loadPolicy({ baseline: inner, patch }), { instanceOf: UsageError });
});
