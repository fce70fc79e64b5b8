// The settings of one run: a flag over its AG_* variable over the default; a variable set
// empty is a setting (no coverage, no install), a bad number or shard is a usage error.
import test from 'ava';
import { parseShard, readSettings } from '../src/settings.js';

test('defaults, with nothing given: every command left to detection', (t) => {
  const s = readSettings({}, {});
  t.like(s, { base: 'origin/main', head: 'HEAD', out: '.adversary-gate', rounds: 3, timeout: 120, mutateMax: 20 });
  t.like(s, { installTimeout: 900, python: 'python3', sandbox: 'none', quiet: false, who: 'ag-gate' });
  for (const key of ['testCommand', 'coverageCommand', 'installCommand', 'junit', 'policy', 'shard'] as const)
    t.false(key in s, key);
});

test('a flag wins over its variable; a variable set empty is a setting, an empty ref is not', (t) => {
  const env = {
    AG_TEST_COMMAND: 'npm test',
    AG_COVERAGE_COMMAND: '',
    AG_INSTALL_COMMAND: '',
    AG_BASE: '',
    AG_TIMEOUT: '30',
  };
  const s = readSettings({ 'test-command': 'node --test', timeout: '45' }, env);
  t.is(s.testCommand, 'node --test');
  t.is(s.timeout, 45);
  t.is(s.coverageCommand, '', 'AG_COVERAGE_COMMAND= means no coverage');
  t.is(s.installCommand, '', 'AG_INSTALL_COMMAND= means no install');
  t.is(s.base, 'origin/main');
  t.is(readSettings({}, env).timeout, 30);
});

test('bad numbers, sandboxes and shards are usage errors naming the flag and the variable', (t) => {
  t.throws(() => readSettings({ rounds: '0' }, {}), {
    message: /--rounds \(AG_ROUNDS\) must be a whole number of at least 1, got: 0/,
  });
  t.throws(() => readSettings({}, { AG_TIMEOUT: '2m' }), { message: /--timeout \(AG_TIMEOUT\)/ });
  t.throws(() => readSettings({ sandbox: 'docker' }, {}), { message: /none or bwrap/ });
  t.throws(() => readSettings({}, { AG_MUTATE_SHARD: '3/2' }), { message: /K\/N with 1 <= K <= N/ });
  t.is(readSettings({ 'mutate-max': '0' }, {}).mutateMax, 0, 'a budget of 0 turns mutation off');
  t.is(readSettings({}, {}).mutateLineBudget, 200, 'the default budget gives every changed line a mutant');
  t.is(readSettings({ 'mutate-max': '4' }, {}).mutateLineBudget, 0, 'a budget given is the budget');
  t.is(readSettings({}, { AG_MUTATE_MAX: '4' }).mutateLineBudget, 0, 'given as a variable too');
});

test('a shard is K/N with 1 <= K <= N', (t) => {
  t.deepEqual(parseShard('2/3'), { k: 2, n: 3 });
  for (const bad of ['0/2', '1/0', '2', '/2', '1/2/3', '01/2', 'a/b']) t.throws(() => parseShard(bad), undefined, bad);
});

test('--pass-env takes variable names, comma-separated, from the flag or AG_PASS_ENV; none by default', (t) => {
  t.deepEqual(readSettings({}, {}).passEnv, []);
  t.deepEqual(readSettings({ 'pass-env': 'TZ, LANG' }, { AG_PASS_ENV: 'X' }).passEnv, ['TZ', 'LANG']);
  t.deepEqual(readSettings({}, { AG_PASS_ENV: 'TZ' }).passEnv, ['TZ']);
  t.throws(() => readSettings({ 'pass-env': 'TZ=UTC' }, {}), {
    message: /--pass-env takes variable names, got "TZ=UTC"/,
  });
});
