import test from 'ava';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { InputError, UsageError } from '@adversary-gate/core';
import { LoadError, sha256 } from '@adversary-gate/schemas';
import { isWithin, loadPolicy } from '../src/policy/load-policy.js';
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
  t.is(p.sha256, sha256(GOOD));
  t.deepEqual(p.policy.oracle, { protected: ['tests/oracle/**'], fixtures: ['tests/fixtures'], freeze: null });
});

test('a missing, invalid or protected-less policy is refused as an input error', async (t) => {
  await t.throwsAsync(loadPolicy(trees(null)), { instanceOf: InputError, message: /no such file: the policy must be adversary-gate\.json at the baseline root/ });
  await t.throwsAsync(loadPolicy(trees('{"schema_version":1,"oracle":{"protected":[]}}')), { instanceOf: LoadError, message: /must not be empty/ });
  await t.throwsAsync(loadPolicy(trees('{"schema_version":1,"oracle":{}}')), { instanceOf: InputError, message: /no "oracle\.protected" list/ });
  await t.throwsAsync(loadPolicy(trees('{"schema_version":2}')), { instanceOf: LoadError });
});

test('a --policy inside the patch tree is refused, also through a symlink', async (t) => {
  const { dir, baseline, patch } = trees(GOOD);
  await t.throwsAsync(loadPolicy({ baseline, patch, policy: path.join(patch, 'adversary-gate.json') }), { instanceOf: UsageError });
  symlinkSync(patch, path.join(dir, 'alias'));
  await t.throwsAsync(loadPolicy({ baseline, patch, policy: path.join(dir, 'alias', 'adversary-gate.json') }), { instanceOf: UsageError, message: /inside the patch tree/ });
});

test('a baseline placed inside the patch tree cannot supply the policy', async (t) => {
  const { patch } = trees(GOOD);
  const inner = path.join(patch, '.base');
  mkdirSync(inner);
  writeFileSync(path.join(inner, 'adversary-gate.json'), GOOD);
  await t.throwsAsync(loadPolicy({ baseline: inner, patch }), { instanceOf: UsageError });
});

test('isWithin tells inside from beside', (t) => {
  t.true(isWithin('/a/b', '/a/b'));
  t.true(isWithin('/a/b', '/a/b/c'));
  t.false(isWithin('/a/b', '/a/bc'));
  t.false(isWithin('/a/b', '/a'));
  t.true(isWithin('/a/b', '/a/b/..c'));
});
