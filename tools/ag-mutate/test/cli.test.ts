import test from 'ava';
import { fileURLToPath } from 'node:url';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeRepo, repoArgs, runBin, type Files } from './helpers/repo.js';
import { readArtefact } from './helpers/artefact.js';

const BENCH = fileURLToPath(new URL('./fixtures/stryker', import.meta.url));
/** node:test files run directly: one process per run instead of a runner and a child. */
const NODE_TEST = 'node test/price.test.js';
const PYTEST = '/usr/bin/python3 -m pytest -q -p no:cacheprovider';

const PKG: Files = { 'package.json': '{"type":"module"}\n' };

const PRICE = `export function price(qty, unit) {
  if (qty >= 10) return qty * unit * 0.9;
  return qty * unit;
}
`;

const STRONG_TEST = `import test from 'node:test';
import assert from 'node:assert/strict';
import { price } from '../src/price.js';
test('bulk discount from ten', () => { assert.equal(price(10, 2), 18); assert.equal(price(20, 1), 18); });
test('no discount below ten', () => { assert.equal(price(9, 2), 18); assert.equal(price(1, 3), 3); });
`;

const TYPE_ONLY_TEST = `import test from 'node:test';
import assert from 'node:assert/strict';
import { price } from '../src/price.js';
test('price is a number', () => { assert.equal(typeof price(3, 2), 'number'); });
`;

/** The mutants of an artefact without their timings (which differ from run to run). */
const untimed = (m: ReturnType<typeof readArtefact>) =>
  m.mutants.map(({ duration_ms: _, cpu_ms: _cpu, ...rest }) => rest);

function mutate(
  repo: ReturnType<typeof makeRepo>,
  command: string,
  extra: string[] = [],
  out = repo.file('mutation.json'),
) {
  return runBin([...repoArgs(repo, command), '--jobs', '2', '--out', out, ...extra]);
}

test('strong tests on the changed lines score 1 and every mutant sits on an added line', async (t) => {
  const repo = makeRepo(PKG, { 'src/price.js': PRICE, 'test/price.test.js': STRONG_TEST });
  t.teardown(repo.cleanup);
  const r = await mutate(repo, NODE_TEST, ['--max', '6']);
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  t.is(m.suite_strength, 1);
  t.is(m.reason, null);
  t.false(m.suite_strength_unverified);
  t.is(m.counts.killed, 6);
  t.true(m.mutants.every((x) => x.file === 'src/price.js' && x.line >= 1 && x.line <= 4));
  t.is(m.counts.killed + m.counts.timeout, m.mutants.length);
  t.regex(r.stderr, /suite strength 1\.0000/);
});

test('a test that only checks the type leaves survivors and a low score, listed on stderr', async (t) => {
  const repo = makeRepo(PKG, { 'src/price.js': PRICE, 'test/price.test.js': TYPE_ONLY_TEST });
  t.teardown(repo.cleanup);
  const r = await mutate(repo, NODE_TEST, ['--max', '6']);
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  t.true(m.suite_strength !== null && m.suite_strength < 0.5, String(m.suite_strength));
  t.true(m.counts.survived >= 4);
  t.true(m.mutants.some((x) => x.status === 'survived' && x.operator === 'EqualityOperator' && x.replacement === '>'));
  t.regex(r.stderr, /survived src\/price\.js:2:/);
});

test('a mutant that does not type-check is stillborn, excluded from the score, and type positions are never mutated', async (t) => {
  const code = `export function mode(on: boolean): 'on' | 'off' {
  return on ? 'on' : 'off';
}
`;
  const spec = `import test from 'node:test';
import assert from 'node:assert/strict';
import { mode } from '../dist/mode.js';
test('mode', () => { assert.equal(mode(true), 'on'); assert.equal(mode(false), 'off'); });
`;
  const tsconfig =
    '{"compilerOptions":{"strict":true,"target":"ES2022","module":"ES2022","outDir":"dist","rootDir":"src","types":[],"skipLibCheck":true},"include":["src"]}\n';
  const repo = makeRepo(
    { ...PKG, 'tsconfig.json': tsconfig },
    { 'src/mode.ts': code, 'test/mode.test.js': spec },
    { linkModules: true },
  );
  t.teardown(repo.cleanup);
  const r = await mutate(repo, 'node_modules/.bin/tsc -p . && node test/mode.test.js', ['--max', '3']);
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  t.is(
    m.counts.stillborn,
    1,
    JSON.stringify({
      mutants: m.mutants,
      reason: m.reason,
      runs: m.baseline_runs?.map((x) => [x.problem, x.stderr_tail.slice(-600)]),
    }),
  );
  t.is(m.counts.killed, 2);
  t.true(m.mutants.every((x) => x.line !== 1 || x.operator === 'BlockStatement'));
  t.true(
    m.mutants
      .filter((x) => x.status === 'stillborn')
      .every((x) => ['StringLiteral', 'ReturnValue', 'BlockStatement'].includes(x.operator)),
  );
  t.is(m.suite_strength, 1);
});

