import test from 'ava';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findMutant, measured } from './helpers/artefact.js';
import { makeRepo, runBin, type Files } from './helpers/repo.js';

const PRICE_JS = `export function price(qty, unit) {
  return qty * unit;
}
export function unused(a) {
  return a + 1;
}
`;

/** Covers price() but checks only the type: `*` → `/` survives it. */
const TYPE_ONLY_JS = `import test from 'node:test';
import assert from 'node:assert/strict';
import { price } from '../src/price.js';
test('price is a number', () => { assert.equal(typeof price(3, 2), 'number'); });
`;

/** Never executes src/price.js, but fails when its text holds the `*` → `/` mutant: it must never run for a mutant. */
const CHECKSUM_JS = `import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
test('the source is not divided', () => { assert.ok(!readFileSync(new URL('../src/price.js', import.meta.url), 'utf8').includes('qty / unit')); });
`;

const NODE_PROJECT: Files = {
  'src/price.js': PRICE_JS,
  'test/price.test.js': TYPE_ONLY_JS,
  'test/checksum.test.js': CHECKSUM_JS,
};

test('node --test: each mutant runs only the test files that execute it; a test file that does not is never run; uncovered code is no_coverage', async (t) => {
  const repo = makeRepo({ 'package.json': '{"type":"module"}\n' }, NODE_PROJECT);
  t.teardown(repo.cleanup);
  const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', 'node --test', '--jobs', '2'];
  const m = await measured(t, [...args], repo.file('m.json'));
  t.deepEqual(m.test_selection, { runner: 'node-test', mode: 'per-test-file' });
  // The ES module carried site counters (an import of the runtime) in the recording run.
  t.is(m.timing?.site_counter_files, 1);
  t.is(m.sandbox, 'none');
  // checksum.test.js would kill every mutant; only price.test.js ran, so `*` → `/` survives.
  t.is(findMutant(m, 2, '/').status, 'survived');
  t.is(findMutant(m, 2, 'return undefined;').status, 'killed');
  t.is(findMutant(m, 2, 'return undefined;').killed_by, 'test/price.test.js');
  t.true(m.mutants.filter((x) => x.line >= 4).every((x) => x.status === 'no_coverage'));
  t.true(m.counts.no_coverage >= 3);
  // The whole command runs the checksum test too, which kills the same mutant: the proof it would fail if run.
  const w = await measured(t, [...args, '--select', 'whole'], repo.file('whole.json'));
  t.deepEqual(w.test_selection, { runner: 'node-test', mode: 'whole-command' });
  t.is(findMutant(w, 2, '/').status, 'killed');
});

const PRICE_PY = `def price(qty, unit):
    return qty * unit


def unused(a):
    return a + 1
`;

const PY_PROJECT: Files = {
  'app/__init__.py': '',
  'app/price.py': PRICE_PY,
  'tests/test_price.py': `from app.price import price


def test_is_number():
    assert isinstance(price(3, 2), (int, float))
`,
  'tests/test_checksum.py': `import pathlib


def test_source_not_divided():
    assert "qty / unit" not in (pathlib.Path(__file__).parent.parent / "app" / "price.py").read_text()
`,
};

test('pytest: each mutant runs only the tests (node ids) that execute its statement; a test that does not is never run; uncovered code is no_coverage', async (t) => {
  const repo = makeRepo({ 'app/__init__.py': '' }, PY_PROJECT);
  t.teardown(repo.cleanup);
  const args = [
    '--diff',
    repo.diff,
    '--tree',
    repo.tree,
    '--test-command',
    '/usr/bin/python3 -m pytest -q -p no:cacheprovider',
    '--jobs',
    '2',
  ];
  const m = await measured(t, [...args], repo.file('m.json'));
  t.deepEqual(m.test_selection, { runner: 'pytest', mode: 'per-test' });
  t.is(findMutant(m, 2, '/').status, 'survived');
  t.is(findMutant(m, 2, 'return None').status, 'killed');
  t.is(findMutant(m, 2, 'return None').killed_by, 'tests/test_price.py::test_is_number');
  t.true(m.mutants.filter((x) => x.line >= 5).length >= 2);
  t.true(m.mutants.filter((x) => x.line >= 5).every((x) => x.status === 'no_coverage'));
  const w = await measured(t, [...args, '--select', 'whole'], repo.file('whole.json'));
  t.is(w.test_selection?.mode, 'whole-command');
  t.is(findMutant(w, 2, '/').status, 'killed');
});

