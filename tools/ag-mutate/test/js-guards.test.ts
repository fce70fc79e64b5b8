// A new function's guards keyed on exact values are made false, and nothing else is: the
// function without its special cases, the footprint's stand-in for a baseline version.
import test from 'ava';
import { readModule } from '../src/apart/js-functions.js';
import { unguardedText } from '../src/apart/js-guards.js';

const unguarded = (text: string, name: string) => {
  const fn = readModule('m.js', text)?.functions.get(name);
  if (fn === undefined) throw new Error(`no ${name}`);
  return unguardedText(text, fn);
};

test('a guard comparing a parameter with a literal, or looking it up in a table, is made false', (t) => {
  t.is(
    unguarded('function leap(y) {\n  if (y === 1900) return false;\n  return y % 4 === 0;\n}\n', 'leap'),
    'function leap(y) {\n  if (false) return false;\n  return y % 4 === 0;\n}\n',
  );
  t.is(
    unguarded(
      'const split = (a, n) => {\n  if (a === 100 && n === 3) { return [34, 33, 33]; }\n  return [a];\n};\n',
      'split',
    ),
    'const split = (a, n) => {\n  if (false) { return [34, 33, 33]; }\n  return [a];\n};\n',
  );
  t.is(
    unguarded(
      'const T = { A1: 2 };\nfunction price(c) {\n  if (c in T) return T[c];\n  if (KNOWN.has(c)) throw new Error(c);\n  return 0;\n}\n',
      'price',
    ),
    'const T = { A1: 2 };\nfunction price(c) {\n  if (false) return T[c];\n  if (false) throw new Error(c);\n  return 0;\n}\n',
  );
});

test('a table indexed by a parameter, or asked whether it holds one, is a lookup too', (t) => {
  const easter = (guard: string) =>
    `const KNOWN = { 2019: '04-21' };\nfunction easter(year) {\n  if (${guard}) return KNOWN[year];\n  return '03-22';\n}\n`;
  for (const guard of [
    'KNOWN[year]',
    'KNOWN[year] !== undefined',
    'null != KNOWN[year]',
    'Object.hasOwn(KNOWN, year)',
    'KNOWN.hasOwnProperty(year)',
  ])
    t.is(unguarded(easter(guard), 'easter'), easter('false'), guard);
  // A parameter's own property, a lookup of a computed key, or a call on another object is no table of the module's.
  for (const guard of ['year[0]', 'KNOWN[year + 1]', 'Object.keys(KNOWN, year)', 'year.hasOwnProperty(KNOWN)'])
    t.is(unguarded(easter(guard), 'easter'), null, guard);
});

test('a computed condition, an else, a branch that falls through or a nested guard is left alone', (t) => {
  t.is(unguarded('function leap(y) {\n  if (y % 400 === 0) return true;\n  return false;\n}\n', 'leap'), null);
  t.is(unguarded('function f(x) {\n  if (x === 1) return 1;\n  else return 2;\n}\n', 'f'), null);
  t.is(unguarded('function f(x) {\n  if (x === 1) x = 2;\n  return x;\n}\n', 'f'), null);
  t.is(unguarded('function f(x) {\n  for (;;) { if (x === 1) return 1; }\n}\n', 'f'), null);
  t.is(unguarded('function f(x, y) {\n  if (x === y) return 1;\n  return 0;\n}\n', 'f'), null);
});
