import test from 'ava';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scratch } from './scratch.js';
import { childEnv, runProcess } from '../src/index.js';
import { pidsWhere } from '../src/process/proc.js';

async function home() {
  return fs.mkdtemp(path.join(scratch, 'ag-home-'));
}

const sh = async (cmd: string, timeoutMs = 10_000, extra: Partial<Parameters<typeof runProcess>[0]> = {}) =>
  runProcess({
    argv: ['/bin/sh', '-c', cmd],
    cwd: os.tmpdir(),
    env: childEnv({ home: await home() }),
    timeoutMs,
    ...extra,
  });

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

test('an abort ends the run as the wall-clock limit does; a run that ends first is left alone', async (t) => {
  const late = new AbortController();
  // A loop that never ends: only the abort ends it, long before its 60 s limit.
  const running = sh('while :; do sleep 1; done', 60_000, { signal: late.signal });
  late.abort();
  const ended = await running;
  t.true(ended.timedOut);
  t.true(ended.durationMs < 30_000);
  const done = await sh('exit 0', 60_000, { signal: late.signal });
  t.true(done.timedOut, 'an already aborted signal ends a run at once');
  const fresh = new AbortController();
  const quick = await sh('exit 0', 60_000, { signal: fresh.signal });
  fresh.abort();
  t.false(quick.timedOut);
  t.is(quick.exitCode, 0);
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
  t.false(/^NO_COLOR=/m.test(r.stdoutTail), 'no colour switch is forced on the tests');
  t.is(/^CI=(.*)$/m.exec(r.stdoutTail)?.[1], process.env.CI, "CI is the caller's, or absent");
});

test('the environment changes nothing a suite sees about colour or CI: CI only as the caller has it', (t) => {
  const base = { PATH: '/usr/bin:/bin', FORCE_COLOR: '1', NO_COLOR: '1', TERM: 'xterm' };
  const plain = childEnv({ home: '/h', from: base });
  t.deepEqual(plain, { PATH: '/usr/bin:/bin', HOME: '/h', LANG: 'C.UTF-8', TZ: 'UTC' });
  t.is(childEnv({ home: '/h', from: { ...base, CI: 'true' } }).CI, 'true');
  t.is(childEnv({ home: '/h', from: { ...base, CI: '1' } }).CI, '1', "the caller's value, not a fixed one");
  t.is(childEnv({ home: '/h', from: { ...base, CI: '' } }).CI, '', 'set but empty stays set but empty');
  // A colour switch reaches the tests only when the caller passes it, as any other variable.
  const passed = childEnv({ home: '/h', from: base, passEnv: ['FORCE_COLOR'] });
  t.is(passed.FORCE_COLOR, '1');
  t.false('NO_COLOR' in passed);
});

test('a command that does not exist is a spawn error, not an exit code', async (t) => {
  const r = await runProcess({
    argv: ['/no/such/binary'],
    cwd: os.tmpdir(),
    env: childEnv({ home: await home() }),
    timeoutMs: 5000,
  });
  t.is(r.exitCode, null);
  t.regex(r.spawnError ?? '', /ENOENT/);
});

test('resource limits name their deaths: CPU (152), file size (153)', async (t) => {
  const { withLimits, deathKind } = await import('../src/index.js');
  const cpu = await runProcess({
    argv: withLimits(['/bin/sh', '-c', 'while :; do :; done'], { cpuSeconds: 1 }),
    cwd: os.tmpdir(),
    env: childEnv({ home: await home() }),
    timeoutMs: 20_000,
  });
  t.is(deathKind(cpu), 'rlimit_cpu');
  t.false(cpu.timedOut);
  const dir = await home();
  t.teardown(() => fs.rm(dir, { recursive: true, force: true }));
  const big = await runProcess({
    argv: withLimits(['/bin/sh', '-c', `head -c 3000000 /dev/zero > ${dir}/big`], { fileSizeBytes: 1 << 20 }),
    cwd: dir,
    env: childEnv({ home: dir }),
    timeoutMs: 20_000,
  });
  t.is(deathKind(big), 'rlimit_fsize');
  t.is((await fs.stat(path.join(dir, 'big'))).size, 1 << 20);
});

test('deathKind reads signals and shell-folded 128+n codes alike', async (t) => {
  const { deathKind } = await import('../src/index.js');
  const base = { timedOut: false, outputCapHit: false, spawnError: null };
  t.is(deathKind({ ...base, exitCode: null, signal: 'SIGXCPU' }), 'rlimit_cpu');
  t.is(deathKind({ ...base, exitCode: 153, signal: null }), 'rlimit_fsize');
  t.is(deathKind({ ...base, exitCode: 137, signal: null }), 'killed');
  t.is(deathKind({ ...base, exitCode: 139, signal: null }), 'signal');
  t.is(deathKind({ ...base, exitCode: 1, signal: null }), null);
  t.is(deathKind({ ...base, exitCode: null, signal: 'SIGKILL', timedOut: true }), 'timeout');
});

