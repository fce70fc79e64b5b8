#!/usr/bin/env node
/**
 * The equality check: every mutant judged on the fast path (test selection, warm vitest
 * hosts) must get the verdict a fresh process running the whole test command gives it, in
 * every judging order and with one or two copies.
 *
 *   node bench/equality.mjs [--cases a,b] [--work DIR]
 *
 * Projects: generated ones for node:test, mocha, vitest, jest and pytest (a module-level
 * cache, import-time code, a strong and a weak test); adversarial vitest ones
 * (equality-adversarial.mjs: a plugin counting runs and a stateful globalSetup, which must be
 * judged by fresh processes; an app holding state in memory and a test reading the source,
 * which the warm hosts judge); and the four bench commits when their
 * checkouts exist in --work (default /tmp/agm-bench; `node bench/compare.mjs` prepares them).
 * Per project: the truth (`--select whole --warm-host off`), then the fast path forward,
 * reversed and shuffled, `--jobs` 1 and 2, each given ag-run's run.json for the project as
 * the pipelines give it (so with `--jobs 2` a mocha recording is split in two shards, or,
 * when the patch changed test files, mutants are judged ahead of the map with them: a cell
 * says "(2 shards)" or "(N ahead)"; "own 2nd run" when no run.json was bound). A project that cannot be prepared is "not
 * measured", never a pass; the exit code is 0 only when every project was measured and every
 * run agreed with the truth on every mutant id.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASES } from './cases.mjs';
import { adversarialProjects } from './equality-adversarial.mjs';
import { exportBaseline, writeRunJson } from './prior-run.mjs';

const BIN = fileURLToPath(new URL('../bin/ag-mutate.js', import.meta.url));
const ROOT_MODULES = fileURLToPath(new URL('../../../node_modules', import.meta.url));
const BENCH = fileURLToPath(new URL('../../../../shared/bench/mutate', import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const WORK = opt('work', '/tmp/agm-bench');
const RUNS = [
  { order: 'forward', jobs: 1 },
  { order: 'reverse', jobs: 1 },
  { order: 'shuffle:1', jobs: 1 },
  { order: 'forward', jobs: 2 },
  { order: 'reverse', jobs: 2 },
  { order: 'shuffle:2', jobs: 2 },
];

// The generated projects' code: a cache that outlives a call, a value computed at import, a
// function the tests pin and one they barely touch.
const JS_LIB = (esm) => {
  const ex = (name) => (esm ? `export ${name}` : name);
  const body = `const cache = new Map();
${ex('const')} LIMIT = 3 * 4;
${ex('function')} price(qty, unit) {
  const key = qty + ':' + unit;
  if (cache.has(key)) return cache.get(key);
  const value = qty >= 10 ? qty * unit * 0.9 : qty * unit;
  cache.set(key, value);
  return value;
}
${ex('function')} clamp(x, lo, hi) {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}
${ex('function')} label(n) {
  return n > LIMIT ? 'big' : 'small';
}
`;
  return esm ? body : `${body}module.exports = { LIMIT, price, clamp, label };\n`;
};
const JS_CASES = [
  ['prices', 'assert.equal(lib.price(2, 3), 6); assert.equal(lib.price(2, 3), 6); assert.equal(lib.price(10, 1), 9);'],
  ['clamps', 'assert.equal(lib.clamp(5, 0, 10), 5);'],
  ['labels', "assert.equal(lib.label(20), 'big'); assert.equal(lib.label(12), 'small');"],
];
const PY_LIB = `_cache = {}
LIMIT = 3 * 4


def price(qty, unit):
    key = (qty, unit)
    if key in _cache:
        return _cache[key]
    value = qty * unit * 0.9 if qty >= 10 else qty * unit
    _cache[key] = value
    return value


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def label(n):
    return "big" if n > LIMIT else "small"
`;
const PY_TEST = `import lib


def test_prices():
    assert lib.price(2, 3) == 6
    assert lib.price(2, 3) == 6
    assert lib.price(10, 1) == 9


def test_clamps():
    assert lib.clamp(5, 0, 10) == 5


def test_labels():
    assert lib.label(20) == "big"
    assert lib.label(12) == "small"
`;

const RUNNERS = {
  'node:test': {
    esm: true,
    file: 'test/lib.test.js',
    head: "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport * as lib from '../src/lib.js';\n",
    it: (name, body) => `test('${name}', () => { ${body} });\n`,
    test: 'node --test',
    mutant: null,
  },
  mocha: {
    esm: true,
    file: 'test/lib.spec.js',
    head: "import assert from 'node:assert/strict';\nimport * as lib from '../src/lib.js';\n",
    it: (name, body) => `it('${name}', () => { ${body} });\n`,
    test: 'node_modules/.bin/mocha test/',
    mutant: 'node_modules/.bin/mocha --bail test/',
  },
  vitest: {
    esm: true,
    file: 'test/lib.test.js',
    head: "import { test } from 'vitest';\nimport assert from 'node:assert/strict';\nimport * as lib from '../src/lib.js';\n",
    it: (name, body) => `test('${name}', () => { ${body} });\n`,
    test: 'node_modules/.bin/vitest run',
    mutant: 'node_modules/.bin/vitest run --bail=1',
  },
  jest: {
    esm: false,
    file: 'test/lib.test.js',
    head: "const assert = require('node:assert/strict');\nconst lib = require('../src/lib.js');\n",
    it: (name, body) => `test('${name}', () => { ${body} });\n`,
    test: 'node_modules/.bin/jest --ci',
    mutant: 'node_modules/.bin/jest --ci --bail',
  },
};

const git = (cwd, ...a) =>
  execFileSync('git', ['-c', 'user.name=e', '-c', 'user.email=e@example.com', ...a], { cwd, stdio: 'pipe' });

/** A repository whose second commit adds the library and its tests; its diff and tree. */
function commitProject(files, modules) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-equality-'));
  const tree = path.join(root, 'tree');
  mkdirSync(tree);
  git(tree, 'init', '-q');
  writeFileSync(path.join(tree, '.gitignore'), 'node_modules\n');
  git(tree, 'add', '-A');
  git(tree, 'commit', '-qm', 'base');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(tree, name)), { recursive: true });
    writeFileSync(path.join(tree, name), text);
  }
  git(tree, 'add', '-A');
  git(tree, 'commit', '-qm', 'patch');
  if (modules) symlinkSync(modules, path.join(tree, 'node_modules'));
  const diff = path.join(root, 'changes.diff');
  writeFileSync(diff, git(tree, 'diff', 'HEAD~1', 'HEAD'));
  return { root, tree, diff };
}

