import test from 'ava';
import { jsCode } from '../src/engines/js-code.js';
import { EngineParseError, jsSites } from '../src/engines/js.js';

const all = (text: string) => new Set(text.split('\n').map((_, i) => i + 1));
const pairs = (path: string, text: string, lines = all(text)) =>
  jsSites(path, text, lines).map((s) => `${s.operator}:${s.original}->${s.replacement}`);

test('the operators of the bench notes are generated', (t) => {
  const code = `function f(a, b, xs, o) {
  if (a < b && !o) return a + b;
  while (a >= 0) a--;
  const s = 'txt', e = [1], m = { k: 1 }, ok = true;
  a += 1;
  b = o?.c ?? xs.some((x) => x === 1);
  g();
  return s.startsWith('t');
}`;
  const got = pairs('a.js', code);
  for (const want of [
    'ConditionalExpression:a < b && !o->false',
    'ConditionalExpression:a < b && !o->true',
    'EqualityOperator:<-><=',
    'LogicalOperator:&&->||',
    'UnaryOperator:!->',
    'ArithmeticOperator:+->-',
    'ConditionalExpression:a >= 0->false',
    'UpdateOperator:--->++',
    'StringLiteral:\'txt\'->""',
    'ArrayDeclaration:[1]->[]',
    'ObjectLiteral:{ k: 1 }->{}',
    'BooleanLiteral:true->false',
    'AssignmentOperator:+=->-=',
    'OptionalChaining:?.->.',
    'LogicalOperator:??->&&',
    'MethodExpression:some->every',
    'EqualityOperator:===->!==',
    'StatementRemoval:g();->;',
    "ReturnValue:return s.startsWith('t');->return undefined;",
    'MethodExpression:startsWith->endsWith',
  ])
    t.true(got.includes(want), want);
});

test('an empty array literal gets an element, so a line like `const fields = []` has a mutant', (t) => {
  t.deepEqual(pairs('a.js', 'const fields = [];\n'), ['ArrayDeclaration:[]->["Stryker was here"]']);
});

test("a string literal's containment is mutated to a prefix test; a computed argument's is not", (t) => {
  const got = pairs('a.js', "export const free = (id, tag) => id.includes('test') || id.includes(tag);\n");
  t.true(got.includes('MethodExpression:includes->startsWith'));
  t.is(got.filter((p) => p.startsWith('MethodExpression:includes')).length, 1);
});

test('only sites starting on the given lines are listed', (t) => {
  const sites = jsSites('a.js', 'const a = 1 + 2;\nconst b = 3 - 4;\n', new Set([2]));
  t.true(sites.length > 0);
  t.true(sites.every((s) => s.line === 2));
});

test('types, imports, requires, logging and directives are never mutated', (t) => {
  const code = `'use strict';
import x from 'mod';
const r = require('dep');
interface I { a: 'x' | 'y' }
type T = { b: true };
enum E { A = 'a' }
console.log('hello', 1 + 2);
logger.info(\`x\`);
export { y } from 'other';
let v: Array<'q'> = [] as string[];
function h(p: 'lit' = 'd'): boolean { return p === 'lit'; }`;
  const sites = jsSites('a.ts', code, all(code));
  t.deepEqual([...new Set(sites.map((s) => s.line))].sort(), [10, 11]);
  t.deepEqual(
    sites.filter((s) => s.line === 10).map((s) => s.original),
    ['[]'],
    "line 10's value is mutated, its types are not",
  );
  t.true(sites.every((s) => s.original !== "'lit'" || s.column > 30));
});

test('TypeScript and JSX parse by extension', (t) => {
  t.true(jsSites('a.tsx', 'const e = <div>{a && b}</div>;\nconst n: number = 1 + 1;\n', new Set([2])).length > 0);
  t.true(jsSites('a.jsx', 'const e = <b>{x > 1}</b>;\n', new Set([1])).some((s) => s.replacement === '>='));
});

test('a file that does not parse is an engine error naming it', (t) => {
  const error = t.throws(() => jsSites('bad.js', 'function (', new Set([1])));
  t.true(error instanceof EngineParseError);
  t.regex(error!.message, /^bad\.js: /);
});

test('every generated mutant parses again', (t) => {
  const code = 'export const f = (a, b) => { if (a?.b > 1) { return -a; } return [a, { b }]; };\n';
  const sites = jsSites('a.mjs', code, new Set([1]));
  t.true(sites.length >= 8);
  t.true(sites.every((s) => s.parses));
});

test('string concatenation is not turned into subtraction', (t) => {
  t.false(pairs('a.js', "const s = 'a' + b;\n").some((p) => p.startsWith('ArithmeticOperator')));
});

test('a Flow-typed .js file is read as Flow: its code is mutated, its types are not, and types alone are no code change', (t) => {
  const code = `// @flow
type Options = { cache: boolean, name?: string };
export function key(options: Options, id: number): string {
  const k: string = options.cache ? String(id) : '';
  return (k: any);
}`;
  const got = pairs('src/index.js', code);
  t.true(got.includes('StringLiteral:\'\'->"Stryker was here!"'), got.join('\n'));
  t.true(
    got.some((p) => p.startsWith('ConditionalExpression:options.cache')),
    'the condition inside the typed function is mutated',
  );
  t.false(
    got.some((p) => /boolean|Options|number/.test(p.split('->')[0]!)),
    'no site in a type',
  );
  const retyped = code.replace('cache: boolean', 'cache: ?boolean').replace('id: number', 'id: number | string');
  t.is(jsCode('src/index.js', retyped), jsCode('src/index.js', code));
  t.not(jsCode('src/index.js', code), null);
  t.not(jsCode('src/index.js', code.replace("''", "'-'")), jsCode('src/index.js', code));
});

test('plain JavaScript that is not Flow either still fails with the JavaScript parse error', (t) => {
  const error = t.throws(() => jsSites('a.js', 'function (', new Set([1])));
  t.true(error instanceof EngineParseError, String(error));
  t.notRegex(error.message, /flow/i);
});

test('a rounding call is swapped for the one that differs from it by one on the most inputs', (t) => {
  const got = pairs(
    'a.js',
    'export const pages = (n, per) => [Math.round(n / per), Math.ceil(n / per), Math.floor(n)];\n',
  );
  for (const want of ['MethodExpression:round->ceil', 'MethodExpression:ceil->round', 'MethodExpression:floor->round'])
    t.true(got.includes(want), want);
});
