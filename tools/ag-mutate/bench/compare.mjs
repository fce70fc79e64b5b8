#!/usr/bin/env node
/**
 * Benchmark: ag-mutate and StrykerJS side by side, one after the other in the same run, on
 * the four real commits of the StrykerJS anchors (/work/shared/bench/mutate or --bench DIR),
 * plus a generated node:test project anyone can rerun from this repository alone.
 *
 *   node bench/compare.mjs [--work DIR] [--bench DIR] [--runs N] [--jobs N] [--cases a,b]
 *                          [--express-git GITDIR] [--ptr-git GITDIR] [--no-stryker] [--generated-only | --no-generated]
 *                          [--warm-host auto|off] [--no-prior-run] [--no-record]
 *
 * Checkouts live in WORK/<case> (default /tmp/agm-bench). A missing one is exported with
 * `git archive` from --express-git / --ptr-git (bare clones of expressjs/express and
 * pillarjs/path-to-regexp) and its dependencies and StrykerJS 9.6 are installed from npm
 * into WORK/<case>.deps, the checkout's node_modules a link to them, as the gate's pipelines
 * give a tree its packages (so the patch tree's id does not hash them). Each tool starts on an
 * idle machine: before each timed run the script waits (up to a minute) for a second in which
 * at least 90 % of the CPU time was idle.
 * StrykerJS runs twice: with the anchors' settings (perTest, concurrency 2, timeoutMS 5000,
 * timeoutFactor 1.5, the anchors' `mutate` lines, a single line given as `N-N`: StrykerJS reads
 * a bare `file:N` as a glob and mutates other sites), and again with a fresh test process per
 * mutant (`maxTestRunnerReuse: 1`: no state leaks between mutants, the answers ag-mutate gives);
 * both are in the table. Each ag-mutate mutant is compared with
 * the anchors' fresh-process truth (the command-runner report where there is one) by the
 * mutated line it produces. As in the gate's pipelines, ag-mutate is given ag-run's run.json
 * (`--run`) for the same diff and patch tree, made (untimed) right before it runs (the
 * baseline tree exported beside the checkout, its dependencies linked): ag-run's green run on
 * the patch is then the baseline's second, and ag-mutate's own runs are the recorded one and
 * the mutants', as StrykerJS's are its dry run and the mutants'. --no-prior-run leaves it out
 * (ag-mutate runs the second green run itself). Prints one JSON line per run and a Markdown table at the end (the
 * 1-minute load average is in every row), which is appended with the machine to
 * bench/RESULTS.md (bench/lib/results.mjs at the repository root); --no-record only prints it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchRecorder, markdownTable } from '../../../bench/lib/results.mjs';
import { CASES } from './cases.mjs';
import { exportBaseline, writeRunJson } from './prior-run.mjs';

const recorder = benchRecorder(import.meta.url);

const BIN = fileURLToPath(new URL('../bin/ag-mutate.js', import.meta.url));
const USAGE = `usage: node bench/compare.mjs [--work DIR] [--bench DIR] [--runs N] [--jobs N] [--cases a,b]
  [--express-git GITDIR] [--ptr-git GITDIR] [--no-stryker] [--generated-only | --no-generated]
  [--warm-host auto|off] [--no-prior-run] [--no-record]`;
const text = { type: 'string' };
const flag = { type: 'boolean', default: false };
let args;
try {
  ({ values: args } = parseArgs({
    options: {
      work: { ...text, default: '/tmp/agm-bench' },
      bench: { ...text, default: fileURLToPath(new URL('../../../../shared/bench/mutate', import.meta.url)) },
      runs: { ...text, default: '1' },
      jobs: { ...text, default: String(os.availableParallelism()) },
      cases: { ...text, default: Object.keys(CASES).join(',') },
      'express-git': text,
      'ptr-git': text,
      'warm-host': { ...text, default: 'auto' },
      'no-stryker': flag,
      'generated-only': flag,
      'no-generated': flag,
      'no-prior-run': flag,
      'no-record': flag,
      help: flag,
    },
  }));
} catch (err) {
  console.error(`compare.mjs: ${err.message}\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = args.cases.split(',').filter((name) => !Object.hasOwn(CASES, name));
if (unknown.length > 0) {
  console.error(`compare.mjs: no such case: ${unknown.join(', ')} (the cases: ${Object.keys(CASES).join(', ')})`);
  process.exit(2);
}
const WORK = args.work;
const BENCH = args.bench;
const RUNS = Number(args.runs);
const JOBS = args.jobs;
const STRYKER = !args['no-stryker'];
const WARM_HOST = args['warm-host'];

/**
 * ag-run's run.json for the case, as the gate's pipelines make it (one round, the full suite on
 * the baseline and the patch), made right before each ag-mutate run: a real node_modules is
 * part of the patch tree's id, and a run of vitest writes its cache there. The baseline tree
 * is the commit's parent, exported beside the checkout with the checkout's node_modules linked
 * in. Null when it cannot be made.
 */
