#!/usr/bin/env node
// The gate gates itself: the whole pipeline on this repository's own latest commit.
//
//   node scripts/self-check/self-check.mjs [--base REF] [--head REF] [--out DIR]
//
// Exports the two commits (git archive), links the checkout's installed node_modules into
// each tree and builds the packages the tests need from the tree's own sources, then runs
// ag-run (3 claim rounds), coverage (c8 over the same tests), ag-mutate on the changed
// lines, ag-oracle under scripts/self-check/policy.json, and ag-decide. Prints the test
// subset it chose, the reviewer page and the verdict; exits like `ag-decide check`
// (0 ACCEPT, 1 REJECT, 2 HOLD, 3 bad usage).
//
// Settings (environment): AG_POLICY (default scripts/self-check/policy.json), AG_ROUNDS (3),
// AG_TIMEOUT (seconds per test run, 900), AG_MUTATE_MAX (20), AG_JOBS (cores),
// AG_SELF_CHECK_E2E=1 (also run the end-to-end test files the commit selects: minutes each).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packagesToBuild, planTests, testArgs } from './plan.mjs';
import { prepareTree } from './prepare-tree.mjs';

const HERE = import.meta.dirname;
const ROOT = path.resolve(HERE, '../..');
const BIN = path.join(ROOT, 'node_modules/.bin');
const JUNIT = '.self-check-junit.xml';

const fail = (msg) => {
  console.error(`self-check: ${msg}`);
  process.exit(3);
};
let opts;
try {
  opts = parseArgs({
    options: {
      base: { type: 'string', default: 'HEAD~1' },
      head: { type: 'string', default: 'HEAD' },
      out: { type: 'string', default: path.join(os.tmpdir(), 'adversary-gate-self-check') },
    },
  }).values;
} catch (e) {
  fail(e.message);
}
const env = process.env;
const policy = path.resolve(env.AG_POLICY ?? path.join(HERE, 'policy.json'));
const rounds = env.AG_ROUNDS ?? '3';
const timeout = env.AG_TIMEOUT ?? '900';
const mutateMax = env.AG_MUTATE_MAX ?? '20';
const jobs = env.AG_JOBS ?? String(os.availableParallelism());
if (!existsSync(policy)) fail(`policy not found: ${policy}`);

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 });
const sha = (ref) => {
  try {
    return git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`).trim();
  } catch {
    return fail(`unknown ref: ${ref}`);
  }
};
const base = sha(opts.base);
const head = sha(opts.head);
const out = path.resolve(opts.out);
rmSync(out, { recursive: true, force: true });
const trees = {
  baseline: path.join(out, 'baseline'),
  patch: path.join(out, 'patch'),
  coverage: path.join(out, 'coverage-tree'),
};
for (const [side, commit] of [
  ['baseline', base],
  ['patch', head],
]) {
  mkdirSync(trees[side], { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${trees[side]}"`], { cwd: ROOT });
}
const diffFile = path.join(out, 'changes.diff');
writeFileSync(diffFile, git('diff', '--no-color', '--no-ext-diff', '--find-renames', base, head));
const changed = git('diff', '--name-only', '--no-renames', base, head).split('\n').filter(Boolean);

// ---- the test subset ----
const listDir = (rel) => {
  try {
    return readdirSync(path.join(trees.patch, rel));
  } catch {
    return [];
  }
};
const plan = planTests(changed, listDir, env.AG_SELF_CHECK_E2E === '1');
const targets = testArgs(plan);
const testCommand = `node ${path.join(HERE, 'run-tests.mjs')} --junit ${JUNIT} ${targets.join(' ')}`;
const t0 = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `self-check: ${opts.base} ${base.slice(0, 12)} → ${opts.head} ${head.slice(0, 12)}: ${changed.length} changed paths`,
);
console.log(
  'self-check: tests run (a subset: the whole `npm test` takes about 5 min, too long for 3 claim rounds on two trees and every mutant):',
);
for (const p of plan.packages) console.log(`  ${p}: its whole unit suite`);
for (const f of plan.e2e) console.log(`  test/${f} (end-to-end)`);
if (targets.length === 0)
  console.log('  none: no changed path selects a test (the run will be UNRUNNABLE, the verdict HOLD)');
if (plan.e2eLeftOut.length > 0) {
  console.log(
    `  not run: ${plan.e2eLeftOut.map((f) => `test/${f}`).join(', ')} (end-to-end: a whole pipeline per case; AG_SELF_CHECK_E2E=1 runs them)`,
  );
}
if (plan.untested.length > 0) console.log(`  not exercised by any selected test: ${plan.untested.join(', ')}`);
console.log(`self-check: test command: ${testCommand}`);

