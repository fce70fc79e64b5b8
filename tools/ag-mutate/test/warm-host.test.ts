import test from 'ava';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { measured } from './helpers/artefact.js';
import { makeRepo, type Files } from './helpers/repo.js';

const VITEST = 'node_modules/.bin/vitest run';
const MUTANT = `${VITEST} --bail=1`;

/** Three functions: one checked by value, one only by type, one whose `i++` → `i--` loops for ever; and a counter bumped at import. */
const CALC_JS = `let loads = 0;
loads++;
export const loadCount = () => loads;
export const discount = (t, r) => t - t * r;
export const half = (x) => x / 2;
export function sumTo(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += i;
  return s;
}
`;

const GOOD_TEST = `import { expect, test } from 'vitest';
import { discount, loadCount, sumTo } from '../src/calc.js';
test('discount takes the rate off', () => { expect(discount(100, 0.25)).toBe(75); });
test('sumTo adds up', () => { expect(sumTo(4)).toBe(6); });
test('the module loaded once in this file', () => { expect(loadCount()).toBe(1); });
`;

const WEAK_TEST = `import { expect, test } from 'vitest';
import { half, loadCount } from '../src/calc.js';
test('half gives a number', () => { expect(typeof half(5)).toBe('number'); });
test('the module loaded once in this file too', () => { expect(loadCount()).toBe(1); });
`;

const BASE: Files = { 'package.json': '{ "type": "module" }\n' };
const PROJECT: Files = { 'src/calc.js': CALC_JS, 'test/good.test.js': GOOD_TEST, 'test/weak.test.js': WEAK_TEST };

const statuses = (m: MutationArtefact) =>
  Object.fromEntries(m.mutants.map((x) => [`${x.line}:${x.column}:${x.replacement}`, x.status]));

for (const jobs of ['1', '2'])
  test.serial(
    `vitest, --jobs ${jobs}: every mutant's status on the warm host equals its status with --warm-host off`,
    async (t) => {
      t.timeout(300_000); // two whole executions side by side, one with an infinite-loop mutant each
      const repo = makeRepo(BASE, PROJECT, { linkModules: true });
      t.teardown(repo.cleanup);
      const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', VITEST, '--mutant-command', MUTANT];
      const [warm, fresh] = await Promise.all([
        measured(t, [...args, '--jobs', jobs, '--warm-host', 'auto'], repo.file('warm.json')),
        measured(t, [...args, '--jobs', jobs, '--warm-host', 'off'], repo.file('fresh.json')),
      ]);
      t.deepEqual(warm.test_selection, { runner: 'vitest', mode: 'whole-command' });
      t.true(warm.mutants.length >= 8, JSON.stringify(warm.counts));
      // vitest compiles every module, so the baseline records no coverage; the recorded run
      // records the calls into the changed functions, through vitest's transform.
      for (const m of [warm, fresh]) {
        t.true(
          m.baseline_runs?.some((r) => r.kind === 'recorded'),
          JSON.stringify(m.baseline_runs),
        );
        t.is(m.footprint?.status, 'measured', JSON.stringify(m.footprint));
      }
      t.deepEqual(statuses(warm), statuses(fresh));
      t.true((warm.timing?.warm_host_mutants ?? 0) > 0, JSON.stringify(warm.timing));
      t.is(fresh.timing?.warm_host_mutants, undefined);
      const loop = warm.mutants.find((x) => x.line === 8 && x.replacement === '--');
      t.is(loop?.status, 'timeout');
      // The loop cost its forks, not its host: one host per copy, nothing judged again.
      t.is(warm.timing?.warm_host_starts, Number(jobs), JSON.stringify(warm.timing));
      t.is(warm.timing?.warm_host_rejudged, 0, JSON.stringify(warm.timing));
      // Its budget is the fresh rule applied to the host's own clean run (twice its CPU plus
      // 2 CPU-s), below a fresh run's.
      const { warm_host_clean_cpu_ms: clean, warm_host_cpu_budget_ms: budget } = warm.timing ?? {};
      t.true(clean !== undefined && budget !== undefined, JSON.stringify(warm.timing));
      t.true(budget! <= 2 * Math.ceil(clean!) + 2000, JSON.stringify(warm.timing));
      t.true(budget! < warm.timing!.mutant_cpu_budget_ms!, JSON.stringify(warm.timing));
      // The import counter: a fresh process per test file sees 1, and so does the host.
      const counter = warm.mutants.find((x) => x.line === 2 && x.replacement === '--');
      t.is(counter?.status, 'killed');
      t.true(warm.counts.survived > 0, JSON.stringify(warm.counts));
      t.true(warm.counts.killed > 0, JSON.stringify(warm.counts));
    },
  );

