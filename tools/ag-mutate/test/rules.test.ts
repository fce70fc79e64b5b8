// The rules of the judges apart from the tests, decided once for Python and JavaScript
// (src/apart/rules.ts, src/apart/argument-rules.ts): base cases and the baseline's constants from the raw facts each judge
// reports of an argument (Python's from ag_mutate_equiv.py, read here from a real interpreter),
// receivers that are no argument, and the places where the two languages' rules still differ.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { boundary, takesArguments, trivial, type ArgFact } from '../src/apart/argument-rules.js';
import { argFacts } from '../src/apart/js-inputs.js';
import {
  equivalenceVerdict,
  footprintFindings,
  JAVASCRIPT,
  PYTHON,
  type EquivalenceEvidence,
  type FootprintEvidence,
} from '../src/apart/rules.js';
import { PYTEST_PLUGIN_DIR } from '../src/package-files.js';

/** Run `script` with the plugin's modules importable; its last line of output, as JSON. */
function python(script: string): unknown {
  const driver = ['import json, sys', `sys.path.insert(0, ${JSON.stringify(PYTEST_PLUGIN_DIR)})`, script].join('\n');
  const r = spawnSync('python3', ['-c', driver], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

test("Python's argument facts: base cases by exact type, constants by value", (t) => {
  const values = [
    ['None', true],
    ['True', true],
    ['0', true],
    ['-1', true],
    ['2', false],
    ['E.ONE', false], // an IntEnum 1 is no base case: not an int itself
    ['1.0', true],
    ['-0.0', true],
    ['0.5', false],
    ['float("nan")', false],
    ['F(0.0)', false], // a float subclass neither
    ['""', true],
    ['S("")', true], // an empty string of any type is
    ['"x"', false],
    ['b""', true],
    ['()', true],
    ['{}', true],
    ['frozenset()', true],
    ['[1]', false],
    ['object()', false],
  ] as const;
  const facts = python(
    [
      'import enum',
      'from ag_mutate_equiv import arg_facts',
      'class E(enum.IntEnum):\n    ONE = 1',
      'class F(float): pass',
      'class S(str): pass',
      `print(json.dumps([arg_facts(([v], {}))[0] for v in [${values.map(([x]) => x).join(', ')}]]))`,
    ].join('\n'),
  ) as ArgFact[];
  values.forEach(([text, base], i) => t.is(trivial([facts[i]!]), base, `${text}: ${JSON.stringify(facts[i])}`));
  // The baseline's constants, integers one off either way, strings as written (an IntEnum by its value).
  const at = python(
    [
      'import enum',
      'from ag_mutate_equiv import arg_facts',
      'class E(enum.IntEnum):\n    TOP = 51',
      `print(json.dumps(arg_facts(([50, E.TOP, 2 ** 70 + 1, "pass"], {"k": "x" * 50}))))`,
    ].join('\n'),
  ) as ArgFact[];
  const literals = { ints: ['50', String(2n ** 70n)], strs: ['pass'] };
  t.true(boundary(at.slice(0, 4), literals));
  t.false(boundary([at[0]!], { ints: ['52'], strs: [] }));
  t.false(boundary([at[4]!], { ints: [], strs: ['x'.repeat(50)] }), 'a string past 40 characters is no constant');
});

test("Python's parameters: self and cls are no argument, keyword-only and star parameters are", (t) => {
  const got = python(
    [
      'import ast',
      'from ag_mutate_footprint import parameters',
      'defs = ["def f(self): pass", "def f(cls, x): pass", "def f(self, *, k): pass", "def f(*args): pass", "def f(a, /, b): pass", "def f(): pass"]',
      'print(json.dumps([parameters(ast.parse(d).body[0]) for d in defs]))',
    ].join('\n'),
  ) as { positional: string[]; other: number }[];
  t.deepEqual(
    got.map((p) => takesArguments(p, PYTHON.receivers)),
    [false, true, true, true, true, false],
  );
  t.true(
    takesArguments({ positional: ['self'], other: 0 }, JAVASCRIPT.receivers),
    'no receiver in a JavaScript parameter list',
  );
});

test("JavaScript's carried arguments read as Python's do", (t) => {
  const facts = argFacts([
    null,
    { $: 'undefined' },
    false,
    1,
    { $: 'number', v: '-0' },
    { $: 'number', v: 'NaN' },
    '',
    [],
    { $: 'object', v: {} },
    { $: 'bigint', v: '0' },
    2,
    'x',
  ]);
  t.deepEqual(
    facts.map((f) => trivial([f])),
    [true, true, true, true, true, false, true, true, true, false, false, false],
  );
  t.true(boundary([facts[10]!, facts[11]!], { ints: ['3'], strs: ['x'] }));
});

const calls = ['f(5)', 'f(6)', 'f(7)'];
const footprint = (o: Partial<FootprintEvidence>): FootprintEvidence => ({
  calls,
  unique: calls.map((text, i) => ({ text, args: [{ kind: 'int', value: String(5 + i), exact: true }] as ArgFact[] })),
  parameters: { positional: ['x'], other: 0 },
  hasBaseline: false,
  baselineLiterals: { ints: [], strs: [] },
  twice: { first: calls.map(() => ['value 1', 'value 1']), second: calls.map(() => ['value 1', 'value 1']), old: null },
  runner: null,
  ...o,
});

test('state is a finding only where the function takes an argument', (t) => {
  const counter = {
    twice: {
      first: calls.map(() => ['value 1', 'value 2']),
      second: calls.map(() => ['value 1', 'value 2']),
      old: null,
    },
  };
  t.deepEqual(
    footprintFindings(footprint(counter), PYTHON).findings.map((f) => f.kind),
    ['stateful', 'stateful', 'stateful'],
  );
  const method = footprint({ ...counter, parameters: { positional: ['self'], other: 0 } });
  t.deepEqual(footprintFindings(method, PYTHON).findings, []);
  t.is(footprintFindings(method, PYTHON).repeats?.differed, 3);
  t.is(footprintFindings(footprint({ calls: [] }), JAVASCRIPT).note, 'no call was recorded');
});

test("a call that timed out without the runner's marks: Python asks it, JavaScript does not", (t) => {
  const runner = {
    plain: ['timeout', 'value 1', 'value 1'],
    again: ['timeout', 'value 1', 'value 1'],
    marked: ['value 2', 'value 1', 'value 1'],
  };
  t.deepEqual(
    footprintFindings(footprint({ runner }), PYTHON).findings.map((f) => [f.kind, f.call, f.detail]),
    [['runner_dependent', 'f(5)', 'answers timeout outside a test run and value 2 when pytest is loaded']],
  );
  t.deepEqual(footprintFindings(footprint({ runner }), JAVASCRIPT).findings, []);
});

test("a special case: not at a base case, not at the baseline's constants, never with neighbours that differ", (t) => {
  const near = Array.from({ length: 8 }, () => 'value 0');
  const special = {
    patched: ['value 9', 'value 0', 'value 0', ...near],
    old: ['value 0', 'value 0', 'value 0', ...near],
  };
  const made = footprint({
    hasBaseline: true,
    special,
    twice: { ...footprint({}).twice, old: calls.map(() => ['value 1', 'value 1']) },
  });
  t.deepEqual(
    footprintFindings(made, PYTHON).findings.map((f) => f.call),
    ['f(5)'],
  );
  t.deepEqual(footprintFindings({ ...made, baselineLiterals: { ints: ['4'], strs: [] } }, PYTHON).findings, []);
  const few = { patched: special.patched.slice(0, 10), old: special.old.slice(0, 10) };
  t.regex(
    footprintFindings({ ...made, special: few }, PYTHON).note ?? '',
    /7 neighbours returned normally, at least 8/,
  );
});

test('a new function without its guards: a computation overridden is a special case, one default everywhere a table', (t) => {
  const near = Array.from({ length: 8 }, (_, i) => `value ${i}`);
  // isLeap(1900) with the guard gives false; without it, the rule elsewhere answers each year for itself.
  const overridden = footprint({
    unguarded: true,
    special: { patched: ['value 9', 'value 1', 'value 2', ...near], old: ['value 0', 'value 1', 'value 2', ...near] },
  });
  t.deepEqual(
    footprintFindings(overridden, PYTHON).findings.map((f) => [f.kind, f.call]),
    [['special_case', 'f(5)']],
  );
  // reason(404) from a table; without the table every input answers 'Unknown': a table with a default.
  const unknown = Array.from({ length: 8 }, () => "value 'Unknown'");
  const table = footprint({
    unguarded: true,
    special: {
      patched: ["value 'OK'", "value 'Created'", "value 'Unknown'", ...unknown],
      old: ["value 'Unknown'", "value 'Unknown'", "value 'Unknown'", ...unknown],
    },
  });
  t.deepEqual(footprintFindings(table, PYTHON).findings, []);
  t.is(footprintFindings(table, PYTHON).baseline?.recorded_differ, 2);
  // A changed function's baseline that answers one value everywhere is no table: the patch added the cases.
  t.deepEqual(
    footprintFindings({ ...table, unguarded: false, hasBaseline: true }, PYTHON).findings.map((f) => f.kind),
    ['special_case', 'special_case'],
  );
});

const rows = (xs: readonly string[], times = 1) => xs.map((x) => Array.from({ length: times }, () => x));
const evidence = (o: Partial<EquivalenceEvidence>): EquivalenceEvidence => {
  const texts = ['f(1)', 'f(2)', 'f(3)', 'f(4)'];
  const reference = rows(['value 1', 'value 2', 'value 3', 'value 4']);
  return { texts, k: 3, unrecordable: 0, reference, mutant: reference, ...o };
};

test('the equivalence verdict: a faithful rebuild, three calls that return, and the neighbours each language needs', (t) => {
  const near = Array.from({ length: 8 }, (_, i) => `f(${10 + i})`);
  const answered = rows(['value 1', 'value 2', 'value 3', ...near.map((_, i) => `value ${10 + i}`)]);
  const python = evidence({ texts: ['f(1)', 'f(2)', 'f(3)', ...near], reference: answered, mutant: answered });
  t.like(equivalenceVerdict({ ...python, live: rows(['value 1', 'value 2', 'value 3']) }, PYTHON), {
    verdict: 'probably_equivalent',
    inputs: 11,
  });
  t.like(equivalenceVerdict(python, JAVASCRIPT), { verdict: 'probably_equivalent', inputs: 11 });
  t.like(equivalenceVerdict(evidence({ live: rows(['value 1', 'value 2', 'value 3']) }), PYTHON), {
    verdict: 'probably_equivalent',
    inputs: 4,
  });
  t.like(equivalenceVerdict(evidence({}), JAVASCRIPT), {
    verdict: 'inconclusive',
    note: 'only 1 neighbouring inputs were answered; at least 8 are needed',
  });
  // Arguments no neighbour could be made of (a Decimal once) conclude nothing.
  const unvaried = evidence({ texts: ['f(1)', 'f(2)', 'f(3)'], reference: rows(['value 1', 'value 2', 'value 3']) });
  t.like(equivalenceVerdict({ ...unvaried, mutant: unvaried.reference, live: unvaried.reference }, PYTHON), {
    verdict: 'inconclusive',
    note: 'only 0 neighbouring inputs were answered; at least 1 are needed',
  });
  // A rebuild that does not give what the module's own gives: nothing concluded, no input counted (Python).
  const unfaithful = evidence({ live: rows(['value 1', 'value 2', 'value 9']) });
  t.like(equivalenceVerdict(unfaithful, PYTHON), { verdict: 'inconclusive', inputs: 0 });
  t.like(equivalenceVerdict(evidence({ mutant: rows(['value 1', 'value 2', 'value 3', 'value 5']) }), PYTHON), {
    verdict: 'distinguished',
    note: 'a neighbour input differs: f(4) gives value 4; the mutant gives value 5',
  });
  t.like(equivalenceVerdict(evidence({ k: 2, unrecordable: 4 }), JAVASCRIPT), {
    verdict: 'inconclusive',
    inputs: 4,
    note: '2 distinct calls recorded (4 could not be carried out of the test process); at least 3 are needed',
  });
  t.like(equivalenceVerdict(evidence({ problem: 'not judged: a method', texts: [], k: 0 }), JAVASCRIPT), {
    verdict: 'inconclusive',
    recorded_calls: 0,
    inputs: 0,
    note: 'not judged: a method',
  });
});
