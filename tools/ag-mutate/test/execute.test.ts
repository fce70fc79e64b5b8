import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Site } from '../src/engines/site.js';
import { execute } from '../src/exec/execute.js';
import { CPU_SLACK_MS, mutantCpuBudget, mutantTimeout, TIMEOUT_SLACK_MS } from '../src/exec/limits.js';

function tree() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-exec-'));
  const root = path.join(dir, 'tree');
  mkdirSync(root);
  writeFileSync(path.join(root, 'a.txt'), 'good\n');
  // State the runs share on purpose (a lock, a marker): as root each run has its own uid,
  // so it lives in a folder every uid may write.
  chmodSync(dir, 0o755);
  const shared = path.join(dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  return { dir, root, shared, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const site = (over: Partial<Site>): Site => ({
  file: 'a.txt',
  line: 1,
  column: 1,
  start: 0,
  end: 4,
  operator: 'op',
  rank: 1,
  original: 'good',
  replacement: 'evil',
  parses: true,
  ...over,
});
const OPTS = { jobs: 2, timeoutFactor: 2, baselineTimeoutMs: 30_000, passEnv: [] };

test('the test command sees each mutant in a copy; the original tree is never written', async (t) => {
  const f = tree();
  t.teardown(f.cleanup);
  const command = 'grep -q good a.txt; r=$?; echo junk > created.txt; echo bad > a.txt.bak; exit $r';
  const r = await execute([site({}), site({ replacement: 'good', start: 4, end: 4 })], new Map([['a.txt', 'good\n']]), {
    ...OPTS,
    tree: f.root,
    command,
  });
  t.is(r.baseline.status, 'green');
  t.deepEqual(r.statuses, ['killed', 'survived']);
  t.deepEqual(readdirSync(f.root), ['a.txt']);
  t.is(readFileSync(path.join(f.root, 'a.txt'), 'utf8'), 'good\n');
});

test('a mutant that does not parse is stillborn without a run', async (t) => {
  const f = tree();
  t.teardown(f.cleanup);
  const marker = path.join(f.shared, 'ran');
  const command = `grep -q evil a.txt && touch ${marker}; exit 0`;
  const r = await execute([site({ parses: false })], new Map([['a.txt', 'good\n']]), {
    ...OPTS,
    tree: f.root,
    command,
  });
  t.deepEqual(r.statuses, ['stillborn']);
  t.throws(() => readFileSync(marker));
});

test('a baseline that passes once and fails once is flaky; one that always fails is red; no mutant runs', async (t) => {
  const f = tree();
  t.teardown(f.cleanup);
  const lock = path.join(f.shared, 'lock');
  const flaky = await execute([site({})], new Map([['a.txt', 'good\n']]), {
    ...OPTS,
    tree: f.root,
    command: `mkdir ${lock} 2>/dev/null`,
  });
  t.is(flaky.baseline.status, 'flaky');
  t.deepEqual(flaky.statuses, []);
  const red = await execute([site({})], new Map([['a.txt', 'good\n']]), {
    ...OPTS,
    jobs: 1,
    tree: f.root,
    command: 'exit 1',
  });
  t.is(red.baseline.status, 'red');
});

test('mutants run the mutant command, the baseline the test command', async (t) => {
  const f = tree();
  t.teardown(f.cleanup);
  const r = await execute([site({})], new Map([['a.txt', 'good\n']]), {
    ...OPTS,
    tree: f.root,
    command: 'exit 0',
    mutantCommand: 'exit 1',
  });
  t.is(r.baseline.status, 'green');
  t.deepEqual(r.statuses, ['killed']);
});

test('a mutant run that waits past the wall-clock backstop without CPU is judged once more at twice the limit, and stays a timeout', async (t) => {
  const f = tree();
  t.teardown(f.cleanup);
  const runs = path.join(f.shared, 'runs');
  // Made here and open to the run's uid: a file the uid made in a shared folder is swept after its run.
  writeFileSync(runs, '');
  chmodSync(runs, 0o666);
  // The mutant's run hangs without using CPU (a deadlock, a wait on nothing): only the wall limit ends it.
  const mutantCommand = `echo run >> ${runs}; sleep 120; exit 0`;
  const r = await execute([site({})], new Map([['a.txt', 'good\n']]), {
    ...OPTS,
    tree: f.root,
    command: 'exit 0',
    mutantCommand,
  });
  t.deepEqual(r.statuses, ['timeout']);
  // Starved of CPU as a loaded machine's run would be: judged again with twice the wall time, where a hang hangs again.
  t.is(readFileSync(runs, 'utf8'), 'run\nrun\n', 'one more run at twice the limit');
  // Ended by the limit, never by the command: twice a loaded machine's limit is still far below the sleep.
  t.true(r.verdicts[0]!.durationMs! < 100_000, `${r.verdicts[0]!.durationMs} ms`);
});

test('the CPU budget is twice the clean run CPU plus 2 CPU-seconds, from the same runs as the wall limit', async (t) => {
  t.is(mutantCpuBudget(0), CPU_SLACK_MS);
  t.is(mutantCpuBudget(1000), 2000 + CPU_SLACK_MS);
  t.is(mutantCpuBudget(333.3), 667 + CPU_SLACK_MS);
  const f = tree();
  t.teardown(f.cleanup);
  const r = await execute([site({})], new Map([['a.txt', 'good\n']]), { ...OPTS, tree: f.root, command: 'exit 0' });
  t.not(r.baseline.cpuMs, null);
  t.is(r.mutantCpuBudgetMs, mutantCpuBudget(r.baseline.cpuMs!));
  t.not(r.verdicts[0]!.cpuMs, undefined);
});

test('the mutant timeout comes from the baseline runs that did not record: a slow recording does not lengthen it', async (t) => {
  const f = tree();
  t.teardown(f.cleanup);
  // The recording run (NODE_V8_COVERAGE set: a.txt is a file to cover) stands for a runner
  // slowed by coverage; the mutants run as the plain baseline run does.
  const command = 'if [ -n "$NODE_V8_COVERAGE" ]; then sleep 6; fi; exit 0';
  const r = await execute([site({})], new Map([['a.txt', 'good\n']]), {
    ...OPTS,
    tree: f.root,
    command,
    coverFiles: new Set(['a.txt']),
  });
  t.is(r.baseline.status, 'green');
  const [recorded, plain] = r.baseline.results;
  // Both pay the machine's load; only the recorded one sleeps 6 s on top.
  t.true(recorded!.durationMs >= 6000);
  t.true(
    plain!.durationMs < recorded!.durationMs,
    JSON.stringify(r.baseline.runs.map((x) => [x.kind, x.result.durationMs])),
  );
  t.is(r.baseline.durationMs, plain!.durationMs);
  t.is(r.mutantTimeoutMs, mutantTimeout(plain!.durationMs, OPTS.timeoutFactor));
});

test('the mutant timeout is the baseline time times the factor plus a fixed slack', (t) => {
  t.is(mutantTimeout(1000, 2), 2000 + TIMEOUT_SLACK_MS);
  t.is(mutantTimeout(333.3, 1.5), 500 + TIMEOUT_SLACK_MS);
});