test.serial('vitest: a config with plugins is judged by fresh processes, as the artefact says', async (t) => {
  const config =
    "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ plugins: [], test: {} });\n";
  const repo = makeRepo({ ...BASE, 'vitest.config.js': config }, PROJECT, { linkModules: true });
  t.teardown(repo.cleanup);
  const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', VITEST, '--mutant-command', MUTANT];
  const m = await measured(t, [...args, '--jobs', '2', '--max', '4', '--warm-host', 'auto'], repo.file('m.json'));
  t.is(m.timing?.warm_host_mutants, undefined);
  t.is(
    m.timing?.fresh_process_mutants,
    m.mutants.filter((x) => x.status !== 'no_coverage' && x.status !== 'stillborn').length,
  );
  t.true(m.mutants.length > 0);
});

/**
 * Tests that leave state behind them in their process, each beside a mutant that survives:
 * a run on a fork kept from an earlier run would see that state and fail, a fresh process
 * never does. The fresh-state probe must see it, and the run must be made again on a new fork.
 */
const LEFTOVERS: Record<string, string> = {
  'a global': `expect(globalThis.seenBefore).toBe(undefined); globalThis.seenBefore = true;`,
  'an environment variable': `expect(process.env.SEEN_BEFORE).toBe(undefined); process.env.SEEN_BEFORE = '1';`,
  'a patched built-in': `expect(Array.prototype.seen).toBe(undefined); Array.prototype.seen = () => 1;`,
  'a process listener': `expect(process.listenerCount('beforeExit')).toBe(0); process.on('beforeExit', () => {});`,
  'a module required natively': `const { createRequire } = await import('node:module');
  expect(createRequire(import.meta.url)('./counter.cjs').bump()).toBe(1);`,
};
/** The patch changes `half` alone, so that its few mutants are all the leaving test runs for. */
const HALF_BEFORE: Files = {
  'src/calc.js': CALC_JS.replace('x / 2', 'x * 0.5'),
  'test/counter.cjs': 'let n = 0;\nexports.bump = () => ++n;\n',
};

for (const [what, body] of Object.entries(LEFTOVERS))
  test.serial(`vitest: a test leaving ${what} behind gets a fresh process's verdicts on the warm host`, async (t) => {
    t.timeout(120_000);
    const leaves = `import { expect, test } from 'vitest';
import { half } from '../src/calc.js';
test('half gives a number', async () => { expect(typeof half(5)).toBe('number'); ${body} });
`;
    const repo = makeRepo(
      { ...BASE, ...HALF_BEFORE, 'test/leaves.test.js': leaves },
      { 'src/calc.js': CALC_JS },
      {
        linkModules: true,
      },
    );
    t.teardown(repo.cleanup);
    const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', VITEST, '--mutant-command', MUTANT];
    const [warm, fresh] = await Promise.all([
      measured(t, [...args, '--jobs', '1', '--warm-host', 'auto'], repo.file('warm.json')),
      measured(t, [...args, '--jobs', '1', '--warm-host', 'off'], repo.file('fresh.json')),
    ]);
    t.true(warm.mutants.length >= 2, JSON.stringify(warm.counts));
    t.deepEqual(statuses(warm), statuses(fresh));
    t.true(warm.counts.survived > 0, JSON.stringify(warm.counts));
    t.true((warm.timing?.warm_host_mutants ?? 0) > 0, JSON.stringify(warm.timing));
    t.true((warm.timing?.warm_host_stale_fork_runs ?? 0) >= 1, JSON.stringify(warm.timing));
  });

