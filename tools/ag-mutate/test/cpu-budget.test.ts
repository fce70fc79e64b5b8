import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { makeRepo, repoArgs, runBin, type Files } from './helpers/repo.js';
import { readArtefact } from './helpers/artefact.js';

const PKG: Files = { 'package.json': '{"type":"module"}\n' };

function mutate(repo: ReturnType<typeof makeRepo>, command: string, extra: string[] = []) {
  return runBin([...repoArgs(repo, command), '--out', repo.file('mutation.json'), '--quiet', ...extra]);
}

test.serial(
  'an infinite loop is stopped by its CPU budget, far below the wall limit, in one run, and counts as a kill',
  async (t) => {
    const code = `export function count(n) {
  let i = 0;
  while (i < n) {
    i++;
  }
  return i;
}
`;
    const spec = `import test from 'node:test';
import assert from 'node:assert/strict';
import { count } from '../src/count.js';
test('counts up to n', () => { assert.equal(count(3), 3); assert.equal(count(0), 0); });
`;
    const repo = makeRepo(PKG, { 'src/count.js': code, 'test/count.test.js': spec });
    t.teardown(repo.cleanup);
    // A wall limit of 1000 × the baseline: only the CPU budget can end the loop in time.
    const r = await mutate(repo, 'node test/count.test.js', ['--max', '4', '--timeout-factor', '1000']);
    t.is(r.code, 0, r.stderr);
    const m = readArtefact(repo.file('mutation.json'));
    const budget = m.timing!.mutant_cpu_budget_ms!;
    const wall = m.timing!.mutant_timeout_ms!;
    t.is(budget, 2 * Math.ceil(m.timing!.baseline_cpu_ms!) + 2000);
    const hang = m.mutants.find((x) => x.operator === 'UpdateOperator')!;
    t.is(hang.status, 'timeout');
    t.true(hang.cpu_ms! >= budget, `${hang.cpu_ms} ms of CPU, budget ${budget}`);
    t.true(hang.duration_ms! < wall / 4, `ended after ${hang.duration_ms} ms, the wall limit is ${wall}`);
    for (const x of m.mutants) if (x !== hang) t.not(x.status, 'timeout', JSON.stringify(x));
    // A timeout counts as a kill.
    t.is(
      m.suite_strength,
      (m.counts.killed + m.counts.timeout) / (m.counts.killed + m.counts.timeout + m.counts.survived),
    );
  },
);

const WORK = `export function settle(rounds) {
  const passes = 2;
  let x = 0;
  for (let i = 0; i < rounds * passes; i++) x = (x + i) % 1000003;
  return rounds > 0 && x >= 0;
}
`;
// The suite does real CPU work; the mutant `passes = 3` does half as much again and still passes.
const WORK_TEST = `import test from 'node:test';
import assert from 'node:assert/strict';
import { settle } from '../src/settle.js';
test('settles', () => { assert.equal(settle(1e7), true); assert.equal(settle(0), false); });
`;

/** Spinners beside the run, one per core: the machine is loaded, the run's CPU is not. */
function hogs(): { stop(): void } {
  const spinners: ChildProcess[] = [];
  for (let i = 0; i < os.availableParallelism(); i++)
    spinners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return { stop: () => spinners.forEach((s) => s.kill('SIGKILL')) };
}

test.serial('a mutant slowed by a loaded machine gets the outcome it gets unloaded, never a timeout', async (t) => {
  const repo = makeRepo(PKG, { 'src/settle.js': WORK, 'test/settle.test.js': WORK_TEST });
  t.teardown(repo.cleanup);
  const args = ['--max', '5'];
  const idle = await mutate(repo, 'node test/settle.test.js', args);
  t.is(idle.code, 0, idle.stderr);
  const unloaded = readArtefact(repo.file('mutation.json'));
  const load = hogs();
  t.teardown(load.stop);
  const busy = await mutate(repo, 'node test/settle.test.js', args);
  load.stop();
  t.is(busy.code, 0, busy.stderr);
  const loaded = readArtefact(repo.file('mutation.json'));
  const outcomes = (a: typeof loaded) => Object.fromEntries(a.mutants.map((x) => [x.id, x.status]));
  t.deepEqual(outcomes(loaded), outcomes(unloaded));
  const slower = loaded.mutants.find((x) => x.operator === 'NumberLiteral' && x.replacement === '3');
  t.is(slower?.status, 'survived', JSON.stringify(loaded.mutants));
  t.is(loaded.counts.timeout, 0);
  for (const x of loaded.mutants)
    if (x.status !== 'no_coverage') t.true(x.cpu_ms! < loaded.timing!.mutant_cpu_budget_ms!);
});