test('a deletion-only patch is not measured and unverified', async (t) => {
  const repo = makeRepo({ ...PKG, 'src/old.js': 'export const legacy = 1;\n' }, { 'src/old.js': null });
  t.teardown(repo.cleanup);
  const r = await mutate(repo, 'false');
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  t.is(m.suite_strength, null);
  t.is(m.reason, 'deletion_only');
  t.true(m.suite_strength_unverified);
});

test('a deleted source file and .sql/.cpp beside JavaScript make the strength unverified; the JavaScript is still measured', async (t) => {
  const repo = makeRepo(
    { ...PKG, 'src/old.js': 'export const legacy = 1;\n' },
    {
      'src/old.js': null,
      'src/price.js': PRICE,
      'test/price.test.js': STRONG_TEST,
      'db/schema.sql': 'create table t (id int);\n',
      'native/fast.cpp': 'int twice(int a) { return a * 2; }\n',
      'README.md': '# docs are not code\n',
    },
  );
  t.teardown(repo.cleanup);
  const r = await mutate(repo, NODE_TEST, ['--max', '3']);
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  t.deepEqual(m.foreign_changed_files, ['db/schema.sql', 'native/fast.cpp']);
  t.deepEqual(m.deleted_files, ['src/old.js']);
  t.true(m.suite_strength_unverified);
  t.is(m.suite_strength, 1);
  t.is(m.mutants.length, 3);
  t.is(m.budget, 3);
  t.regex(r.stderr, /UNVERIFIED/);
});

test('--line-budget gives every changed line a mutant past a small --max; without it lines are left out', async (t) => {
  const repo = makeRepo(PKG, { 'src/price.js': PRICE, 'test/price.test.js': STRONG_TEST });
  t.teardown(repo.cleanup);
  t.is((await mutate(repo, NODE_TEST, ['--max', '1'], repo.file('small.json'))).code, 0);
  const small = readArtefact(repo.file('small.json'));
  t.is(small.mutants.length, 1);
  t.deepEqual(small.unmutated_lines, [{ file: 'src/price.js', lines: [2, 3] }]);
  const r = await mutate(repo, NODE_TEST, ['--max', '1', '--line-budget', '3'], repo.file('lines.json'));
  t.is(r.code, 0, r.stderr);
  const lines = readArtefact(repo.file('lines.json'));
  t.deepEqual(lines.unmutated_lines, []);
  t.deepEqual(new Set(lines.mutants.map((x) => x.line)), new Set([1, 2, 3]));
  t.is(lines.budget, 1, 'the budget given is recorded');
  t.is((await mutate(repo, NODE_TEST, ['--max', '1', '--line-budget', '2'], repo.file('over.json'))).code, 0);
  t.is(readArtefact(repo.file('over.json')).mutants.length, 1, 'more lines than the line budget: --max alone');
});

test('a red baseline gives no score, with the reason, and runs no mutant', async (t) => {
  const failing = STRONG_TEST.replace('price(1, 3), 3', 'price(1, 3), 4');
  const repo = makeRepo(PKG, { 'src/price.js': PRICE, 'test/price.test.js': failing });
  t.teardown(repo.cleanup);
  const r = await mutate(repo, NODE_TEST);
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  t.is(m.suite_strength, null);
  t.is(m.reason, 'baseline_red');
  t.deepEqual(m.mutants, []);
});

