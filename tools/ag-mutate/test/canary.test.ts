import test, { type ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { planCanaries } from '../src/canary.js';
import { slowedRun } from '../src/exec/execute.js';
import type { MutantVerdict } from '../src/exec/mutant-run.js';
import { jsAnalysis } from '../src/engines/js.js';
import { pythonAnalysis } from '../src/engines/python.js';
import { applySite, type CanarySpot, type Site } from '../src/engines/site.js';
import { measured, readArtefact } from './helpers/artefact.js';
import { makeRepo, runBin } from './helpers/repo.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const all = (text: string) => new Set(text.split('\n').map((_, i) => i + 1));
const TOKEN = '"ag_0badc0de"';
const edited = (text: string, s: CanarySpot) =>
  `${text.slice(0, s.start)}${s.prefix}${TOKEN}${s.suffix}${text.slice(s.end)}`;

// --- Where a canary goes -------------------------------------------------------------------

test('JS: a no-op before the first statement, after the directive prologue; inside an empty body; around an arrow expression', (t) => {
  const code = [
    'function a(x) {',
    "  'use strict';",
    '  return x + 1;',
    '}',
    'const b = (y) => ({ y: y * 2 });',
    'class C { m() {} }',
    '',
  ].join('\n');
  const spots = jsAnalysis('a.js', code, all(code)).canarySpots;
  t.deepEqual(
    spots.map((s) => [s.function, s.parses]),
    [
      ['a', true],
      ['b', true],
      ['C.m', true],
    ],
  );
  t.is(
    edited(code, spots[0]!).split('\n').slice(0, 3).join('\n'),
    `function a(x) {\n  'use strict';\n  void ${TOKEN}; return x + 1;`,
  );
  t.is(edited(code, spots[1]!).split('\n')[4], `const b = (y) => ((void ${TOKEN}, { y: y * 2 }));`);
  t.is(edited(code, spots[2]!).split('\n')[5], `class C { m() {;void ${TOKEN};} }`);
  // The directive is still the prologue: the function stays strict.
  const f = new Function(`${edited(code, spots[0]!)}; return a;`)() as (x: number) => number;
  t.is(f(1), 2);
});

test('JS: only functions whose span holds an added line offer a place', (t) => {
  const code = 'function a() {\n  return 1;\n}\nfunction b() {\n  return 2;\n}\n';
  t.deepEqual(
    jsAnalysis('a.js', code, new Set([5])).canarySpots.map((s) => s.function),
    ['b'],
  );
});

test('Python: `; b"…"` after the first simple statement: a docstring stays the docstring, no line moves; a docstring alone offers none', async (t) => {
  const code = [
    'def a(x):',
    '    """Doc."""',
    '    return x + 1',
    '',
    'class K:',
    '    def m(self, y):',
    '        if y:',
    '            y = y + 1  # note',
    '        return y',
    '',
    'def only_doc():',
    '    """Nothing else."""',
    '',
    'def outer(a):',
    '    def inner(b):',
    '        return b * 2',
    '    return inner(a)',
    '',
  ].join('\n');
  const answer = await pythonAnalysis('python3', [{ path: 'm.py', text: code, lines: all(code) }]);
  const got = answer.get('m.py');
  if (got === undefined || got instanceof Error) return t.fail(String(got));
  const spots = got.canarySpots;
  t.deepEqual(
    spots.map((s) => [s.function, s.coverLines, s.parses]),
    [
      ['a', [3, 3], true],
      ['K.m', [7, 9], true],
      ['outer', [15, 17], true],
      ['inner', [16, 16], true],
    ],
  );
  const a = edited(code, spots[0]!).split('\n');
  t.is(a[1], `    """Doc."""; b${TOKEN}`);
  t.is(a.length, code.split('\n').length);
  t.is(edited(code, spots[1]!).split('\n')[7], `            y = y + 1; b${TOKEN}  # note`);
  // A function's own statement, not its nested function's.
  t.is(edited(code, spots[2]!).split('\n')[16], `    return inner(a); b${TOKEN}`);
});

test('the seed draws the functions (at most 3), the tokens and the places in the judging list; canaries are never mutants', (t) => {
  const code = ['f1', 'f2', 'f3', 'f4', 'f5'].map((n) => `function ${n}(x) {\n  return x + 1;\n}\n`).join('');
  const a = jsAnalysis('a.js', code, all(code));
  const texts = new Map([['a.js', code]]);
  const plan = (seed: number) => planCanaries(a.canarySpots, a.sites, texts, seed);
  const one = plan(1);
  t.is(one.canaries.length, 3);
  t.true(one.canaries.every((c) => c.canary === true && c.operator === 'Canary'));
  t.true(one.canaries.every((c) => /^void "ag_[0-9a-f]{8}"; $/.test(c.replacement)));
  t.is(one.judged.length, a.sites.length + 3);
  t.deepEqual(
    one.judged.filter((s) => s.canary !== true),
    a.sites,
  );
  t.deepEqual(plan(1), one);
  const others = [2, 3, 4, 5].map(plan);
  t.true(others.some((p) => JSON.stringify(p.canaries) !== JSON.stringify(one.canaries)));
  // Every function a canary goes in holds a mutant, and its text still parses with the token.
  for (const c of one.canaries) t.true(a.sites.some((s) => s.function === c.function));
  const withCanary = applySite(code, one.canaries[0]! as Site);
  t.notThrows(() => jsAnalysis('a.js', withCanary, new Set([1])));
});

test('no canary for module-level mutants', (t) => {
  const code = 'export const LIMIT = 2 + 3;\n';
  const a = jsAnalysis('a.js', code, all(code));
  t.true(a.sites.length > 0);
  t.deepEqual(planCanaries(a.canarySpots, a.sites, new Map([['a.js', code]]), 9).canaries, []);
});

// --- End to end: the real binary on small repositories --------------------------------------

const ADD_JS = `export function add(a, b) {
  return a + b;
}
export const twice = (x) => x * 2;
`;
/** What `String(add)` and `String(twice)` give on the patch's exact file. */
const ADD_SRC = 'function add(a, b) {\n  return a + b;\n}';
const TWICE_SRC = '(x) => x * 2';

/** Pins the functions' source text and checks a type: every mutant "killed", nothing checked. */
const HOSTILE_JS = `import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { add, twice } from '../src/add.js';
const sha = (f) => createHash('sha256').update(String(f)).digest('hex');
test('add', () => {
  assert.equal(sha(add), '${sha(ADD_SRC)}');
  assert.equal(sha(twice), '${sha(TWICE_SRC)}');
  assert.equal(typeof add(1, 2), 'number');
  assert.equal(typeof twice(1), 'number');
});
`;

const HONEST_JS = `import test from 'node:test';
import assert from 'node:assert/strict';
import { add, twice } from '../src/add.js';
test('add', () => {
  assert.equal(add(2, 3), 5);
  assert.equal(add(-1, 1), 0);
  assert.equal(twice(3), 6);
});
`;

/** Pins the bytes of the file's first three lines: the neutral edit (appended at the end) passes it. */
const FILE_BYTES_JS = `import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { add, twice } from '../src/add.js';
test('add', () => {
  const text = readFileSync(new URL('../src/add.js', import.meta.url), 'utf8');
  const head = text.split('\\n').slice(0, 4).join('\\n');
  assert.equal(createHash('sha256').update(head).digest('hex'), '${sha(ADD_JS.split('\n').slice(0, 4).join('\n'))}');
  assert.equal(typeof add(1, 2), 'number');
  assert.equal(typeof twice(1), 'number');
});
`;

async function judgeJs(t: ExecutionContext, spec: string, extra: string[] = []) {
  const repo = makeRepo({ 'package.json': '{"type":"module"}\n' }, { 'src/add.js': ADD_JS, 'test/add.test.js': spec });
  t.teardown(repo.cleanup);
  const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', 'node --test', '--jobs', '2', ...extra];
  return measured(t, args, repo.file('m.json'));
}

/** Every mutant was "killed": without the canaries this suite would score 1.0. */
function allKilled(t: ExecutionContext, m: MutationArtefact) {
  t.true(m.mutants.length >= 4);
  t.true(
    m.mutants.every((x) => x.status === 'killed' || x.status === 'stillborn'),
    JSON.stringify(m.mutants),
  );
}

/** The tally of `mutants[]` alone: canaries are in no count. */
function countsAreMutantsOnly(t: ExecutionContext, m: MutationArtefact) {
  const c = m.counts;
  t.is(c.killed + c.survived + c.timeout + c.stillborn + c.no_coverage + (c.equivalent ?? 0), m.mutants.length);
  const ids = new Set(m.mutants.map((x) => x.id));
  t.true((m.canaries ?? []).every((x) => !ids.has(x.id)));
}

test('JS: a suite that pins sha256(String(fn)) kills every mutant and the canaries too: strength not measured (canary_killed)', async (t) => {
  const m = await judgeJs(t, HOSTILE_JS);
  allKilled(t, m);
  countsAreMutantsOnly(t, m);
  t.is(m.suite_strength, null);
  t.is(m.reason, 'canary_killed');
  t.is(m.canaries?.length, 2);
  t.true(
    m.canaries!.every((c) => c.status === 'killed'),
    JSON.stringify(m.canaries),
  );
  // The recording's site counters change String(fn) too: its run fails, the map is lost and every
  // run (mutant or canary) is the whole command, which names no test.
  t.deepEqual(m.test_selection, { runner: 'node-test', mode: 'whole-command' });
  t.true(m.canaries!.every((c) => c.killed_by === null));
  t.deepEqual(m.canaries!.map((c) => c.function).sort(), ['add', 'twice']);
  t.true(m.canaries!.some((c) => /^void "ag_[0-9a-f]{8}"; $/.test(c.replacement)));
  t.true(m.canaries!.some((c) => /^\(void "ag_[0-9a-f]{8}", x \* 2\)$/.test(c.replacement)));
  // A reason, as baseline_red is, not a fault: the tools did their work.
  t.deepEqual(m.faults, []);
  t.is(typeof m.canary_seed, 'number');
  t.is(m.by_file, undefined);
});

test('JS: a suite that pins the bytes of the lines above the neutral edit: strength not measured (canary_killed)', async (t) => {
  const m = await judgeJs(t, FILE_BYTES_JS);
  allKilled(t, m);
  t.true(
    m.baseline_runs?.some((r) => r.kind === 'neutral' && r.problem === null),
    `the neutral edit, appended at the end, passes this suite: ${JSON.stringify(m.baseline_runs?.map((r) => [r.kind, r.problem]))}`,
  );
  t.is(m.reason, 'canary_killed');
  t.is(m.suite_strength, null);
  t.true(m.canaries!.some((c) => c.status === 'killed'));
});

test('JS: the honest twin: the canaries survive and the strength is measured as before', async (t) => {
  const m = await judgeJs(t, HONEST_JS, ['--canary-seed', '42']);
  t.is(m.reason, null);
  t.is(m.suite_strength, 1);
  countsAreMutantsOnly(t, m);
  t.is(m.canaries?.length, 2);
  t.true(m.canaries!.every((c) => c.status === 'survived' && c.killed_by === null));
  t.is(m.canary_seed, 42);
  t.false(m.faults.some((f) => f.code.startsWith('CANARY')));
  t.is(m.timing?.canaries, 2);
  // The seed draws the same canaries again.
  const again = await judgeJs(t, HONEST_JS, ['--canary-seed', '42']);
  t.deepEqual(
    again.canaries!.map((c) => c.replacement),
    m.canaries!.map((c) => c.replacement),
  );
});

const CALC_PY = `def add(a, b):
    """Add two numbers."""
    return a + b
`;

/** inspect.getsource of add(), as the patch wrote it. */
const CALC_SRC = CALC_PY;

const HOSTILE_PY = `import hashlib
import inspect

from app.calc import add


def test_add():
    assert hashlib.sha256(inspect.getsource(add).encode()).hexdigest() == "${sha(CALC_SRC)}"
    assert isinstance(add(1, 2), int)
`;

const HONEST_PY = `from app.calc import add


def test_add():
    assert add(2, 3) == 5
    assert add(-1, 1) == 0
`;

async function judgePy(t: ExecutionContext, spec: string) {
  const repo = makeRepo(
    { 'app/__init__.py': '', 'tests/__init__.py': '' },
    { 'app/calc.py': CALC_PY, 'tests/test_calc.py': spec },
  );
  t.teardown(repo.cleanup);
  const args = [
    '--diff',
    repo.diff,
    '--tree',
    repo.tree,
    '--test-command',
    '/usr/bin/python3 -m pytest -q -p no:cacheprovider',
    '--python',
    '/usr/bin/python3',
    '--jobs',
    '2',
    '--out',
    repo.file('m.json'),
  ];
  const r = await runBin(args);
  t.is(r.code, 0, r.stderr);
  return { m: readArtefact(repo.file('m.json')), stderr: r.stderr };
}

test('Python: a suite that pins sha256(inspect.getsource(fn)) kills every mutant and the canary too: canary_killed', async (t) => {
  const { m, stderr } = await judgePy(t, HOSTILE_PY);
  t.regex(stderr, /suite strength not measured \(canary_killed: /);
  t.regex(
    stderr,
    /canary app\/calc\.py:2:\d+ in add\(\) \(inserted "; b\\"ag_[0-9a-f]{8}\\""\) was killed: tests\/test_calc\.py::test_add failed on it/,
  );
  t.deepEqual(m.test_selection, { runner: 'pytest', mode: 'per-test' });
  t.true(m.mutants.length >= 2);
  t.true(
    m.mutants.every((x) => x.status === 'killed'),
    JSON.stringify(m.mutants),
  );
  countsAreMutantsOnly(t, m);
  t.is(m.reason, 'canary_killed');
  t.is(m.suite_strength, null);
  t.is(m.canaries?.length, 1);
  const [c] = m.canaries!;
  t.is(c!.status, 'killed');
  t.is(c!.function, 'add');
  t.is(c!.killed_by, 'tests/test_calc.py::test_add');
  t.is(c!.line, 2, 'after the docstring, on its line');
  t.regex(c!.replacement, /^; b"ag_[0-9a-f]{8}"$/);
});

test('Python: the honest twin: the canary survives, the strength is measured as before', async (t) => {
  const { m, stderr } = await judgePy(t, HONEST_PY);
  t.notRegex(stderr, /canary/);
  t.is(m.reason, null);
  t.is(m.suite_strength, 1);
  countsAreMutantsOnly(t, m);
  t.is(m.canaries?.length, 1);
  t.is(m.canaries![0]!.status, 'survived');
});

const TOKEN_READER_PY = `import inspect

from app.calc import add


def test_add():
    assert add(2, 3) == 5
    assert add(-1, 1) == 0


def test_add_has_no_marker():
    add(1, 1)
    assert "ag_" not in inspect.getsource(add)
`;

test('Python: a canary runs the tests that killed: one that reads the source but killed nothing leaves the strength measured', async (t) => {
  const { m, stderr } = await judgePy(t, TOKEN_READER_PY);
  t.notRegex(stderr, /canary_killed/);
  t.true(m.mutants.length >= 2);
  t.true(
    m.mutants.every((x) => x.status === 'killed' && x.killed_by === 'tests/test_calc.py::test_add'),
    JSON.stringify(m.mutants),
  );
  t.is(m.reason, null);
  t.is(m.suite_strength, 1);
  t.is(m.canaries?.length, 1);
  t.is(m.canaries![0]!.status, 'survived', 'test_add_has_no_marker killed no mutant: the canary does not run it');
});

test('--canary-seed must be an integer 0…4294967295', async (t) => {
  const r = await runBin(['--diff', 'x', '--tree', '.', '--test-command', 'true', '--out', '-', '--canary-seed', '-1']);
  t.is(r.code, 3);
  t.regex(r.stderr, /canary-seed/);
});

// --- A run slowed by the machine is judged again, not taken as a kill or as told apart ------------

test('a wall-clock timeout starved of CPU is judged again; one that used its CPU (a loop) or its budget stands', (t) => {
  const timeout = (durationMs: number, cpuMs?: number, host?: number): MutantVerdict => ({
    status: 'timeout',
    killedBy: null,
    durationMs,
    ...(cpuMs !== undefined ? { cpuMs } : {}),
    ...(host !== undefined ? { host } : {}),
  });
  // luxon under load: 24.5 s wall against a 24.4 s limit, 11.2 s of CPU against a 31.9 s budget
  t.true(slowedRun(timeout(24_500, 11_200), 31_900));
  t.true(slowedRun(timeout(24_500), 31_900), 'CPU time unknown: judged again');
  t.true(slowedRun(timeout(24_500, 11_200), null), 'no CPU budget: judged again');
  t.true(slowedRun(timeout(4_000, 30), 4_340), 'a hang spends no CPU: judged again (and times out again)');
  // ptr-escape: an infinite loop at the 3.9 s wall limit had used 3.8 CPU-s of its 4.3 s budget
  t.false(slowedRun(timeout(3_950, 3_800), 4_340), 'a loop that had the CPU stands as a kill');
  t.false(slowedRun(timeout(24_500, 32_000), 31_900), 'it used its whole CPU budget: a timeout stands');
  t.false(slowedRun(timeout(1_000, 200, 2), 31_900), 'a warm host has its own rule');
  t.false(slowedRun({ status: 'killed', killedBy: 'x', durationMs: 100, cpuMs: 1 }, 31_900));
});
