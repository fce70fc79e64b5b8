#!/usr/bin/env node
/**
 * Benchmark: ag-mutate on the four real commits of the StrykerJS anchors
 * (/work/shared/bench/mutate or --bench DIR), side by side with StrykerJS's measured figures,
 * plus a generated node:test project anyone can rerun from this repository alone.
 *
 *   node bench/compare.mjs [--work DIR] [--bench DIR] [--runs N] [--jobs N]
 *                          [--express-git GITDIR] [--ptr-git GITDIR] [--cases a,b] [--generated-only]
 *
 * With --express-git / --ptr-git (bare clones of expressjs/express and pillarjs/path-to-regexp)
 * each commit is exported with `git archive` into WORK/<case> and its dependencies installed
 * from npm (`npm install --ignore-scripts`). Nothing is written into this repository.
 * Prints one JSON line per run and a Markdown table at the end.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/ag-mutate.js', import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const WORK = opt('work', path.join(os.tmpdir(), 'ag-mutate-bench'));
const BENCH = opt('bench', fileURLToPath(new URL('../../../../shared/bench/mutate', import.meta.url)));
const RUNS = Number(opt('runs', '1'));
const JOBS = opt('jobs', String(os.availableParallelism()));

const MOCHA = 'node_modules/.bin/mocha --require test/support/env --reporter dot --check-leaks test/ test/acceptance/';
const VITEST = 'node_modules/.bin/vitest run src/index.spec.ts';
const CASES = {
  'ptr-escape': { git: 'ptr-git', commit: '9a788793e7eeb0ccf9c53c1cb54d297b5badfcc3', test: VITEST, mutant: `${VITEST} --bail=1` },
  'ptr-optional': { git: 'ptr-git', commit: '22a967901afc8b2b42eefe456faa7b6773dcc415', test: VITEST, mutant: `${VITEST} --bail=1` },
  'express-send-te': { git: 'express-git', commit: '18e5985b8a9d5e8423db0a9121f22bdaecd5b120', test: MOCHA, mutant: MOCHA.replace('mocha ', 'mocha --bail ') },
  'express-query-fresh': { git: 'express-git', commit: 'ae6dd37680e3a00618d6c8a3e522f0ee4eeba1a4', test: MOCHA, mutant: MOCHA.replace('mocha ', 'mocha --bail ') },
};

function prepare(name, spec) {
  const dir = path.join(WORK, name);
  if (existsSync(path.join(dir, 'node_modules'))) return dir;
  const gitDir = opt(spec.git);
  if (!gitDir) return null;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', [`--git-dir=${gitDir}`, 'archive', spec.commit]);
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'], { cwd: dir, stdio: 'ignore' });
  return dir;
}

function loadAverage() {
  return os.loadavg()[0].toFixed(1);
}

function runOnce(label, tree, diff, test, mutant, extra = []) {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-bench-out-'));
  const out = path.join(outDir, 'mutation.json');
  const load = loadAverage();
  const started = process.hrtime.bigint();
  const argv = [BIN, '--diff', diff, '--tree', tree, '--test-command', test, '--jobs', JOBS, '--out', out, '--quiet', ...extra];
  if (mutant) argv.push('--mutant-command', mutant);
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${label}: ag-mutate exit ${r.status}: ${r.stderr}`);
  const m = JSON.parse(readFileSync(out, 'utf8'));
  writeFileSync(path.join(WORK, `${label}.mutation.json`), JSON.stringify(m, null, 2));
  rmSync(outDir, { recursive: true, force: true });
  const row = { case: label, wall_s: +wall.toFixed(2), mutants: m.mutants.length, counts: m.counts, strength: m.suite_strength, reason: m.reason, baseline_s: (m.timing?.baseline_ms ?? 0) / 1000, load_avg_1m: +load };
  console.log(JSON.stringify(row));
  return { row, artefact: m };
}

function plainRun(tree, test) {
  const started = process.hrtime.bigint();
  spawnSync('/bin/sh', ['-c', test], { cwd: tree, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** A generated node:test project: N small functions added by one commit, strong tests. */
