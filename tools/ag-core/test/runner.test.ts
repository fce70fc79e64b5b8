import test from 'ava';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childEnv, runProcess } from '../src/index.js';

async function home() {
  return fs.mkdtemp(path.join(os.tmpdir(), 'ag-home-'));
}

const sh = async (cmd: string, timeoutMs = 10_000, extra: Partial<Parameters<typeof runProcess>[0]> = {}) =>
  runProcess({ argv: ['/bin/sh', '-c', cmd], cwd: os.tmpdir(), env: childEnv({ home: await home() }), timeoutMs, ...extra });

test('exit code, signal and timeout are separate fields', async (t) => {
  const r = await sh('exit 7');
  t.is(r.exitCode, 7);
  t.is(r.signal, null);
  t.false(r.timedOut);
  const k = await sh('kill -HUP $$');
  t.is(k.exitCode, null);
  t.is(k.signal, 'SIGHUP');
  t.false(k.timedOut);
});

test('a child that ignores SIGTERM is killed at the timeout', async (t) => {
  const r = await sh('trap "" TERM; while :; do sleep 1; done', 300, { graceMs: 200 });
  t.true(r.timedOut);
  t.is(r.signal, 'SIGKILL');
});

test('background children are killed after a clean exit and counted', async (t) => {
  const r = await sh('sleep 30 & echo started');
  t.is(r.exitCode, 0);
  t.true(r.leftoverProcesses >= 1);
});

test('output past the cap kills the group and keeps only the tail', async (t) => {
  const r = await sh('yes flood', 20_000, { outputCapBytes: 1 << 20, tailBytes: 1024 });
  t.true(r.outputCapHit);
  t.true(r.truncated);
  t.true(r.stdoutBytes > 1 << 20);
  t.true(r.stdoutTail.length <= 1024);
});

test('the child sees only allowlisted variables', async (t) => {
  process.env.AG_TEST_SECRET = 'hunter2';
  const r = await sh('env');
  t.false(r.stdoutTail.includes('hunter2'));
  t.true(r.stdoutTail.includes('TZ=UTC'));
  t.true(r.stdoutTail.includes('CI=true'));
});

test('a command that does not exist is a spawn error, not an exit code', async (t) => {
  const r = await runProcess({ argv: ['/no/such/binary'], cwd: os.tmpdir(), env: childEnv({ home: await home() }), timeoutMs: 5000 });
  t.is(r.exitCode, null);
  t.regex(r.spawnError ?? '', /ENOENT/);
});
