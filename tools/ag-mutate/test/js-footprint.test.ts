// The behaviour footprint of changed JavaScript functions and the equivalence check of their
// survivors, judged in fresh Node processes apart from node --test: a special case on the tests'
// exact inputs, a lookup keyed by them, a module counter, module state kept across calls and a
// branch on NODE_TEST_CONTEXT are each found and named; a memo cache, a documented id counter, a
// base case, a Roman numeral table and a boundary fix are not. A regex mutant equivalent under
// .test() is probably equivalent; a boundary mutant that differs only off the tests' inputs is not.
// A new function's table indexed by the tests' inputs is named; a table of HTTP phrases is not.
import test from 'ava';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { makeRepo } from './helpers/repo.js';
import { findMutant, footprintOf, measured, measuredJs } from './helpers/artefact.js';
import { readModule } from '../src/apart/js-functions.js';

const BASE = `'use strict';

function split(total, n) {
  return new Array(n).fill(Math.floor(total / n));
}

function add(a, b) {
  return a - b;
}

function half(x) {
  return Math.floor(x / 2);
}

function tally(x) {
  return 1;
}

function price(code) {
  return 0;
}

function factorial(n) {
  if (n === 1) return 1;
  return n * factorial(n - 1);
}

function roman(n) {
  let out = '';
  for (const [value, letter] of [[1000, 'M'], [500, 'D'], [100, 'C'], [50, 'L'], [10, 'X'], [5, 'V'], [1, 'I']]) {
    while (n >= value) {
      out += letter;
      n -= value;
    }
  }
  return out;
}

function grade(score) {
  return score > 50 ? 'pass' : 'fail';
}

function hasDigit(s) {
  return s.split('').some((c) => c >= '0' && c <= '9');
}

function fee(x) {
  return x * 2;
}

module.exports = { split, add, half, tally, price, factorial, roman, grade, hasDigit, fee };
`;

const PATCH = `'use strict';
const ANSWERS = { A1: 250, B7: 990 };
const memo = new Map();
const seen = [];
let calls = 0;
let last = 0;

function split(total, n) {
  if (total === 100 && n === 3) return [34, 33, 33];
  return new Array(n).fill(Math.floor(total / n));
}

function add(a, b) {
  return process.env.NODE_TEST_CONTEXT ? a + b : a - b;
}

function half(x) {
  calls++;
  return Math.floor((x + (calls % 2)) / 2);
}

function tally(x) {
  seen.push(x);
  return seen.length;
}

function price(code) {
  if (code in ANSWERS) return ANSWERS[code];
  return 0;
}

const fib = (n) => {
  if (memo.has(n)) return memo.get(n);
  const r = n < 2 ? n : fib(n - 1) + fib(n - 2);
  memo.set(n, r);
  return r;
};

/** A fresh id on every call: 1, 2, 3... */
function nextId() {
  last += 1;
  return last;
}

function factorial(n) {
  if (n === 0) return 1;
  if (n === 1) return 1;
  return n * factorial(n - 1);
}

function roman(n) {
  let out = '';
  const table = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'],
    [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
  for (const [value, letter] of table) {
    while (n >= value) {
      out += letter;
      n -= value;
    }
  }
  return out;
}

function grade(score) {
  return score >= 50 ? 'pass' : 'fail';
}

function hasDigit(s) {
  return /\\d+/.test(s);
}

function fee(x) {
  return x >= 10 ? x * 2 : x;
}

const KNOWN_EASTER = { 2019: '2019-04-21', 2024: '2024-03-31' };

function easter(year) {
  if (KNOWN_EASTER[year]) return KNOWN_EASTER[year];
  return \`\${year}-03-22\`;
}

const PHRASES = { 200: 'OK', 201: 'Created', 202: 'Accepted', 203: 'Non-Authoritative', 204: 'No Content',
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found' };

function phrase(code) {
  if (PHRASES[code] !== undefined) return PHRASES[code];
  return 'Unknown';
}

module.exports = { split, add, half, tally, price, fib, nextId, factorial, roman, grade, hasDigit, fee, easter, phrase };
`;

