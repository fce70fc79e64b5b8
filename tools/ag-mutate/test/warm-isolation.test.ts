// The warm vitest hosts are runs of the patch's code like any other: the same resource limits
// (files, data, CPU, processes), and, as root, what their uid
// leaves in /tmp is removed once the host is gone.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { measured } from './helpers/artefact.js';
import { makeRepo } from './helpers/repo.js';

const VITEST = 'node_modules/.bin/vitest run';
const asRoot = process.getuid?.() === 0;
const statuses = (m: MutationArtefact) =>
  Object.fromEntries(m.mutants.map((x) => [`${x.line}:${x.column}:${x.replacement}`, x.status]));

test('a test on the warm host runs under every run’s limits and leaves nothing in /tmp, as in a fresh run', async (t) => {
  t.timeout(240_000);
  const mark = `ag-warm-${randomBytes(6).toString('hex')}`;
  // The test passes only under every run's limits (files 256 MiB, CPU bounded, and as root 1024
  // processes): on a host without them the clean run fails, and the hosts are turned off.
  const spec = `import { expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { half } from '../src/calc.js';
test('half gives a number, under the limits', () => {
  writeFileSync('/tmp/${mark}-' + process.pid, 'x');
  const limits = readFileSync('/proc/self/limits', 'utf8');
  expect(limits).toMatch(/^Max file size +268435456 /m);
  expect(limits).toMatch(/^Max cpu time +\\d+ /m);
  expect(limits).toMatch(/^Max data size +8589934592 /m);
  if (${asRoot}) expect(limits).toMatch(/^Max processes +1024 /m);
  expect(typeof half(5)).toBe('number');
});
`;
  const repo = makeRepo(
    { 'package.json': '{ "type": "module" }\n', 'test/half.test.js': spec },
    { 'src/calc.js': 'export const half = (x) => x / 2;\nexport const third = (x) => x / 3;\n' },
    { linkModules: true },
  );
  t.teardown(repo.cleanup);
  const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', VITEST, '--jobs', '1'];
  const [warm, fresh] = await Promise.all([
    measured(t, [...args, '--warm-host', 'auto'], repo.file('warm.json')),
    measured(t, [...args, '--warm-host', 'off'], repo.file('fresh.json')),
  ]);
  t.is(warm.reason, null, JSON.stringify(warm.baseline_runs));
  t.true((warm.timing?.warm_host_mutants ?? 0) > 0, JSON.stringify(warm.timing));
  // The honest part: the weak test lets mutants survive, on the host as in fresh processes.
  t.deepEqual(statuses(warm), statuses(fresh));
  t.true(warm.counts.survived > 0, JSON.stringify(warm.counts));
  const left = readdirSync('/tmp').filter((f) => f.startsWith(mark));
  if (asRoot) t.deepEqual(left, [], 'every fresh run’s and every host’s uid had its files removed');
  else t.true(left.length > 0, 'as the caller, nothing is swept: its own files cannot be told apart');
});
