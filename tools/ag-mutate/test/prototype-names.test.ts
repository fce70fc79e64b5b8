import test from 'ava';
import { jsAnalysis } from '../src/engines/js.js';
import { pythonAnalysis } from '../src/engines/python.js';
import { patternMutations } from '../src/engines/regex.js';
import { findMutant, measured } from './helpers/artefact.js';
import { makeRepo, repoArgs } from './helpers/repo.js';

/** Every name a plain object inherits: `toString`, `valueOf`, `constructor`, `hasOwnProperty`, `__proto__`… */
const INHERITED = Object.getOwnPropertyNames(Object.prototype);

/** One line that calls a method of every inherited name, and one that reads each as a property, beside the swapped methods. */
const JS = `export const f = (n, xs, s) => [${INHERITED.map((m) => `n.${m}(2)`).join(', ')}];
export const g = (n) => [${INHERITED.map((m) => `n?.${m}`).join(', ')}];
export const h = (xs, s) => xs.some((x) => x > 1) && s.startsWith('a') && Math.max(1, 2) && s.padStart(3);
`;

const all = (text: string) => new Set(text.split('\n').map((_, i) => i + 1));

test('JS: a method named like an Object.prototype member gets no swap (and no non-string replacement); the table swaps still happen', (t) => {
  t.true(INHERITED.includes('toString') && INHERITED.includes('__proto__') && INHERITED.includes('constructor'));
  const { sites } = jsAnalysis('a.js', JS, all(JS));
  const bad = sites.filter((s) => typeof s.replacement !== 'string');
  t.deepEqual(
    bad.map((s) => `${s.line}:${s.operator}:${s.original}`),
    [],
  );
  // No method swap on the inherited names: nothing in the table names them.
  t.deepEqual(
    sites.filter((s) => s.operator === 'MethodExpression' && INHERITED.includes(s.original)).map((s) => s.original),
    [],
  );
  // The lines still have their other mutants (the arrow's value, the optional chains).
  t.true(sites.some((s) => s.line === 1 && s.operator === 'ArrayDeclaration'));
  t.true(sites.some((s) => s.line === 2 && s.operator === 'OptionalChaining'));
  const swaps = sites.filter((s) => s.operator === 'MethodExpression').map((s) => `${s.original}->${s.replacement}`);
  t.deepEqual(swaps.sort(), ['max->min', 'padStart->padEnd', 'some->every', 'startsWith->endsWith']);
  // Binary operators are looked up the same way: still swapped.
  t.true(sites.some((s) => s.operator === 'EqualityOperator' && s.original === '>' && s.replacement === '>='));
  t.true(sites.some((s) => s.operator === 'LogicalOperator' && s.original === '&&' && s.replacement === '||'));
  // Every mutant is a string edit of the text that still parses.
  t.true(sites.every((s) => s.parses));
});

test('regex: the class-escape table is not fooled by inherited names either', (t) => {
  t.deepEqual(
    patternMutations('\\d\\w').map((m) => m.pattern),
    ['\\D\\w', '\\d\\W'],
  );
  for (const m of patternMutations('a\\c\\o\\t')) t.is(typeof m.pattern, 'string');
});

test('Python: calls of methods named like Object.prototype members list their sites without throwing', async (t) => {
  const names = INHERITED.filter((m) => /^[A-Za-z_]\w*$/.test(m));
  const text = `def f(n, xs):\n    return [${names.map((m) => `n.${m}(2)`).join(', ')}] and xs.count(1) > 0\n`;
  const got = (await pythonAnalysis('/usr/bin/python3', [{ path: 'p.py', text, lines: all(text) }])).get('p.py');
  if (got instanceof Error || got === undefined) return t.fail(String(got));
  t.true(got.sites.length > 0);
  t.true(got.sites.every((s) => typeof s.replacement === 'string' && typeof s.operator === 'string'));
  t.true(got.sites.some((s) => s.original === '>' && s.replacement === '>='));
});

test('end to end: a patch calling n.toString(2), n.valueOf() and friends is measured and its artefact written', async (t) => {
  const src = `exports.bits = (n) => n.toString(2);
exports.parts = (n) => [n.valueOf(), n.toLocaleString(), n.constructor.name, n.hasOwnProperty('x'), n.__proto__ === Number.prototype];
exports.first = (xs) => xs.indexOf(1);
`;
  const spec = `const assert = require('node:assert');
const { bits, parts, first } = require('./bits.js');
assert.equal(bits(5), '101');
assert.deepEqual(parts(1000), [1000, (1000).toLocaleString(), 'Number', false, true]);
assert.equal(first([1, 2, 1]), 0);
`;
  const repo = makeRepo({}, { 'bits.js': src, 'bits.test.js': spec });
  t.teardown(repo.cleanup);
  const m = await measured(t, [...repoArgs(repo, 'node bits.test.js'), '--jobs', '1'], repo.file('m.json'));
  t.true(m.mutants.length > 0);
  t.true(m.mutants.every((x) => typeof x.replacement === 'string'));
  // The table's own swap still happens, and is killed.
  t.is(findMutant(m, 3, 'lastIndexOf').status, 'killed');
  t.false(m.mutants.some((x) => x.operator === 'MethodExpression' && INHERITED.includes(x.original)));
});