test('setsid escapees that kept the environment are found by the sweep token, killed and counted', async (t) => {
  const marker = `7${Math.floor(Math.random() * 1e6)}.5`;
  const r = await sh(`setsid sleep ${marker} & sleep 0.2; exit 0`, 10_000, { sweep: true });
  t.is(r.exitCode, 0);
  t.true((r.escapedProcesses ?? 0) >= 1);
  const { execFileSync } = await import('node:child_process');
  t.false(execFileSync('ps', ['-eo', 'args']).toString().includes(`sleep ${marker}`));
});

test('bwrap: the status fd tells a set-up failure from a command that exited 1', async (t) => {
  const { bwrapArgv, sandboxReachedCommand, probeBwrap } = await import('../src/index.js');
  const env = childEnv({ home: await home() });
  t.deepEqual(await probeBwrap(env, os.tmpdir()), { ok: true });
  const dir = await home();
  const ran = await runProcess({
    argv: bwrapArgv(['/bin/sh', '-c', 'exit 1'], { writable: [dir], chdir: dir }),
    cwd: dir,
    env,
    timeoutMs: 10_000,
    statusFd: true,
  });
  t.is(ran.exitCode, 1);
  t.true(sandboxReachedCommand(ran.statusText ?? ''));
  const broken = await runProcess({
    argv: bwrapArgv(['/bin/true'], { writable: ['/no/such/dir'], chdir: '/' }),
    cwd: dir,
    env,
    timeoutMs: 10_000,
    statusFd: true,
  });
  t.is(broken.exitCode, 1);
  t.false(sandboxReachedCommand(broken.statusText ?? ''));
});

test('bwrap: no network, private /tmp, read-only system, the named directory writable', async (t) => {
  const { bwrapArgv } = await import('../src/index.js');
  const dir = await home();
  const script = `touch ${dir}/ok && ! touch /usr/ag-escape 2>/dev/null && [ -z "$(ls /tmp | grep -v ag-test-)" ] && ! (exec 3<>/dev/tcp/127.0.0.1/22) 2>/dev/null; cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '`;
  const r = await runProcess({
    argv: bwrapArgv(['/bin/bash', '-c', script], { writable: [dir], chdir: dir }),
    cwd: dir,
    env: childEnv({ home: dir }),
    timeoutMs: 10_000,
    statusFd: true,
  });
  t.is(r.exitCode, 0, r.stderrTail);
  t.is(r.stdoutTail.trim(), 'lo');
  t.true((await fs.stat(path.join(dir, 'ok'))).isFile());
});

test('a missing bwrap is reported by the probe, not thrown', async (t) => {
  const { probeBwrap } = await import('../src/index.js');
  const p = await probeBwrap(childEnv({ home: await home() }), os.tmpdir(), '/no/such/bwrap');
  t.false(p.ok);
  t.regex((p as { problem: string }).problem, /cannot start/);
});

test('a writer that escaped every kill and holds the pipe open: the run still ends, with what came before the exit', async (t) => {
  const marker = `agpipe${process.pid}${Date.now()}`;
  // env -i drops the sweep token and setsid leaves the group: nothing here can find it.
  t.teardown(() => {
    for (const pid of pidsWhere((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker))) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // ended meanwhile
      }
    }
  });
  const r = await sh(
    `env -i setsid sh -c 'for i in 1 2 3; do echo ${marker}; sleep 0.2; done; sleep 30' & echo before-exit`,
  );
  t.is(r.exitCode, 0);
  t.true(r.stdoutTail.startsWith('before-exit\n'), r.stdoutTail.slice(0, 200));
  // What it wrote after the exit was read; once it fell quiet the wait for the pipe gave up.
  t.regex(r.stdoutTail, new RegExp(marker));
});

test("a zombie in the run's group is not an escapee; a setsid process of the run's uid is (as root)", async (t) => {
  const { freshIdentity } = await import('../src/index.js');
  if (process.getuid?.() !== 0) {
    // Without root there is no fresh uid to sweep by; the token sweep cannot see zombies at all.
    const r = await sh('exit 0', 10_000, { sweep: true });
    t.is(r.escapedProcesses, 0);
    return;
  }
  // The fresh uid must reach the folder: not under the scratch folder, which is root's alone.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-zombie-'));
  t.teardown(() => fs.rm(dir, { recursive: true, force: true }));
  await fs.chmod(dir, 0o777);
  // A group member forks a child that exits at once and, without reaping it (WNOWAIT), says so:
  // the leader exits while the zombie is still there, beside its living parent.
  const keepZombie = [
    'import os, sys, time',
    'pid = os.fork()',
    'if pid == 0: os._exit(0)',
    'os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)',
    'print("ready", flush=True)',
    'time.sleep(60)',
  ].join('\n');
  await fs.writeFile(path.join(dir, 'zombie.py'), keepZombie);
  const honest = await sh('mkfifo f; python3 zombie.py >f & read -r line <f; echo "$line"', 10_000, {
    cwd: dir,
    user: freshIdentity(),
  });
  t.is(honest.stdoutTail.trim(), 'ready', honest.stderrTail);
  t.is(honest.escapedProcesses, 0);
  const escaping = await sh(
    'mkfifo g h; python3 zombie.py >g & read -r line <g; setsid python3 zombie.py >h & read -r line <h',
    10_000,
    {
      cwd: dir,
      user: freshIdentity(),
    },
  );
  t.is(escaping.escapedProcesses, 1);
});