function generated(n = 12) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-bench-gen-'));
  const tree = path.join(root, 'tree');
  mkdirSync(path.join(tree, 'src'), { recursive: true });
  mkdirSync(path.join(tree, 'test'), { recursive: true });
  writeFileSync(path.join(tree, 'package.json'), '{"type":"module"}\n');
  const git = (...a) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...a], { cwd: tree });
  git('init', '-q');
  writeFileSync(path.join(tree, 'src', 'lib.js'), 'export const base = 1;\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
  let src = 'export const base = 1;\n';
  let spec = "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport * as lib from '../src/lib.js';\n";
  for (let i = 0; i < n; i++) {
    src += `export function f${i}(a, b) {\n  if (a > b) return a - b;\n  return a + b * ${i + 2};\n}\n`;
    spec += `test('f${i}', () => { assert.equal(lib.f${i}(5, 1), 4); assert.equal(lib.f${i}(1, 1), ${1 + (i + 2)}); assert.equal(lib.f${i}(1, 2), ${1 + 2 * (i + 2)}); });\n`;
  }
  writeFileSync(path.join(tree, 'src', 'lib.js'), src);
  writeFileSync(path.join(tree, 'test', 'lib.test.js'), spec);
  git('add', '-A');
  git('commit', '-qm', 'patch');
  const diff = path.join(root, 'changes.diff');
  writeFileSync(diff, execFileSync('git', ['diff', 'HEAD~1', 'HEAD'], { cwd: tree }));
  return { root, tree, diff, test: 'node test/lib.test.js' };
}

mkdirSync(WORK, { recursive: true });
const rows = [];
const selected = (opt('cases') ?? Object.keys(CASES).join(',')).split(',');
if (!args.includes('--generated-only')) {
  for (const name of selected) {
    const spec = CASES[name];
    const tree = prepare(name, spec);
    if (tree === null) {
      console.error(`skip ${name}: no ${path.join(WORK, name)} and no --${spec.git}`);
      continue;
    }
    const measured = JSON.parse(readFileSync(path.join(BENCH, name, 'measured.json'), 'utf8'));
    const plain = plainRun(tree, spec.test);
    for (let i = 0; i < RUNS; i++) {
      const { row } = runOnce(name, tree, path.join(BENCH, name, 'commit.diff'), spec.test, spec.mutant);
      const floor = 1.5 + measured.dry_net_s + measured.limit_lb_s;
      rows.push({ ...row, plain_s: +plain.toFixed(2), stryker_s: measured.stryker_wall_med, stryker_mutants: measured.mutants, floor_s: +floor.toFixed(2) });
    }
  }
}
const gen = generated();
const genPlain = plainRun(gen.tree, gen.test);
for (let i = 0; i < RUNS; i++) rows.push({ ...runOnce('generated-node-test', gen.tree, gen.diff, gen.test, null).row, plain_s: +genPlain.toFixed(2), stryker_s: null, floor_s: null });
rmSync(gen.root, { recursive: true, force: true });

console.log('\n| case | mutants | K / T / S / NC / SB | strength | wall s | mutants/s | plain run s | StrykerJS s (anchor) | wall / floor | load 1m |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const c = r.counts;
  console.log(
    `| ${r.case} | ${r.mutants} | ${c.killed} / ${c.timeout} / ${c.survived} / ${c.no_coverage} / ${c.stillborn} | ${r.strength === null ? `null (${r.reason})` : r.strength.toFixed(3)} | ${r.wall_s} | ${(r.mutants / r.wall_s).toFixed(2)} | ${r.plain_s} | ${r.stryker_s ?? '—'} | ${r.floor_s ? (r.wall_s / r.floor_s).toFixed(1) : '—'} | ${r.load_avg_1m} |`,
  );
}
