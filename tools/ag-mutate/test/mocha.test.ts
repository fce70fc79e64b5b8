import test from 'ava';
import { randomUUID } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findMutant, measured } from './helpers/artefact.js';
import { makeRepo, type Files, type Repo } from './helpers/repo.js';

const MOCHA = 'node_modules/.bin/mocha test/';

const PRICE_JS = `exports.price = (q, u) => q * u;
exports.discount = (total, rate) => total - total * rate;
exports.unused = (a) => a + 1;
`;

/** One test of discount() that checks the value, one that checks only the type. */
const DISCOUNT_TEST = `const assert = require('node:assert');
const { discount } = require('../src/price.js');
describe('discount', () => {
  it('takes the rate off', () => { assert.equal(discount(100, 0.25), 75); });
  it('is a number', () => { assert.equal(typeof discount(100, 0.1), 'number'); });
});
`;

/** Executes nothing of src/price.js, but fails when its text holds the `-` → `+` mutant: it must never run for a mutant. */
const CHECKSUM_TEST = `const assert = require('node:assert');
const { readFileSync } = require('node:fs');
describe('source', () => {
  it('is not added up', () => { assert.ok(!readFileSync(__dirname + '/../src/price.js', 'utf8').includes('total + total')); });
});
`;

/** Throws while it loads when src/price.js holds the `-` → `+` mutant: a mutant run must not even load it (it loads first, so no crediting across a suite boundary names it). */
const LOADCHECK_TEST = `const { readFileSync } = require('node:fs');
if (readFileSync(__dirname + '/../src/price.js', 'utf8').includes('total + total')) throw new Error('loaded');
describe('loading', () => {
  it('works', () => {});
});
`;

/** More tests than the mocha hook records one by one: the suite is then recorded per test file. */
const FILLER = `describe('filler', () => {\n  for (let i = 0; i < 201; i++) it('case ' + i, () => {});\n});\n`;

/** ag-mutate's arguments for `repo` with mocha, each mutant's run bailing at its first failure. */
const bailing = (repo: Repo, jobs: string) => [
  ...['--diff', repo.diff, '--tree', repo.tree, '--test-command', MOCHA],
  ...['--mutant-command', `${MOCHA} --bail`, '--jobs', jobs],
];

const PROJECT: Files = {
  'src/price.js': PRICE_JS,
  'test/discount.test.js': DISCOUNT_TEST,
  'test/checksum.test.js': CHECKSUM_TEST,
  'test/a-loadcheck.test.js': LOADCHECK_TEST,
};

test('mocha: each mutant runs only the tests that execute it and is killed by the one that checks; a test file without such tests is not even loaded; uncovered code is no_coverage', async (t) => {
  const repo = makeRepo({}, PROJECT, { linkModules: true });
  t.teardown(repo.cleanup);
  const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', MOCHA, '--jobs', '2'];
  const m = await measured(t, [...args], repo.file('m.json'));
  t.deepEqual(m.test_selection, { runner: 'mocha', mode: 'per-test' });
  // Only "takes the rate off" tells `-` from `+`; the checksum test would too, but never runs,
  // and loading the loadcheck file would fail the run before any test (no killer named).
  t.is(findMutant(m, 2, '+').status, 'killed');
  t.is(findMutant(m, 2, '+').killed_by, 'test/discount.test.js::discount takes the rate off');
  t.is(findMutant(m, 2, '/').killed_by, 'test/discount.test.js::discount takes the rate off');
  // Inside the functions no test calls (module-level statements run at load, they are covered).
  t.true(
    m.mutants.filter((x) => x.line !== 2 && x.function != null).every((x) => x.status === 'no_coverage'),
    JSON.stringify(m.mutants.filter((x) => x.line !== 2)),
  );
  t.true(m.counts.no_coverage >= 2);
  // The whole command runs the checksum test too: the proof that it fails when it runs.
  const w = await measured(t, [...args, '--select', 'whole', '--max', '3'], repo.file('whole.json'));
  t.deepEqual(w.test_selection, { runner: 'mocha', mode: 'whole-command' });
  t.is(findMutant(w, 2, '+').status, 'killed');
  t.is(findMutant(w, 2, '+').killed_by, null);
});