/** jest is not a dependency of this repository: installed once from the registry into the work folder. */
function jestModules() {
  const dir = path.join(WORK, 'equality-jest');
  if (!existsSync(path.join(dir, 'node_modules/.bin/jest'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', 'jest@29'], { cwd: dir, stdio: 'pipe' });
  }
  return path.join(dir, 'node_modules');
}

function generated(runner) {
  if (runner === 'pytest') {
    const p = commitProject({ 'lib.py': PY_LIB, 'test_lib.py': PY_TEST }, null);
    const test = 'python3 -m pytest -q -p no:cacheprovider';
    return { ...p, test, mutant: `${test} -x` };
  }
  const r = RUNNERS[runner];
  const tests = r.head + JS_CASES.map(([name, body]) => r.it(name, body)).join('');
  const pkg = r.esm ? '{"type":"module"}\n' : '{}\n';
  const modules = runner === 'jest' ? jestModules() : ROOT_MODULES;
  const p = commitProject({ 'package.json': pkg, 'src/lib.js': JS_LIB(r.esm), [r.file]: tests }, modules);
  return { ...p, modules, test: r.test, mutant: r.mutant };
}

function mutate(project, extra) {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-equality-out-')), 'mutation.json');
  const argv = [BIN, '--diff', project.diff, '--tree', project.tree, '--test-command', project.test, '--out', out];
  if (project.mutant) argv.push('--mutant-command', project.mutant);
  const r = spawnSync(process.execPath, [...argv, '--quiet', ...extra], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ag-mutate exit ${r.status}: ${r.stderr.trim()}`);
  const m = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(path.dirname(out), { recursive: true, force: true });
  if (m.reason !== null) throw new Error(`no mutants judged: ${m.reason}`);
  return m;
}

/** What a verdict says about the tests: detected (killed, timeout), missed (survived, no coverage), stillborn. */
const VERDICT_CLASS = {
  killed: 'detected',
  timeout: 'detected',
  survived: 'missed',
  no_coverage: 'missed',
  stillborn: 'stillborn',
};
const verdictClass = (status) => VERDICT_CLASS[status] ?? status;

/**
 * ag-run's run.json for the project, as the pipelines give it to ag-mutate (one round; the
 * baseline tree is the parent commit, exported beside the tree with the same node_modules, or
 * the `<case>.base` checkout compare.mjs makes): with it the fast path takes the pipelines'
 * baseline (mocha recorded in two shards). Null when there is no baseline tree or ag-run fails.
 */
function priorRun(project) {
  let base = project.base;
  if (base === undefined && project.root !== null) {
    base = path.join(project.root, 'base');
    exportBaseline(['-C', project.tree], 'HEAD~1', base, project.modules);
  }
  if (base === undefined || !existsSync(base)) return null;
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-equality-run-')), 'run.json');
  return writeRunJson({ ...project, base }, out) === null ? out : null;
}

function check(name, project) {
  const t0 = Date.now();
  const prior = priorRun(project);
  const truth = mutate(project, ['--select', 'whole', '--warm-host', 'off', '--equivalence', 'off', '--jobs', '2']);
  const want = new Map(truth.mutants.map((m) => [m.id, verdictClass(m.status)]));
  const runs = [];
  for (const run of RUNS) {
    const m = mutate(project, [
      '--select',
      'auto',
      '--warm-host',
      'auto',
      '--equivalence',
      'off',
      '--jobs',
      String(run.jobs),
      '--order',
      run.order,
      ...(prior !== null ? ['--run', prior] : []),
    ]);
    const got = new Map(m.mutants.map((x) => [x.id, verdictClass(x.status)]));
    const differ = [...new Set([...want.keys(), ...got.keys()])].filter((id) => want.get(id) !== got.get(id));
    const shards = (m.baseline_runs ?? []).filter((b) => b.kind === 'recorded').length > 1;
    const ahead = m.timing?.ahead_mutants ?? 0;
    const warm = m.timing?.warm_host_mutants ?? 0;
    runs.push({
      ...run,
      agree: want.size - differ.length,
      differ,
      warm,
      shards,
      ahead,
      bound: m.second_green_run?.source === 'run_json',
    });
  }
  if (prior !== null) rmSync(path.dirname(prior), { recursive: true, force: true });
  const counts = [...want.values()].reduce((c, v) => ({ ...c, [v]: (c[v] ?? 0) + 1 }), {});
  return { name, mutants: want.size, counts, runs, seconds: Math.round((Date.now() - t0) / 1000) };
}

/** An adversarial vitest project (equality-adversarial.mjs), with whether the warm hosts may judge it. */
function adversarial(a) {
  const files = { 'package.json': '{"type":"module"}\n', ...a.files };
  const p = commitProject(files, ROOT_MODULES);
  return { ...p, modules: ROOT_MODULES, test: RUNNERS.vitest.test, mutant: RUNNERS.vitest.mutant, warm: a.warm };
}

const projects = [
  ...['node:test', 'mocha', 'vitest', 'jest', 'pytest'].map((r) => [`generated ${r}`, () => generated(r)]),
  ...adversarialProjects(JS_LIB(true), RUNNERS.vitest).map((a) => [a.name, () => adversarial(a)]),
  ...Object.entries(CASES).map(([name, c]) => [
    name,
    () => {
      const tree = path.join(WORK, name);
      if (!existsSync(path.join(tree, 'node_modules')))
        throw new Error(`no checkout at ${tree} (run node bench/compare.mjs first)`);
      const base = path.join(WORK, `${name}.base`);
      return { root: null, tree, base, diff: path.join(BENCH, name, 'commit.diff'), test: c.test, mutant: c.mutant };
    },
  ]),
];
const wanted = opt('cases')?.split(',');
let failed = false;
console.log('| project | mutants (truth) | ' + RUNS.map((r) => `${r.order}, jobs ${r.jobs}`).join(' | ') + ' | s |');
console.log('|---|---|' + RUNS.map(() => '---').join('|') + '|---|');
for (const [name, make] of projects) {
  if (wanted && !wanted.includes(name)) continue;
  let project;
  try {
    project = make();
    const r = check(name, project);
    const cells = r.runs.map(
      (x) =>
        `${x.agree}/${r.mutants}${x.warm ? ` (${x.warm} warm)` : ''}${x.shards ? ' (2 shards)' : ''}${x.ahead ? ` (${x.ahead} ahead)` : ''}${x.bound ? '' : ' (own 2nd run)'}${x.differ.length ? ` ✗ ${x.differ.join(' ')}` : ''}`,
    );
    // A project the hosts must not judge fails on any warm verdict; one they may, on none.
    const warmWrong =
      project.warm === false
        ? r.runs.some((x) => x.warm > 0)
        : project.warm === true && r.runs.every((x) => x.warm === 0);
    if (r.runs.some((x) => x.differ.length > 0) || r.mutants === 0 || warmWrong) failed = true;
    const counts = Object.entries(r.counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    const note = warmWrong ? (project.warm ? ' ✗ no run on a warm host' : ' ✗ judged on a warm host') : '';
    console.log(`| ${name}${note} | ${r.mutants}: ${counts} | ${cells.join(' | ')} | ${r.seconds} |`);
  } catch (e) {
    failed = true;
    console.log(`| ${name} | not measured: ${e instanceof Error ? e.message.split('\n')[0] : String(e)} |`);
  } finally {
    if (project?.root) rmSync(project.root, { recursive: true, force: true });
  }
}
process.exitCode = failed ? 1 : 0;
