/**
 * End to end: writes outside the tree copies, the unprivileged uid a root caller's tests run
 * as, and a fork bomb held by RLIMIT_NPROC.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { agRun, calcProject, makeRepo, nodeTest, removeTemporaries } from './helpers/repo.js';

test.after.always(removeTemporaries);

const asRoot = process.getuid?.() === 0;

const planter = nodeTest(`const fs = require('node:fs');
test('plants', () => {
  for (const f of [process.env.AG_E2E_BASELINE + '/planted.txt', process.env.AG_E2E_EVIDENCE + '/open/forged.json']) {
    try { fs.writeFileSync(f, 'x\\n'); } catch (e) { console.log('refused ' + e.code); }
  }
});`);

async function plantingRepo(openBaseline: boolean) {
  const repo = await makeRepo(calcProject, { 'test/plant.test.js': planter });
  // Reachable for any uid (a temporary directory is 0700); `open` is writable for any uid.
  await fs.chmod(repo.dir, 0o755);
  await fs.mkdir(path.join(repo.dir, 'open'));
  await fs.chmod(path.join(repo.dir, 'open'), 0o777);
  if (openBaseline) await fs.chmod(repo.baseline, 0o777);
  const env = { ...process.env, AG_E2E_BASELINE: repo.baseline, AG_E2E_EVIDENCE: repo.dir };
  const args = [
    '--test-command',
    'node --test test/',
    '--rounds',
    '1',
    '--pass-env',
    'AG_E2E_BASELINE',
    '--pass-env',
    'AG_E2E_EVIDENCE',
  ];
  return { repo, result: await agRun(repo, args, env) };
}

test('files the tests write into the baseline tree and the evidence directory are recorded with their content', async (t) => {
  const { repo, result } = await plantingRepo(true);
  t.is(result.status, 0, result.stderr);
  const w = result.run!.write_watch!;
  t.deepEqual(
    w.watched.map((r) => r.role),
    ['baseline', 'patch', 'evidence'],
  );
  const added = w.outside_changes.filter((c) => c.change === 'added');
  const x = `sha256:${createHash('sha256').update('x\n').digest('hex')}`;
  t.deepEqual(
    added.map((c) => `${c.role}:${c.path}`),
    ['baseline:planted.txt', 'evidence:open/forged.json'],
  );
  t.deepEqual(
    added.map((c) => c.sha256),
    [x, x],
  );
  t.true(existsSync(path.join(repo.baseline, 'planted.txt')));
});

test('the tests run as the caller, or as a fresh unprivileged uid when the caller is root (root-owned trees are then read-only)', async (t) => {
  const { repo, result } = await plantingRepo(false);
  const run = result.run!;
  t.is(run.run_as, asRoot ? 'unprivileged' : 'caller');
  t.is(run.limits.processes, asRoot ? 1024 : undefined);
  const planted = existsSync(path.join(repo.baseline, 'planted.txt'));
  t.is(planted, !asRoot);
  t.is(
    run.write_watch!.outside_changes.some((c) => c.role === 'baseline'),
    !asRoot,
  );
  // The world-writable directory inside the evidence directory is writable for any uid.
  t.true(run.write_watch!.outside_changes.some((c) => c.path === 'open/forged.json'));
});

test("a process explosion is stopped at the uid's process limit and recorded as rlimit_nproc, sandboxed or not", async (t) => {
  // Bounded on purpose: without a uid of its own (a non-root caller) nothing would hold a real fork bomb.
  // bash, not dash: at the limit bash retries the fork for seconds, as a bomb keeps trying, where dash
  // exits at once (and inside the sandbox's pid namespace takes its children with it).
  const marker = `30.${Math.floor(Math.random() * 1e9)}`;
  const repo = await makeRepo(calcProject, { 'spawn.sh': `for i in $(seq 200); do sleep ${marker} & done; wait\n` });
  const args = [
    '--test-command',
    'bash spawn.sh',
    '--runner',
    'generic',
    '--rounds',
    '1',
    '--jobs',
    '2',
    // Below the sleeps' 30 s (a caller without a uid of its own ends on it), and long enough for the
    // uid's count to be seen on a loaded machine, where one scan of /proc can take seconds.
    '--timeout',
    '25',
    '--max-processes',
    '64',
  ];
  const [open, boxed] = await Promise.all([agRun(repo, args), agRun(repo, [...args, '--sandbox', 'bwrap'])]);
  const kinds = [open, boxed].map((r) => r.run!.claims[0]!.patch[0]!.kind);
  t.deepEqual(kinds, asRoot ? ['rlimit_nproc', 'rlimit_nproc'] : ['timeout', 'timeout']);
  t.false(execFileSync('ps', ['-eo', 'args']).toString().includes(marker));
});