function priorRun(name, spec, tree, diff) {
  const out = path.join(WORK, `${name}.run.json`);
  rmSync(out, { force: true });
  const base = path.join(WORK, `${name}.base`);
  if (!existsSync(base)) {
    const gitDir = args[spec.git];
    if (!gitDir) return null;
    exportBaseline([`--git-dir=${gitDir}`], `${spec.commit}~1`, base, realpathSync(path.join(tree, 'node_modules')));
  }
  const failed = writeRunJson({ base, tree, diff, test: spec.test }, out);
  if (failed === null) return out;
  console.error(`${name}: ${failed}; ag-mutate runs its own second green run`);
  return null;
}

const isLink = (p) => {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
};

/**
 * The checkout's dependencies live beside it (WORK/<case>.deps) and its node_modules is a link
 * to them, as the gate's pipelines give a tree its installed packages: the patch tree's id then
 * leaves them out. A checkout made before with the packages inside has them moved out.
 */
function linkDependencies(dir, deps) {
  const modules = path.join(dir, 'node_modules');
  const found = existsSync(modules) || isLink(modules);
  if (found && lstatSync(modules).isSymbolicLink()) return;
  mkdirSync(deps, { recursive: true });
  if (!found) {
    // A fresh checkout: its packages were installed beside it, in deps.
    symlinkSync(path.join(deps, 'node_modules'), modules);
    return;
  }
  rmSync(path.join(deps, 'node_modules'), { recursive: true, force: true });
  renameSync(modules, path.join(deps, 'node_modules'));
  symlinkSync(path.join(deps, 'node_modules'), modules);
}

function prepare(name, spec) {
  const dir = path.join(WORK, name);
  const deps = path.join(WORK, `${name}.deps`);
  if (!existsSync(path.join(dir, 'node_modules'))) {
    const gitDir = args[spec.git];
    if (!gitDir) return null;
    rmSync(dir, { recursive: true, force: true });
    rmSync(deps, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    mkdirSync(deps, { recursive: true });
    execFileSync('tar', ['-x', '-C', dir], {
      input: execFileSync('git', [`--git-dir=${gitDir}`, 'archive', spec.commit]),
    });
    copyFileSync(path.join(dir, 'package.json'), path.join(deps, 'package.json'));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'], {
      cwd: deps,
      stdio: 'ignore',
    });
    const runner =
      spec.stryker.testRunner === 'mocha' ? '@stryker-mutator/mocha-runner@9.6' : '@stryker-mutator/vitest-runner@9.6';
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-save', '@stryker-mutator/core@9.6', runner],
      { cwd: deps, stdio: 'ignore' },
    );
  }
  linkDependencies(dir, deps);
  if (spec.stryker.testRunner === 'vitest') {
    writeFileSync(
      path.join(dir, 'vitest.agm.config.mts'),
      "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['src/index.spec.ts'] } });\n",
    );
  }
  return dir;
}

const load = () => +os.loadavg()[0].toFixed(1);

/** The CPU time of the whole machine so far, from /proc/stat (null elsewhere): idle and total ticks. */
function cpuTicks() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: f[3] + f[4], total: f.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Wait (at most a minute) until the machine has been idle for a second: at least 90 % of its
 * CPU time idle. Each tool starts on an idle machine, not in the wake of the one before (the
 * 1-minute load average lags a minute behind). Returns the idle share of the last second.
 */
