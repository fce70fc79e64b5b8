import test from 'ava';
import { parseUnifiedDiff } from '@adversary-gate/core';
import { scanRunnerConfig, type SideBytes } from '../src/tamper/config-scan.js';

const modified = (p: string) =>
  parseUnifiedDiff(`diff --git a/${p} b/${p}\n--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-a\n+b\n`).files[0]!;
const reader = (baseline: SideBytes, patch: SideBytes) => async (side: 'baseline' | 'patch') =>
  side === 'baseline' ? baseline : patch;

test('any change to a configuration file counts, with its first added line', async (t) => {
  t.deepEqual(await scanRunnerConfig(modified('tests/conftest.py'), reader(null, null)), [
    {
      kind: 'runner_config_changed',
      path: 'tests/conftest.py',
      line: 1,
      detail: 'test-runner configuration tests/conftest.py modified',
    },
  ]);
});

test('a package.json that became a symlink or unreadable counts', async (t) => {
  const [f] = await scanRunnerConfig(modified('package.json'), reader(Buffer.from('{}'), 'unreadable'));
  t.is(f!.detail, 'package.json is not a readable regular file on the patch side');
});

test('an ordinary source file is no runner configuration', async (t) => {
  t.deepEqual(await scanRunnerConfig(modified('src/config.js'), reader(null, null)), []);
});