test.serial('vitest: tests that leave nothing behind run on kept forks', async (t) => {
  const repo = makeRepo(BASE, PROJECT, { linkModules: true });
  t.teardown(repo.cleanup);
  const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', VITEST, '--mutant-command', MUTANT];
  const m = await measured(t, [...args, '--jobs', '1', '--max', '4', '--warm-host', 'auto'], repo.file('m.json'));
  t.true((m.timing?.warm_host_reused_fork_runs ?? 0) >= 3, JSON.stringify(m.timing));
  t.is(m.timing?.warm_host_stale_fork_runs, 0, JSON.stringify(m.timing));
});

/**
 * A function that, when its guard is mutated, starts a process and leaves it to be adopted
 * (a shell that starts it in the background and ends); the test file first checks that no such
 * process from an earlier run is still running in its copy. A fresh run's group is killed when
 * it ends, so a fresh process never sees one.
 */
const LAUNCH_JS = `import { spawn } from 'node:child_process';
export function launch(n) {
  if (n > 1) spawn('sh', ['-c', '"$0" -e "setInterval(() => {}, 1000) // ag-stray" &', process.execPath], { stdio: 'ignore' });
  return n + 1;
}
export const half = (x) => x / 2;
`;
const STRAY_TEST = `import fs from 'node:fs';
import { expect, test } from 'vitest';
import { half, launch } from '../src/launch.js';
const here = fs.realpathSync(process.cwd());
const strays = () => fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).filter((p) => {
  try {
    return fs.readFileSync(\`/proc/\${p}/cmdline\`, 'utf8').includes('ag-stray') && fs.realpathSync(\`/proc/\${p}/cwd\`) === here;
  } catch { return false; }
});
test('nothing an earlier run started is running', () => { expect(strays()).toEqual([]); });
test('launch counts on', () => { expect(launch(1)).toBe(2); });
test('half halves', () => { expect(half(4)).toBe(2); });
`;

test.serial('vitest: what a mutant run leaves running ends with it on the warm host, as in a fresh run', async (t) => {
  t.timeout(180_000);
  const before = LAUNCH_JS.replace('n > 1', 'n > 9').replace('x / 2', 'x * 0.5');
  const repo = makeRepo(
    { ...BASE, 'src/launch.js': before, 'test/launch.test.js': STRAY_TEST },
    { 'src/launch.js': LAUNCH_JS },
    { linkModules: true },
  );
  t.teardown(repo.cleanup);
  const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', VITEST, '--mutant-command', MUTANT];
  const [forward, reverse, fresh] = await Promise.all([
    measured(t, [...args, '--jobs', '1', '--warm-host', 'auto'], repo.file('forward.json')),
    measured(t, [...args, '--jobs', '1', '--warm-host', 'auto', '--order', 'reverse'], repo.file('reverse.json')),
    measured(t, [...args, '--jobs', '1', '--warm-host', 'off'], repo.file('fresh.json')),
  ]);
  // Some mutants of the guard start the process and survive; every later run must not see it.
  const launching = fresh.mutants.filter((x) => x.line === 3 && x.status === 'survived');
  t.true(launching.length >= 1, JSON.stringify(fresh.mutants.map((x) => [x.line, x.replacement, x.status])));
  t.true(fresh.mutants.length >= 4, JSON.stringify(fresh.counts));
  t.deepEqual(statuses(forward), statuses(fresh));
  t.deepEqual(statuses(reverse), statuses(fresh));
  for (const warm of [forward, reverse]) {
    t.is(warm.timing?.warm_host_mutants, warm.mutants.length, JSON.stringify(warm.timing));
    t.is(warm.timing?.warm_host_rejudged, 0, JSON.stringify(warm.timing));
  }
});