function waitIdle() {
  const until = Date.now() + 60_000;
  for (;;) {
    const a = cpuTicks();
    sleep(1000);
    const b = cpuTicks();
    if (a === null || b === null) return null;
    const idle = (b.idle - a.idle) / Math.max(1, b.total - a.total);
    if (idle >= 0.9 || Date.now() > until) return +idle.toFixed(2);
  }
}
const seconds = (t0) => +(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(2);

function runAgMutate(label, tree, diff, test, mutant, extra = []) {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-bench-out-'));
  const out = path.join(outDir, 'mutation.json');
  const load1 = load();
  const t0 = process.hrtime.bigint();
  const argv = [
    BIN,
    '--diff',
    diff,
    '--tree',
    tree,
    '--test-command',
    test,
    '--jobs',
    JOBS,
    '--out',
    out,
    '--quiet',
    '--warm-host',
    WARM_HOST,
    ...extra,
  ];
  if (mutant) argv.push('--mutant-command', mutant);
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8' });
  const wall = seconds(t0);
  if (r.status !== 0) throw new Error(`${label}: ag-mutate exit ${r.status}: ${r.stderr}`);
  const m = JSON.parse(readFileSync(out, 'utf8'));
  writeFileSync(path.join(WORK, `${label}.mutation.json`), JSON.stringify(m, null, 2));
  rmSync(outDir, { recursive: true, force: true });
  return { wall, load: load1, artefact: m };
}

/**
 * StrykerJS's `mutate` entries for the same lines: it reads only `file:start-end` ranges (a
 * bare `file:N` is taken as a glob and mutates other sites), so a single line is `N-N`.
 */
function strykerRanges(mutate) {
  return mutate.map((m) => m.replace(/:(\d+)$/, ':$1-$1'));
}

/**
 * One StrykerJS run. `fresh`: a new test process for every mutant (`maxTestRunnerReuse: 1`),
 * so no state leaks from one mutant's run into the next: the answers ag-mutate gives.
 */
function runStryker(name, tree, spec, fresh = false) {
  if (!STRYKER || !existsSync(path.join(tree, 'node_modules/@stryker-mutator/core'))) return null;
  const report = path.join(WORK, `${name}.stryker${fresh ? '-fresh' : ''}-report.json`);
  const config = path.join(tree, 'stryker.agm.json');
  writeFileSync(
    config,
    JSON.stringify({
      ...spec.stryker,
      ...(fresh ? { maxTestRunnerReuse: 1 } : {}),
      mutate: strykerRanges(spec.mutate),
      coverageAnalysis: 'perTest',
      concurrency: 2,
      timeoutMS: 5000,
      timeoutFactor: 1.5,
      incremental: false,
      reporters: ['json'],
      jsonReporter: { fileName: report },
      tempDirName: 'stryker-tmp',
      cleanTempDir: true,
      disableTypeChecks: false,
      warnings: false,
    }),
  );
  const load1 = load();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(path.join(tree, 'node_modules/.bin/stryker'), ['run', 'stryker.agm.json'], {
    cwd: tree,
    encoding: 'utf8',
  });
  const wall = seconds(t0);
  rmSync(config, { force: true });
  if (r.status !== 0 || !existsSync(report)) return { wall, load: load1, counts: null };
  const counts = {};
  for (const file of Object.values(JSON.parse(readFileSync(report, 'utf8')).files))
    for (const m of file.mutants) counts[m.status] = (counts[m.status] ?? 0) + 1;
  return { wall, load: load1, counts };
}

/** The mutated line each mutant produces, whitespace-normalised (single-line mutants only). */
function mutatedLine(lines, line, startCol, endLine, endCol, replacement) {
  if (endLine !== line) return null;
  const text = lines[line - 1];
  return (text.slice(0, startCol - 1) + replacement + text.slice(endCol - 1)).replace(/\s+/g, ' ').trim();
}

/** Compare ag-mutate's outcomes with the anchors' fresh-process truth on the mutants both make. */
function agreement(name, tree, artefact) {
  const dir = path.join(BENCH, name);
  const truthFile = ['stryker-report-command-runner.json', 'stryker-report.json']
    .map((f) => path.join(dir, f))
    .find(existsSync);
  if (!truthFile) return null;
  const truth = new Map();
  for (const [file, entry] of Object.entries(JSON.parse(readFileSync(truthFile, 'utf8')).files)) {
    const lines = readFileSync(path.join(tree, file), 'utf8').split('\n');
    for (const m of entry.mutants) {
      const s = m.location.start;
      const e = m.location.end;
      const key = mutatedLine(lines, s.line, s.column, e.line, e.column, m.replacement);
      if (key !== null) truth.set(`${file}\0${s.line}\0${key}`, m.status === 'Timeout' ? 'Killed' : m.status);
    }
  }
  let shared = 0;
  const disagree = [];
  const texts = new Map();
  for (const m of artefact.mutants) {
    if (!texts.has(m.file)) texts.set(m.file, readFileSync(path.join(tree, m.file), 'utf8').split('\n'));
    const original = m.original.endsWith('…') ? null : m.original;
    if (original === null || original.includes('\n')) continue;
    const key = mutatedLine(texts.get(m.file), m.line, m.column, m.line, m.column + original.length, m.replacement);
    const want = truth.get(`${m.file}\0${m.line}\0${key}`);
    if (want === undefined) continue;
    shared++;
    const got =
      m.status === 'killed' || m.status === 'timeout'
        ? 'Killed'
        : m.status === 'survived' || m.status === 'no_coverage'
          ? 'Survived'
          : 'stillborn';
    if (got !== want) disagree.push(`${m.line}:${m.column} ${m.replacement} ours ${got}, truth ${want}`);
  }
  return { truth: path.basename(truthFile), shared, agree: shared - disagree.length, disagree };
}

function plainRun(tree, test) {
  const t0 = process.hrtime.bigint();
  spawnSync('/bin/sh', ['-c', test], { cwd: tree, stdio: 'ignore' });
  return seconds(t0);
}

/** A generated node:test project: N small functions added by one commit, one strong test file each. */
function generated(n = 12) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-bench-gen-'));
  const tree = path.join(root, 'tree');
  mkdirSync(path.join(tree, 'src'), { recursive: true });
  mkdirSync(path.join(tree, 'test'), { recursive: true });
  writeFileSync(path.join(tree, 'package.json'), '{"type":"module"}\n');
  const git = (...a) =>
    execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...a], { cwd: tree });
  git('init', '-q');
  writeFileSync(path.join(tree, 'src', 'lib.js'), 'export const base = 1;\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
  let src = 'export const base = 1;\n';
  for (let i = 0; i < n; i++) {
    src += `export function f${i}(a, b) {\n  if (a > b) return a - b;\n  return a + b * ${i + 2};\n}\n`;
    const spec =
      "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport * as lib from '../src/lib.js';\n";
    writeFileSync(
      path.join(tree, 'test', `f${i}.test.js`),
      `${spec}test('f${i}', () => { assert.equal(lib.f${i}(5, 1), 4); assert.equal(lib.f${i}(1, 1), ${1 + (i + 2)}); assert.equal(lib.f${i}(1, 2), ${1 + 2 * (i + 2)}); });\n`,
    );
  }
  writeFileSync(path.join(tree, 'src', 'lib.js'), src);
  git('add', '-A');
  git('commit', '-qm', 'patch');
  const diff = path.join(root, 'changes.diff');
  writeFileSync(diff, execFileSync('git', ['diff', 'HEAD~1', 'HEAD'], { cwd: tree }));
  return { root, tree, diff, test: 'node --test' };
}