// ---- trees: dependencies and builds ----
const builds = packagesToBuild(plan);
const same = builds.filter((p) => !changed.some((c) => c.startsWith(`${p}/`)));
const pp = await prepareTree(
  ROOT,
  trees.patch,
  builds.filter((p) => existsSync(path.join(trees.patch, p))),
  path.join(out, 'build-patch.log'),
);
const pb = await prepareTree(
  ROOT,
  trees.baseline,
  builds.filter((p) => existsSync(path.join(trees.baseline, p))),
  path.join(out, 'build-baseline.log'),
  {
    from: trees.patch,
    packages: same,
  },
);
console.log(
  `self-check: patch tree: built ${pp.built.join(' ') || 'nothing'} (${secs(pp.ms)}); baseline tree: built ${pb.built.join(' ') || 'nothing'}, dist/ of the unchanged packages copied from the patch tree (${secs(pb.ms)})`,
);
for (const [side, r] of [
  ['baseline', pb],
  ['patch', pp],
]) {
  if (r.failed.length > 0)
    console.log(
      `self-check: build failed on the ${side}: ${r.failed.join(' ')} (see ${out}/build-${side}.log); its tests will say so`,
    );
}
cpSync(trees.patch, trees.coverage, { recursive: true, verbatimSymlinks: true });

// ---- the five tools ----
// Tests that read the benchmark corpus beside the checkout (ag-diffcov's parity with
// diff-cover) find it through AG_BENCH_DIR from the trees' copies.
const benchDir = path.resolve(ROOT, '../shared/bench');
const benchEnv = existsSync(benchDir) ? { AG_BENCH_DIR: benchDir } : {};
const passBench = existsSync(benchDir) ? ['--pass-env', 'AG_BENCH_DIR'] : [];
if (benchEnv.AG_BENCH_DIR !== undefined) process.env.AG_BENCH_DIR = benchEnv.AG_BENCH_DIR; // ag-run and ag-mutate pass it on

const tool = (name, args) => {
  const started = Date.now();
  const r = spawnSync(path.join(BIN, name), args, { stdio: ['ignore', 'inherit', 'inherit'] });
  console.log(`self-check: ${name} exit ${r.status ?? r.signal} (${secs(Date.now() - started)})`);
  return r.status;
};
const ev = (k) => path.join(out, `${k}.json`);

tool('ag-run', [
  '--baseline',
  trees.baseline,
  '--patch',
  trees.patch,
  '--diff',
  diffFile,
  '--test-command',
  testCommand,
  '--rounds',
  rounds,
  '--timeout',
  timeout,
  '--junit',
  JUNIT,
  '--jobs',
  jobs,
  ...passBench,
  '--quiet',
  '--out',
  ev('run'),
]);

const covStarted = Date.now();
const c8 = spawnSync(
  'sh',
  [
    '-c',
    `node_modules/.bin/c8 --reporter=lcov --report-dir=coverage --exclude='**/test/**' --exclude='**/dist/**' ${testCommand}`,
  ],
  {
    cwd: trees.coverage,
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...env, ...benchEnv, NODE_OPTIONS: '' },
  },
);
const lcov = path.join(trees.coverage, 'coverage/lcov.info');
console.log(
  `self-check: coverage (c8) exit ${c8.status} (${secs(Date.now() - covStarted)})${existsSync(lcov) ? '' : ': no report'}`,
);
const covArgs = existsSync(lcov) ? ['--coverage', lcov, '--root', trees.coverage] : [];
tool('ag-diffcov', [
  '--diff',
  diffFile,
  ...covArgs,
  '--policy',
  policy,
  '--quiet',
  '--out',
  ev('diffcov'),
  '--markdown',
  path.join(out, 'diffcov.md'),
]);

tool('ag-mutate', [
  '--diff',
  diffFile,
  '--tree',
  trees.patch,
  '--test-command',
  testCommand,
  '--max',
  mutateMax,
  '--mutant-command',
  testCommand.replace(' --junit ', ' --fail-fast --junit '),
  '--jobs',
  jobs,
  ...passBench,
  '--policy',
  policy,
  '--quiet',
  '--out',
  ev('mutation'),
]);

tool('ag-oracle', [
  '--diff',
  diffFile,
  '--baseline',
  trees.baseline,
  '--patch',
  trees.patch,
  '--policy',
  policy,
  '--quiet',
  '--out',
  ev('oracle'),
]);

const evidence = ['run', 'diffcov', 'mutation', 'oracle'].flatMap((k) => ['--evidence', ev(k)]);
tool('ag-decide', [
  '--diff',
  diffFile,
  ...evidence,
  '--policy',
  policy,
  '--out',
  ev('verdict'),
  '--markdown',
  path.join(out, 'verdict.md'),
  '--quiet',
]);

const page = path.join(out, 'verdict.md');
if (existsSync(page)) console.log(`\n${readFileSync(page, 'utf8')}`);
console.log(`self-check: whole run ${secs(Date.now() - t0)}; artefacts in ${out}`);
const check = spawnSync(path.join(BIN, 'ag-decide'), ['check', ev('verdict'), '--diff', diffFile], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
process.exit(check.status ?? 2);