test('shards merged equal the unsharded run; merge refuses a missing shard', async (t) => {
  const repo = makeRepo(PKG, { 'src/price.js': PRICE, 'test/price.test.js': TYPE_ONLY_TEST });
  t.teardown(repo.cleanup);
  t.is((await mutate(repo, NODE_TEST, ['--max', '4'], repo.file('whole.json'))).code, 0);
  t.is((await mutate(repo, NODE_TEST, ['--max', '4', '--shard', '1/2'], repo.file('s1.json'))).code, 0);
  t.is((await mutate(repo, NODE_TEST, ['--max', '4', '--shard', '2/2'], repo.file('s2.json'))).code, 0);
  const s1 = readArtefact(repo.file('s1.json'));
  t.deepEqual(s1.shard, { index: 1, count: 2 });
  const merged = await runBin(['merge', repo.file('s1.json'), repo.file('s2.json'), '--out', repo.file('merged.json')]);
  t.is(merged.code, 0, merged.stderr);
  const whole = readArtefact(repo.file('whole.json'));
  const m = readArtefact(repo.file('merged.json'));
  t.deepEqual(untimed(m), untimed(whole));
  t.deepEqual(m.by_file, whole.by_file);
  t.deepEqual(m.unmutated_lines, whole.unmutated_lines);
  t.deepEqual(m.counts, whole.counts);
  t.is(m.suite_strength, whole.suite_strength);
  t.is(m.shard, null);
  const missing = await runBin(['merge', repo.file('s1.json'), '--out', repo.file('bad.json')]);
  t.is(missing.code, 3);
  t.regex(missing.stderr, /^ag-mutate: .*2\/2 missing/);
  t.false(existsSync(repo.file('bad.json')));
  const dup = await runBin([
    'merge',
    repo.file('s1.json'),
    repo.file('s1.json'),
    repo.file('s2.json'),
    '--out',
    repo.file('bad.json'),
  ]);
  t.is(dup.code, 3);
  t.regex(dup.stderr, /duplicates shard 1\/2/);
});

test('a pytest project: is/in and and/or mutants are killed, an import-time failure is stillborn', async (t) => {
  const code = `LIMITS = {"max": 10}
MAX = LIMITS["max"]


def within(x):
    return x is not None and x in range(MAX)
`;
  const spec = `from calc import within


def test_within():
    assert within(None) is False
    assert within(3) is True
    assert within(9) is True
    assert within(10) is False
`;
  const repo = makeRepo(
    {},
    {
      'calc.py': code,
      'tests/test_calc.py': spec,
      'tests/conftest.py': 'import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n',
    },
  );
  t.teardown(repo.cleanup);
  const r = await mutate(repo, PYTEST, ['--python', '/usr/bin/python3', '--max', '9']);
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  const ops = new Set(m.mutants.map((x) => `${x.original}->${x.replacement}`));
  for (const expected of ['is not->is', 'in->not in', 'and->or']) t.true(ops.has(expected), expected);
  t.true(m.counts.stillborn >= 1, JSON.stringify(m.counts));
  t.is(m.counts.survived, 0, JSON.stringify(m.mutants.filter((x) => x.status === 'survived')));
  t.is(m.suite_strength, 1);
});

test('import --stryker keeps the changed lines of a real report: express-query-fresh is 8 killed / 7 survived', async (t) => {
  const dir = path.join(BENCH, 'express-query-fresh');
  const repo = makeRepo({}, {});
  t.teardown(repo.cleanup);
  const r = await runBin([
    'import',
    '--stryker',
    path.join(dir, 'stryker-report-command-runner.json'),
    '--diff',
    path.join(dir, 'commit.diff'),
    '--out',
    repo.file('m.json'),
  ]);
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('m.json'));
  t.is(m.engine, 'stryker-import');
  t.is(m.counts.killed, 8);
  t.is(m.counts.survived, 7);
  t.is(m.suite_strength, 8 / 15);
  t.true(m.mutants.every((x) => x.file === 'lib/request.js' && x.line === 475));
  t.deepEqual(
    m.inputs.map((i) => i.role),
    ['diff', 'stryker-report'],
  );
});

test('--max 0 records a disabled measurement without running anything', async (t) => {
  const repo = makeRepo(PKG, { 'src/price.js': PRICE, 'native/x.cpp': 'int x;\n' });
  t.teardown(repo.cleanup);
  const r = await mutate(repo, 'exit 7', ['--max', '0']);
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  t.is(m.reason, 'budget_zero');
  t.is(m.suite_strength, null);
  t.deepEqual(m.foreign_changed_files, ['native/x.cpp']);
  t.true(m.suite_strength_unverified);
});

test('a documentation-only patch is "no source changed"', async (t) => {
  const repo = makeRepo(PKG, { 'README.md': '# hi\n', 'test/a.test.js': 'export {};\n' });
  t.teardown(repo.cleanup);
  const r = await mutate(repo, 'exit 7');
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  t.is(m.reason, 'no_source_changed');
  t.false(m.suite_strength_unverified);
  t.deepEqual(m.mutants, []);
});

test('a comment-only source change is "no executable change": nothing to mutate, nothing left unmutated', async (t) => {
  const repo = makeRepo({ ...PKG, 'src/price.js': PRICE }, { 'src/price.js': `// Prices are in cents.\n${PRICE}` });
  t.teardown(repo.cleanup);
  const r = await mutate(repo, 'exit 7');
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  t.is(m.reason, 'no_executable_change');
  t.deepEqual(m.mutants, []);
  t.false(m.suite_strength_unverified);
});