const fmtCounts = (c) => `${c.killed} / ${c.timeout} / ${c.survived} / ${c.no_coverage} / ${c.stillborn}`;
const fmtStryker = (c) =>
  c === null
    ? 'failed'
    : Object.entries(c)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ');

mkdirSync(WORK, { recursive: true });
const rows = [];
const selected = args.cases.split(',');
if (!args['generated-only']) {
  for (const name of selected) {
    const spec = CASES[name];
    const tree = prepare(name, spec);
    if (tree === null) {
      console.error(`skip ${name}: no ${path.join(WORK, name)} and no --${spec.git}`);
      continue;
    }
    const diff = path.join(BENCH, name, 'commit.diff');
    const measured = JSON.parse(readFileSync(path.join(BENCH, name, 'measured.json'), 'utf8'));
    for (let i = 0; i < RUNS; i++) {
      waitIdle();
      const plain = { load: load(), wall: plainRun(tree, spec.test) };
      waitIdle();
      const stryker = runStryker(name, tree, spec);
      waitIdle();
      const strykerFresh = runStryker(name, tree, spec, true);
      const prior = args['no-prior-run'] ? null : priorRun(name, spec, tree, diff);
      waitIdle();
      const ours = runAgMutate(name, tree, diff, spec.test, spec.mutant, prior === null ? [] : ['--run', prior]);
      const row = {
        case: name,
        plain_s: plain.wall,
        plain_load: plain.load,
        stryker_s: stryker?.wall ?? null,
        stryker_load: stryker?.load ?? null,
        stryker_counts: stryker?.counts ?? null,
        stryker_anchor_s: measured.stryker_wall_med,
        stryker_fresh_s: strykerFresh?.wall ?? null,
        stryker_fresh_load: strykerFresh?.load ?? null,
        stryker_fresh_counts: strykerFresh?.counts ?? null,
        wall_s: ours.wall,
        load_avg_1m: ours.load,
        mutants: ours.artefact.mutants.length,
        counts: ours.artefact.counts,
        strength: ours.artefact.suite_strength,
        selection: ours.artefact.test_selection,
        second_green_run: ours.artefact.second_green_run?.source ?? null,
        truth: agreement(name, tree, ours.artefact),
      };
      console.log(JSON.stringify(row));
      rows.push(row);
    }
  }
}
const gen = args['no-generated'] ? null : generated();
for (let i = 0; gen !== null && i < RUNS; i++) {
  for (const select of ['auto', 'whole']) {
    const plain = plainRun(gen.tree, gen.test);
    const ours = runAgMutate(`generated-${select}`, gen.tree, gen.diff, gen.test, null, ['--select', select]);
    const row = {
      case: `generated node:test (12 functions, --select ${select})`,
      plain_s: plain,
      wall_s: ours.wall,
      load_avg_1m: ours.load,
      mutants: ours.artefact.mutants.length,
      counts: ours.artefact.counts,
      strength: ours.artefact.suite_strength,
      selection: ours.artefact.test_selection,
      stryker_s: null,
      truth: null,
    };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
}
if (gen !== null) rmSync(gen.root, { recursive: true, force: true });

const table = markdownTable(
  [
    'case',
    'mutants',
    'K / T / S / NC / SB',
    'strength',
    'selection',
    'second green run',
    'wall s (load)',
    'mutants/s',
    'plain run s',
    'StrykerJS wall s (load), verdict',
    'StrykerJS mutants',
    'time ÷ StrykerJS',
    'StrykerJS, a fresh process per mutant: wall s (load), verdict',
    'time ÷ fresh-process StrykerJS',
    'StrykerJS anchor s',
    'agrees with fresh truth',
  ],
  rows.map((r) => [
    r.case,
    r.mutants,
    fmtCounts(r.counts),
    r.strength === null ? 'null' : r.strength.toFixed(3),
    r.selection ? `${r.selection.runner} ${r.selection.mode}` : '—',
    r.second_green_run === 'run_json' ? "ag-run's" : (r.second_green_run ?? '—'),
    `${r.wall_s} (${r.load_avg_1m})`,
    (r.mutants / r.wall_s).toFixed(2),
    r.plain_s,
    r.stryker_s === null ? '—' : `${r.stryker_s} (${r.stryker_load}), ${fmtStryker(r.stryker_counts)}`,
    r.stryker_counts ? Object.values(r.stryker_counts).reduce((a, b) => a + b, 0) : '—',
    r.stryker_s ? (r.wall_s / r.stryker_s).toFixed(2) : '—',
    r.stryker_fresh_s == null
      ? '—'
      : `${r.stryker_fresh_s} (${r.stryker_fresh_load}), ${fmtStryker(r.stryker_fresh_counts)}`,
    r.stryker_fresh_s ? (r.wall_s / r.stryker_fresh_s).toFixed(2) : '—',
    r.stryker_anchor_s ?? '—',
    r.truth === null
      ? '—'
      : `${r.truth.agree}/${r.truth.shared}${r.truth.disagree.length ? ` (${r.truth.disagree.join('; ')})` : ''}`,
  ]),
);
if (rows.length === 0) console.log('\nno case measured: nothing recorded');
else recorder.record(`ag-mutate with \`--jobs ${JOBS}\`, ${RUNS} run(s) per case.\n\n${table}`);