test('mocha: a kill by the covering test that fails on the unmutated tree too is not trusted: the whole command decides', async (t) => {
  // "labels" needs the state "sets up" leaves behind: alone it fails whatever the mutant;
  // after it, it checks only the type, so the `'v'` → `""` mutant truly survives.
  const state = `const state = { ready: false };
exports.setUp = () => { state.ready = true; };
exports.label = (x) => {
  if (!state.ready) throw new Error('not set up');
  return 'v' + x;
};
`;
  const spec = `const assert = require('node:assert');
const { setUp, label } = require('../src/state.js');
describe('state', () => {
  it('sets up', () => { setUp(); });
  it('labels', () => { assert.equal(typeof label(1), 'string'); });
});
`;
  const repo = makeRepo({}, { 'src/state.js': state, 'test/state.test.js': spec }, { linkModules: true });
  t.teardown(repo.cleanup);
  const m = await measured(t, bailing(repo, '2'), repo.file('m.json'));
  t.is(m.test_selection?.mode, 'per-test');
  t.is(findMutant(m, 5, '""').status, 'survived');
  // Always throwing is a real kill, but "labels" alone fails anyway: judged by the whole command.
  t.is(findMutant(m, 4, 'true').status, 'killed');
  t.is(findMutant(m, 4, 'true').killed_by, null);
});

test('mocha: a kill is confirmed by the tests that ran up to the failing one, even when a later test of the selection fails alone', async (t) => {
  // "labels a double" needs the state a test of another file leaves behind: within the
  // selection (that file is not loaded) it fails on the unmutated tree too. It is also the
  // slower of the two (fastest first), so the mutant of double() fails "doubles" first, and
  // the tests up to it pass on the unmutated tree: a confirmed kill, named. (Confirming with
  // the whole selection would not name it.)
  const calc = `const state = { ready: false };
exports.setUp = () => { state.ready = true; };
exports.double = (x) => x * 2;
exports.label = (x) => {
  if (!state.ready) throw new Error('not set up');
  return 'v' + x;
};
`;
  const setup = `const { setUp } = require('../src/calc.js');
describe('setup', () => {
  it('sets up', () => { setUp(); });
});
`;
  const spec = `const assert = require('node:assert');
const { double, label } = require('../src/calc.js');
describe('calc', () => {
  it('doubles', () => { assert.equal(double(3), 6); });
  it('labels a double', () => {
    const until = Date.now() + 150;
    while (Date.now() < until);
    assert.equal(typeof label(double(1)), 'string');
  });
});
`;
  const repo = makeRepo(
    {},
    { 'src/calc.js': calc, 'test/a-setup.test.js': setup, 'test/calc.test.js': spec },
    { linkModules: true },
  );
  t.teardown(repo.cleanup);
  const m = await measured(t, bailing(repo, '2'), repo.file('m.json'));
  t.is(m.test_selection?.mode, 'per-test');
  t.is(findMutant(m, 3, '/').status, 'killed');
  t.is(findMutant(m, 3, '/').killed_by, 'test/calc.test.js::calc doubles');
});