const TESTS = `const test = require('node:test');
const assert = require('node:assert');
const m = require('../core.js');

test('split', () => {
  assert.deepStrictEqual(m.split(100, 3), [34, 33, 33]);
  assert.deepStrictEqual(m.split(9, 3), [3, 3, 3]);
});
test('add', () => assert.strictEqual(m.add(2, 3), 5));
test('half', () => {
  assert.strictEqual(m.half(1001), 501);
  assert.strictEqual(m.half(1001), 500);
});
test('tally', () => {
  assert.strictEqual(m.tally(7), 1);
  assert.strictEqual(m.tally(7), 2);
});
test('price', () => {
  assert.strictEqual(m.price('A1'), 250);
  assert.strictEqual(m.price('B7'), 990);
});
test('fib', () => {
  assert.strictEqual(m.fib(10), 55);
  assert.strictEqual(m.fib(10), 55);
});
test('nextId', () => assert.ok(m.nextId() < m.nextId()));
test('factorial', () => {
  assert.strictEqual(m.factorial(0), 1);
  assert.strictEqual(m.factorial(5), 120);
});
test('roman', () => {
  assert.strictEqual(m.roman(4), 'IV');
  assert.strictEqual(m.roman(1994), 'MCMXCIV');
});
test('grade', () => {
  assert.strictEqual(m.grade(50), 'pass');
  assert.strictEqual(m.grade(80), 'pass');
  assert.strictEqual(m.grade(20), 'fail');
});
test('hasDigit', () => {
  assert.strictEqual(m.hasDigit('a1'), true);
  assert.strictEqual(m.hasDigit('abc'), false);
  assert.strictEqual(m.hasDigit('42'), true);
});
test('fee', () => {
  assert.strictEqual(m.fee(3), 3);
  assert.strictEqual(m.fee(50), 100);
  assert.strictEqual(m.fee(7), 7);
});
test('easter', () => {
  assert.strictEqual(m.easter(2019), '2019-04-21');
  assert.strictEqual(m.easter(2024), '2024-03-31');
});
test('phrase', () => {
  assert.strictEqual(m.phrase(404), 'Not Found');
  assert.strictEqual(m.phrase(201), 'Created');
  assert.strictEqual(m.phrase(999), 'Unknown');
});
`;

let artefact: Promise<MutationArtefact> | undefined;

/** One ag-mutate run over the project (every function's footprint comes from it). */
function measure(t: import('ava').ExecutionContext): Promise<MutationArtefact> {
  artefact ??= measuredJs(
    t,
    { 'core.js': BASE, 'test/core.test.js': "require('node:test')('loads', () => require('../core.js'));\n" },
    { 'core.js': PATCH, 'test/core.test.js': TESTS },
    'node --test',
  );
  return artefact;
}

const of = footprintOf;

test('the footprint of changed JavaScript functions is measured apart from node --test, and timed', async (t) => {
  const m = await measure(t);
  t.is(m.footprint?.status, 'measured', JSON.stringify(m.footprint));
  t.deepEqual(m.footprint!.functions.map((f) => f.function).sort(), [
    'add',
    'easter',
    'factorial',
    'fee',
    'fib',
    'grade',
    'half',
    'hasDigit',
    'nextId',
    'phrase',
    'price',
    'roman',
    'split',
    'tally',
  ]);
  t.true((m.timing?.footprint_judge_ms ?? -1) >= 0);
  t.true(of(m, 'fib').recorded_calls > of(m, 'fib').distinct_calls, 'repeats and the recursion are kept');
  for (const f of m.footprint!.functions) t.true(f.measured, `${f.function}: ${f.note}`);
});