test('pytest as the pipelines wire it (python3 -c … pytest.main()): per-test selection all the same', async (t) => {
  const { wirePytest } = await import('@adversary-gate/core');
  const repo = makeRepo({ 'app/__init__.py': '' }, PY_PROJECT);
  t.teardown(repo.cleanup);
  const command = wirePytest('/usr/bin/python3').test_command;
  const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', command, '--jobs', '2'];
  const m = await measured(t, args, repo.file('m.json'));
  t.deepEqual(m.test_selection, { runner: 'pytest', mode: 'per-test' });
  // The checksum test never runs for a mutant: the `/` mutant survives the type-only test.
  t.is(findMutant(m, 2, '/').status, 'survived');
  t.is(findMutant(m, 2, 'return None').killed_by, 'tests/test_price.py::test_is_number');
});

test('--sandbox bwrap: every run inside bubblewrap, recorded; a write outside the tree copy never reaches the host', async (t) => {
  const outside = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-outside-'));
  t.teardown(() => rmSync(outside, { recursive: true, force: true }));
  const escape = path.join(outside, 'escaped.txt');
  const test_ = `import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { price } from '../src/price.js';
test('price', () => {
  try { mkdirSync(${JSON.stringify(outside)}, { recursive: true }); writeFileSync(${JSON.stringify(escape)}, 'x'); } catch {}
  assert.equal(price(3, 2), 6);
});
`;
  const repo = makeRepo(
    { 'package.json': '{"type":"module"}\n' },
    { 'src/price.js': PRICE_JS, 'test/price.test.js': test_ },
  );
  t.teardown(repo.cleanup);
  const m = await measured(
    t,
    [
      '--diff',
      repo.diff,
      '--tree',
      repo.tree,
      '--test-command',
      'node --test',
      '--jobs',
      '2',
      '--max',
      '3',
      '--sandbox',
      'bwrap',
    ],
    repo.file('m.json'),
  );
  t.is(m.sandbox, 'bwrap');
  t.deepEqual(m.faults, []);
  t.deepEqual(
    m.test_selection,
    { runner: 'node-test', mode: 'per-test-file' },
    JSON.stringify(m.baseline_runs?.map((r) => [r.kind, r.problem, r.stderr_tail.slice(-800)])),
  );
  t.is(findMutant(m, 2, '/').status, 'killed');
  t.false(existsSync(escape));
});

test('--sandbox bwrap that cannot run is exit 3, never an unsandboxed run', async (t) => {
  const repo = makeRepo({ 'package.json': '{"type":"module"}\n' }, { 'src/price.js': PRICE_JS });
  t.teardown(repo.cleanup);
  const r = await runBin(
    [
      '--diff',
      repo.diff,
      '--tree',
      repo.tree,
      '--test-command',
      'true',
      '--sandbox',
      'bwrap',
      '--out',
      repo.file('m.json'),
    ],
    { PATH: repo.root },
  );
  t.is(r.code, 3);
  t.regex(r.stderr, /--sandbox bwrap: .*refusing to run unsandboxed/);
  t.false(existsSync(repo.file('m.json')));
  const bad = await runBin([
    '--diff',
    repo.diff,
    '--tree',
    repo.tree,
    '--test-command',
    'true',
    '--sandbox',
    'docker',
    '--out',
    repo.file('m.json'),
  ]);
  t.is(bad.code, 3);
});

test('a kill by a subset of the tests that fails on the unmutated tree too is not trusted: the whole command decides', async (t) => {
  // test_b needs state that test_a leaves behind: alone it fails whatever the mutant.
  const repo = makeRepo(
    { 'app/__init__.py': '' },
    {
      'app/__init__.py': 'ready = False\n',
      'app/price.py': 'def price(qty, unit):\n    return qty * unit\n',
      'tests/test_a.py': 'import app\n\n\ndef test_setup():\n    app.ready = True\n',
      'tests/test_b.py':
        'import app\nfrom app.price import price\n\n\ndef test_price():\n    assert app.ready\n    assert isinstance(price(3, 2), (int, float))\n',
    },
  );
  t.teardown(repo.cleanup);
  const m = await measured(
    t,
    [
      '--diff',
      repo.diff,
      '--tree',
      repo.tree,
      '--test-command',
      '/usr/bin/python3 -m pytest -q -p no:cacheprovider',
      '--jobs',
      '2',
    ],
    repo.file('m.json'),
  );
  t.is(m.test_selection?.mode, 'per-test');
  t.is(findMutant(m, 2, '/').status, 'survived');
  t.is(findMutant(m, 2, 'return None').status, 'killed');
  t.is(findMutant(m, 2, 'return None').killed_by, null);
});