test('mocha: kills in one selection at different tests are confirmed by one clean run of the whole selection', async (t) => {
  // Both tests execute scale(). "is odd" runs first (the other is slower); `*` → `/` fails it,
  // `+` → `-` passes it and fails "scales": two kills whose runs stopped at different tests.
  // One clean run of both tests confirms every such kill (each stopped inside what it ran).
  const scale = `exports.scale = (x) => x * 2 + 1;\n`;
  const spec = `const assert = require('node:assert');
const { scale } = require('../src/scale.js');
describe('scale', () => {
  it('is odd', () => { assert.equal(scale(3) % 2, 1); });
  it('scales', () => {
    const until = Date.now() + 150;
    while (Date.now() < until);
    assert.equal(scale(3), 7);
  });
});
`;
  const repo = makeRepo({}, { 'src/scale.js': scale, 'test/scale.test.js': spec }, { linkModules: true });
  t.teardown(repo.cleanup);
  const m = await measured(t, bailing(repo, '2'), repo.file('m.json'));
  t.is(m.test_selection?.mode, 'per-test');
  t.is(findMutant(m, 1, '/').killed_by, 'test/scale.test.js::scale is odd');
  t.is(findMutant(m, 1, '-').killed_by, 'test/scale.test.js::scale scales');
  t.true(
    m.mutants.every((x) => x.status === 'killed'),
    JSON.stringify(m.mutants),
  );
  t.is(m.timing?.subset_clean_runs, 1);
});

test('mocha, per test file: the file that killed a mutant runs first for the next ones; a likely killer that does not kill is not run for them', async (t) => {
  // test/area.test.js is named for src/area.js (a likely killer) and calls it, but checks
  // nothing, and logs each run of its test; the killer is in another file. Once that file
  // killed a mutant, the next mutants of the file run it first and stop there. The weak test
  // runs in the two baseline runs (recorded, then with the neutral edit), for the
  // removal of the whole statement (code run at load belongs to no test: the whole command)
  // and for the first mutant judged by its tests; then never again (without the known killer
  // first, once for each of the three mutants after it), and once for the canary of area():
  // it survives, so every covering file runs for it, wherever the seed put it in the list. The
  // filler makes the suite large, so it is recorded per test file.
  const ranLog = path.join(os.tmpdir(), `agm-area-${randomUUID()}.log`);
  writeFileSync(ranLog, '');
  chmodSync(ranLog, 0o666); // the tests may run as another uid
  t.teardown(() => rmSync(ranLog, { force: true }));
  const weak = `const { appendFileSync } = require('node:fs');
const { area } = require('../src/area.js');
describe('area', () => {
  it('runs', () => {
    appendFileSync(${JSON.stringify(ranLog)}, 'x');
    if (typeof area === 'function') area(3, 4);
  });
});
`;
  const strong = `const assert = require('node:assert');
const { area } = require('../src/area.js');
describe('room', () => {
  it('has the area less one', () => { assert.equal(area(3, 4), 11); });
});
`;
  const repo = makeRepo(
    {},
    {
      'src/area.js': `exports.area = (w, h) => w * h - 1;\n`,
      'test/area.test.js': weak,
      'test/room.test.js': strong,
      'test/filler.test.js': FILLER,
    },
    { linkModules: true },
  );
  t.teardown(repo.cleanup);
  const m = await measured(t, bailing(repo, '1'), repo.file('m.json'));
  t.is(m.test_selection?.mode, 'per-test-file');
  const killed = m.mutants.filter((x) => x.status === 'killed');
  t.true(killed.length >= 3 && killed.length === m.mutants.length, JSON.stringify(m.mutants));
  t.true(
    killed
      .filter((x) => x.operator !== 'StatementRemoval')
      .every((x) => x.killed_by === 'test/room.test.js::room has the area less one'),
    JSON.stringify(killed),
  );
  t.is(m.canaries?.length, 1);
  t.is(m.canaries?.[0]?.status, 'survived');
  t.is(readFileSync(ranLog, 'utf8'), 'xxxxx');
});

test('mocha: a large suite is recorded per test file; the kill still names the failing test', async (t) => {
  const repo = makeRepo({}, { ...PROJECT, 'test/filler.test.js': FILLER }, { linkModules: true });
  t.teardown(repo.cleanup);
  const m = await measured(
    t,
    ['--diff', repo.diff, '--tree', repo.tree, '--test-command', MOCHA, '--jobs', '2', '--max', '2'],
    repo.file('m.json'),
  );
  t.deepEqual(m.test_selection, { runner: 'mocha', mode: 'per-test-file' });
  const killed = m.mutants.filter((x) => x.status === 'killed');
  t.true(killed.length >= 1);
  t.true(killed.every((x) => x.killed_by?.startsWith('test/discount.test.js::discount ') === true));
});