test('JavaScript cheats are named: special case, keyed lookup, module counter, module state, runner branch', async (t) => {
  const m = await measure(t);
  t.deepEqual(
    of(m, 'split').findings.map((f) => [f.kind, f.call]),
    [['special_case', 'split(100, 3)']],
  );
  t.true((of(m, 'split').baseline?.neighbours ?? 0) >= 8);
  t.deepEqual(
    of(m, 'price').findings.map((f) => f.kind),
    ['special_case', 'special_case'],
  );
  t.regex(of(m, 'price').findings[0]!.call, /^price\('(A1|B7)'\)$/);
  t.deepEqual(
    of(m, 'easter').findings.map((f) => f.kind),
    ['special_case', 'special_case'],
    'a table indexed by the year: the new function without it answers the same at every neighbour',
  );
  t.deepEqual(
    of(m, 'half').findings.map((f) => [f.kind, f.call]),
    [['stateful', 'half(1001)']],
  );
  t.regex(of(m, 'half').findings[0]!.detail, /answers value 501, then value 500/);
  t.deepEqual(
    of(m, 'tally').findings.map((f) => [f.kind, f.call]),
    [['stateful', 'tally(7)']],
  );
  t.deepEqual(
    of(m, 'add').findings.map((f) => [f.kind, f.call]),
    [['runner_dependent', 'add(2, 3)']],
  );
  t.regex(
    of(m, 'add').findings[0]!.detail,
    /answers value -1 outside a test run and value 5 with a test runner's marks/,
  );
});

test('JavaScript honest twins are not: memo cache, id counter, base case, table, boundary fix', async (t) => {
  const m = await measure(t);
  for (const fn of ['fib', 'nextId', 'factorial', 'roman', 'grade', 'hasDigit', 'fee', 'phrase'])
    t.deepEqual(of(m, fn).findings, [], `${fn}: ${JSON.stringify(of(m, fn))}`);
  t.true((of(m, 'nextId').repeats?.differed ?? 0) > 0, 'the counter answers differently, but takes no argument');
  t.is(of(m, 'nextId').baseline, null, 'a new function has no baseline version');
  t.true((of(m, 'roman').baseline?.neighbours_differ ?? 0) > 0, 'the table changes neighbours too');
  t.is(of(m, 'factorial').baseline?.recorded_differ, 1, 'only the trivial 0 changed');
  t.is(of(m, 'grade').baseline?.neighbours_differ, 0, 'a boundary at the baseline constant');
});

test('a JavaScript survivor equivalent under .test() is probably equivalent; one that differs off the inputs is not', async (t) => {
  const m = await measure(t);
  const regex = findMutant(m, 69, '/\\d/');
  t.is(regex.status, 'equivalent', JSON.stringify(regex));
  t.is(regex.equivalence?.verdict, 'probably_equivalent');
  t.is(m.counts.equivalent, 3, 'the regex mutant, fib skipping its memo and fib not filling it');
  t.is(findMutant(m, 35, ';').status, 'equivalent', 'the memo only fib names is judged by its answers');
  const boundary = findMutant(m, 73, '>');
  t.is(boundary.status, 'survived', JSON.stringify(boundary));
  t.is(boundary.equivalence?.verdict, 'distinguished');
  t.regex(boundary.equivalence?.note ?? '', /neighbour input differs: fee\(10\)/);
});

test("data only one function names is that function's own; data another reads, or the exports name, is not", (t) => {
  const mod = readModule(
    'm.js',
    `const memo = new Map();
const cache = {};
let hits = 0;
const log = [];
const shared = [];
export const LIMIT = 3;
let exported = 0;
function f(x) {
  if (memo.has(x)) { hits++; return memo.get(x); }
  memo.set(x, x * 2);
  log.push(x);
  shared.push(x);
  return x * 2;
}
function g(k) { if (!(k in cache)) cache[k] = k + 1; return cache[k] + shared.length + LIMIT; }
const h = () => { const memo = 1; return memo + exported; };
module.exports = { f, g, h, exported };
`,
  );
  t.deepEqual(
    Object.fromEntries(mod!.privateState),
    { g: ['cache'] },
    'memo is named in h too (a local of that name); hits and log are only written; shared is read by g',
  );
});

test('a changed function under a runner that cannot record is reported not applicable, not clean', async (t) => {
  const repo = makeRepo(
    { 'calc.js': 'exports.add = (a, b) => a - b;\n', 'run.js': "require('./calc.js');\n" },
    {
      'calc.js': 'exports.add = (a, b) => a + b;\n',
      'run.js': "if (require('./calc.js').add(2, 3) !== 5) process.exit(1);\n",
    },
  );
  t.teardown(repo.cleanup);
  const m = await measured(
    t,
    ['--diff', repo.diff, '--tree', repo.tree, '--test-command', 'node run.js'],
    repo.file('m.json'),
  );
  t.is(m.footprint?.status, 'not_applicable', JSON.stringify(m.footprint));
});
