/**
 * End to end under `--sandbox bwrap` (bubblewrap works on this machine; CI images where it does
 * not are exactly the "asked for and unavailable" case, which is tested with a stand-in).
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { agRun, calcProject, makeRepo, nodeTest, removeTemporaries, temporaryDir } from './helpers/repo.js';

test.after.always(removeTemporaries);

const SANDBOX = ['--sandbox', 'bwrap', '--rounds', '1', '--jobs', '2', '--timeout', '30'];

test('bwrap asked for and missing: exit 3, one stderr line, nothing written', async (t) => {
  const repo = await makeRepo(calcProject, {});
  const emptyBin = await temporaryDir('ag-nobwrap-');
  const r = await agRun(repo, ['--test-command', 'node --test test/', ...SANDBOX], { ...process.env, PATH: emptyBin });
  t.is(r.status, 3);
  t.regex(r.stderr, /^ag-run: usage: --sandbox bwrap: cannot start bwrap/);
  t.false(existsSync(r.out));
});

test('bwrap that cannot build namespaces (as under Docker seccomp): exit 3, never an unsandboxed run', async (t) => {
  const repo = await makeRepo(calcProject, {});
  const fakeBin = await temporaryDir('ag-badbwrap-');
  await fs.writeFile(
    path.join(fakeBin, 'bwrap'),
    '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  const r = await agRun(repo, ['--test-command', 'node --test test/', ...SANDBOX], {
    ...process.env,
    PATH: `${fakeBin}:${process.env.PATH}`,
  });
  t.is(r.status, 3);
  t.regex(r.stderr, /No permissions to create new namespace/);
  t.false(existsSync(r.out));
});

test('a sandbox that passes the probe but cannot be built for a run: UNRUNNABLE sandbox_setup and a fault, never a FAIL', async (t) => {
  const repo = await makeRepo(calcProject, {});
  const fakeBin = await temporaryDir('ag-halfbwrap-');
  const script =
    '#!/bin/sh\nfor a in "$@"; do last="$a"; done\n[ "$last" = true ] && exit 0\necho "bwrap: Can\'t mount tmpfs on /newroot/tmp" >&2\nexit 1\n';
  await fs.writeFile(path.join(fakeBin, 'bwrap'), script, { mode: 0o755 });
  const r = await agRun(repo, ['--test-command', 'exit 1', ...SANDBOX, '--runner', 'generic'], {
    ...process.env,
    PATH: `${fakeBin}:${process.env.PATH}`,
  });
  t.is(r.status, 0, r.stderr);
  const round = r.run!.claims[0]!.patch[0]!;
  t.deepEqual([round.outcome, round.kind], ['UNRUNNABLE', 'sandbox_setup']);
  t.true(r.run!.faults.some((f) => f.code === 'SANDBOX_SETUP'));
});

test('sandboxed: a passing project passes and the evidence says bwrap', async (t) => {
  const repo = await makeRepo(calcProject, { 'calc.js': 'exports.add = (a, b) => b + a;\n' });
  const run = (await agRun(repo, ['--test-command', 'node --test test/', ...SANDBOX])).run!;
  t.is(run.sandbox, 'bwrap');
  t.deepEqual(
    run.claims.map((c) => [c.status, c.class]),
    [['VERIFIED', 'still_passing']],
  );
  t.deepEqual(run.faults, []);
});

test('sandboxed: a network call to the host fails, so a test that needs it fails', async (t) => {
  const server = net.createServer((s) => s.end('hello\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = String((server.address() as net.AddressInfo).port);
  const files = {
    ...calcProject,
    'test/net.test.js': nodeTest(`const net = require('node:net');
test('reaches the host', () => new Promise((resolve, reject) => {
  const s = net.connect(Number(process.env.AG_E2E_PORT), '127.0.0.1');
  s.on('data', () => { s.destroy(); resolve(); });
  s.on('error', reject);
}));`),
  };
  const repo = await makeRepo(files, {});
  const env = { ...process.env, AG_E2E_PORT: port };
  const [openResult, boxedResult] = await Promise.all([
    agRun(repo, ['--test-command', 'node --test test/', '--rounds', '1', '--pass-env', 'AG_E2E_PORT'], env),
    agRun(repo, ['--test-command', 'node --test test/', ...SANDBOX, '--pass-env', 'AG_E2E_PORT'], env),
  ]);
  const open = openResult.run!;
  const boxed = boxedResult.run!;
  server.close();
  t.is(open.claims[0]!.patch[0]!.outcome, 'PASS');
  t.is(boxed.claims[0]!.patch[0]!.outcome, 'FAIL');
  t.true(boxed.claims[0]!.patch[0]!.tests!.some((x) => x.id === 'reaches the host' && x.outcome === 'failed'));
});

test('sandboxed: setsid grandchildren do not outlive the run', async (t) => {
  const marker = `5${Math.floor(Math.random() * 1e6)}.5`;
  const repo = await makeRepo(calcProject, { 'spawn.sh': `setsid sleep ${marker} &\nsleep ${marker} &\nexit 0\n` });
  const run = (await agRun(repo, ['--test-command', 'sh spawn.sh', ...SANDBOX, '--runner', 'generic'])).run!;
  t.is(run.claims[0]!.patch[0]!.outcome, 'PASS');
  t.false(execFileSync('ps', ['-eo', 'args']).toString().includes(`sleep ${marker}`));
});

test("sandboxed: the system is read-only; the trees, the evidence directory and the caller's HOME are invisible; a toolchain in HOME still runs", async (t) => {
  const repo = await makeRepo(calcProject, {
    'test/fs.test.js': nodeTest(`const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
test('sees only what it needs', () => {
  fs.writeFileSync('inside.txt', 'ok');
  assert.throws(() => fs.writeFileSync('/usr/ag-run-escape.txt', 'x'));
  for (const hidden of ['AG_E2E_PATCH', 'AG_E2E_BASELINE', 'AG_E2E_EVIDENCE']) assert.equal(fs.existsSync(process.env[hidden]), false, hidden);
  assert.equal(fs.existsSync(process.env.AG_E2E_HOME + '/secret.txt'), false);
  assert.equal(execFileSync('mytool').toString(), 'tool ran\\n');
  assert.equal(fs.existsSync('/usr/bin/env'), true);
});`),
  });
  const home = await temporaryDir('ag-caller-home-');
  await fs.writeFile(path.join(home, 'secret.txt'), 'token\n');
  await fs.mkdir(path.join(home, '.tool', 'bin'), { recursive: true });
  await fs.writeFile(path.join(home, '.tool', 'bin', 'mytool'), '#!/bin/sh\necho tool ran\n', { mode: 0o755 });
  const env = {
    ...process.env,
    HOME: home,
    PATH: `${path.join(home, '.tool', 'bin')}:${process.env.PATH}`,
    AG_E2E_PATCH: repo.patch,
    AG_E2E_BASELINE: repo.baseline,
    AG_E2E_EVIDENCE: repo.dir,
    AG_E2E_HOME: home,
  };
  const pass = ['AG_E2E_PATCH', 'AG_E2E_BASELINE', 'AG_E2E_EVIDENCE', 'AG_E2E_HOME'].flatMap((n) => ['--pass-env', n]);
  const run = (await agRun(repo, ['--test-command', 'node --test test/', ...SANDBOX, ...pass], env)).run!;
  t.is(run.claims[0]!.patch[0]!.outcome, 'PASS', run.claims[0]!.patch[0]!.stdout_tail);
  t.false(existsSync('/usr/ag-run-escape.txt'));
});