test('exit 3 and no artefact when the tree is not the patch side of the diff', async (t) => {
  const repo = makeRepo(PKG, { 'src/price.js': PRICE });
  t.teardown(repo.cleanup);
  const other = makeRepo(PKG, { 'src/price.js': PRICE.replace('0.9', '0.8') });
  t.teardown(other.cleanup);
  const r = await runBin([
    '--diff',
    repo.diff,
    '--tree',
    other.tree,
    '--test-command',
    'exit 0',
    '--out',
    repo.file('m.json'),
  ]);
  t.is(r.code, 3);
  t.regex(r.stderr, /^ag-mutate: .*price\.js: line 2 differs/);
  t.false(existsSync(repo.file('m.json')));
});

test('the judging order changes no verdict: forward, reverse and shuffled give the same mutants', async (t) => {
  // The small-order line is tested, the discount line is not: kills and survivors both.
  const partial = TYPE_ONLY_TEST.replace(
    "assert.equal(typeof price(3, 2), 'number');",
    'assert.equal(price(3, 2), 6); assert.equal(price(1, 2), 2);',
  );
  const repo = makeRepo(PKG, { 'src/price.js': PRICE, 'test/price.test.js': partial });
  t.teardown(repo.cleanup);
  const runs = ['forward', 'reverse', 'shuffle:7'];
  for (const order of runs)
    t.is((await mutate(repo, NODE_TEST, ['--order', order], repo.file(`${order}.json`))).code, 0);
  const judged = (file: string) => untimed(readArtefact(repo.file(file)));
  const forward = judged('forward.json');
  t.true(forward.length >= 4);
  t.true(forward.some((m) => m.status === 'killed'));
  t.true(forward.some((m) => m.status === 'survived'));
  t.deepEqual(judged('reverse.json'), forward);
  t.deepEqual(judged('shuffle:7.json'), forward);
});

test('exit 3 on bad flags: a missing test command, a malformed shard, an unknown flag', async (t) => {
  const repo = makeRepo(PKG, { 'src/price.js': PRICE });
  t.teardown(repo.cleanup);
  const base = ['--diff', repo.diff, '--tree', repo.tree, '--out', repo.file('m.json')];
  t.is((await runBin(base)).code, 3);
  const shard = await runBin([...base, '--test-command', 'exit 0', '--shard', '3/2']);
  t.is(shard.code, 3);
  t.regex(shard.stderr, /--shard must be K\/N/);
  t.is((await runBin([...base, '--test-command', 'exit 0', '--bogus'])).code, 3);
  const order = await runBin([...base, '--test-command', 'exit 0', '--order', 'sideways']);
  t.is(order.code, 3);
  t.regex(order.stderr, /--order must be forward, reverse or shuffle:SEED, got "sideways"/);
  const noTree = await runBin([
    '--diff',
    repo.diff,
    '--tree',
    repo.file('nope'),
    '--test-command',
    'exit 0',
    '--out',
    repo.file('m.json'),
  ]);
  t.is(noTree.code, 3);
  t.regex(noTree.stderr, /--tree is not a directory/);
  t.false(existsSync(repo.file('m.json')));
});

test('--help prints the usage', async (t) => {
  const r = await runBin(['--help']);
  t.is(r.code, 0);
  t.regex(r.stdout, /--test-command/);
  t.regex(r.stdout, /merge/);
});

test('--policy reclassifies files as ag-decide will: a changed file the policy calls not code is not mutated', async (t) => {
  const repo = makeRepo(PKG, { 'src/price.js': PRICE, 'test/price.test.js': STRONG_TEST });
  t.teardown(repo.cleanup);
  const policy = repo.file('policy.json');
  writeFileSync(policy, JSON.stringify({ schema_version: 1, files: { not_code: ['src/**'] } }));
  const r = await mutate(repo, NODE_TEST, ['--policy', policy]);
  t.is(r.code, 0, r.stderr);
  const m = readArtefact(repo.file('mutation.json'));
  t.is(m.reason, 'no_source_changed');
  t.deepEqual(m.mutants, []);
  t.true(m.inputs.some((i) => i.role === 'policy' && i.path === policy));
  writeFileSync(policy, '{"schema_version":1,"files":{"nope":[]}}');
  const bad = await mutate(repo, NODE_TEST, ['--policy', policy]);
  t.is(bad.code, 3);
  t.regex(bad.stderr, /policy\.json: unknown key "files\.nope"/);
});