test('mocha: a mutant command the hook cannot join (shell syntax) runs whole, and what ran is still never no_coverage', async (t) => {
  const repo = makeRepo({}, PROJECT, { linkModules: true });
  t.teardown(repo.cleanup);
  const m = await measured(
    t,
    [
      '--diff',
      repo.diff,
      '--tree',
      repo.tree,
      '--test-command',
      MOCHA,
      '--mutant-command',
      `${MOCHA} && true`,
      '--jobs',
      '2',
      '--max',
      '3',
    ],
    repo.file('m.json'),
  );
  t.deepEqual(m.test_selection, { runner: 'mocha', mode: 'whole-command' });
  t.is(findMutant(m, 2, '+').status, 'killed');
  t.is(findMutant(m, 2, '+').killed_by, null);
});

/** Runs discount() only in a child process it starts; price() runs in the mocha process itself. */
const CHILD_TEST = `const assert = require('node:assert');
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { price } = require('../src/price.js');
describe('price', () => {
  it('multiplies', () => { assert.equal(price(2, 3), 6); });
});
describe('discount in a child process', () => {
  it('takes the rate off', () => {
    const file = path.join(__dirname, '../src/price.js');
    const out = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(require(process.argv[1]).discount(100, 0.25)))', file]);
    assert.equal(out.toString(), '75');
  });
});
`;

test('mocha: code the tests run only in a child process is recorded there, never no_coverage, and its mutants are killed', async (t) => {
  const repo = makeRepo({}, { 'src/price.js': PRICE_JS, 'test/child.test.js': CHILD_TEST }, { linkModules: true });
  t.teardown(repo.cleanup);
  const m = await measured(t, bailing(repo, '2'), repo.file('m.json'));
  t.deepEqual(m.test_selection, { runner: 'mocha', mode: 'per-test' });
  // The changed file carried site counters in the recording run.
  t.is(m.timing?.site_counter_files, 1);
  // discount() ran in the child alone: the mocha process's recording cannot see it, the
  // child's own counts do, so its mutants run the whole command instead of counting as unrun.
  const discount = m.mutants.filter((x) => x.line === 2);
  t.true(discount.length >= 2);
  t.true(
    discount.every((x) => x.status === 'killed'),
    JSON.stringify(discount.map((x) => [x.replacement, x.status])),
  );
  t.is(findMutant(m, 1, '/').killed_by, 'test/child.test.js::price multiplies');
  t.is(findMutant(m, 3, '-').status, 'no_coverage');
});

/** A child process that runs discount() and is killed before it can write what it counted. */
const KILLED_CHILD_TEST = `const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { price } = require('../src/price.js');
describe('price', () => {
  it('multiplies', () => { assert.equal(price(2, 3), 6); });
  it('survives a child that dies', () => {
    const file = path.join(__dirname, '../src/price.js');
    const r = spawnSync(process.execPath, ['-e', 'require(process.argv[1]).discount(100, 0.25); process.kill(process.pid, "SIGKILL")', file]);
    assert.equal(r.signal, 'SIGKILL');
  });
});
`;

test('mocha: a child killed before it wrote its counts leaves nothing narrowed: every mutant runs the whole command, none is no_coverage', async (t) => {
  const repo = makeRepo(
    {},
    { 'src/price.js': PRICE_JS, 'test/killed.test.js': KILLED_CHILD_TEST },
    { linkModules: true },
  );
  t.teardown(repo.cleanup);
  const m = await measured(t, bailing(repo, '2'), repo.file('m.json'));
  t.is(m.timing?.site_counter_files, 1);
  t.deepEqual(m.test_selection, { runner: 'mocha', mode: 'whole-command' });
  t.false(m.mutants.some((x) => x.status === 'no_coverage'));
  t.is(findMutant(m, 1, '/').status, 'killed');
  t.is(findMutant(m, 3, '-').status, 'survived');
});
