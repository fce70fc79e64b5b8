import test from 'ava';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { childEnv, runProcess } from '../src/index.js';

const node = JSON.stringify(process.execPath);
const run = (cmd: string, cpuBudgetMs: number, timeoutMs = 120_000) =>
  runProcess({
    argv: ['/bin/sh', '-c', cmd],
    cwd: os.tmpdir(),
    env: childEnv({ home: os.tmpdir() }),
    timeoutMs,
    cpuBudgetMs,
  });

test('a run past its CPU budget is stopped long before the wall limit, and says so', async (t) => {
  const r = await run(`${node} -e 'for (;;) {}'`, 800);
  t.true(r.cpuBudgetHit);
  t.false(r.timedOut);
  t.true(r.cpuMs! >= 800, String(r.cpuMs));
  t.true(r.durationMs < 60_000, String(r.durationMs));
});

test('the CPU of descendants in a session of their own counts, and they are stopped too', async (t) => {
  const r = await run(`setsid ${node} -e 'for (;;) {}'; echo after`, 800);
  t.true(r.cpuBudgetHit);
  t.true(r.cpuMs! >= 800, String(r.cpuMs));
});

/** CPU ms a process has used so far (utime + stime, in ticks of USER_HZ = 100), from /proc. */
function cpuOf(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

test('without a budget the CPU is measured; processes outside the run do not count', async (t) => {
  // A spinner beside the runs, started and stopped here: it loads the machine, not the runs.
  const hog = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  t.teardown(() => hog.kill('SIGKILL'));
  const work = await run(
    `${node} -e 'let x = 0; for (let i = 0; i < 5e8; i++) x += i; if (x < 0) process.exit(1)'`,
    Infinity,
  );
  t.false(work.cpuBudgetHit);
  t.is(work.exitCode, 0);
  t.true(work.cpuMs! > 100, String(work.cpuMs));
  // By now the spinner has used more CPU than an empty run could: counting it would show.
  const idle = await run('exit 0', 10_000);
  const hogMs = cpuOf(hog.pid!);
  hog.kill('SIGKILL');
  t.true(hogMs >= 500, `the spinner used ${hogMs} ms`);
  t.false(idle.cpuBudgetHit);
  t.true(idle.cpuMs! < 300, String(idle.cpuMs));
});
