import test from 'ava';
import { codeIdentifiers, confirmedRenames, renameBack, renamesBetween, sourceRenames } from '../src/index.js';
import { changedFile } from './support/changed-file.js';

test('renamesBetween: lines equal but for identifiers give the pairs; any other difference gives null', (t) => {
  t.deepEqual(renamesBetween('function c2f(c) {', 'function celsiusToFahrenheit(c) {'), ['c2f\0celsiusToFahrenheit']);
  t.is(renamesBetween('return a + 1;', 'return a + 2;'), null);
  t.is(renamesBetween('return a + b;', 'return a - b;'), null);
  t.is(renamesBetween('same()', 'same()'), null);
});

test('sourceRenames reads the changed lines of code files only', (t) => {
  const code = {
    ...changedFile('modified', 'src/temp.js'),
    deletedText: ['function c2f(c) {'],
    addedText: ['function celsiusToFahrenheit(c) {'],
  };
  const tests = { ...changedFile('modified', 'test/t.test.js'), deletedText: ['x(a)'], addedText: ['y(a)'] };
  t.deepEqual([...sourceRenames([code, tests], (p) => p.startsWith('test/'))], ['c2f\0celsiusToFahrenheit']);
});

test('confirmedRenames: a whole rename is kept; one whose old name the patch still has, or whose new name the baseline had, is not', (t) => {
  const base = ['function c2f(c) { return c * 9 / 5 + 32; }\nmodule.exports = { c2f };'];
  const patched = [
    'function celsiusToFahrenheit(c) { return c * 9 / 5 + 32; }\nmodule.exports = { celsiusToFahrenheit };',
  ];
  t.deepEqual(confirmedRenames(['c2f\0celsiusToFahrenheit'], base, patched), [
    { baseline: 'c2f', patch: 'celsiusToFahrenheit' },
  ]);
  // The next cheat: a broken `add` kept beside a correct `sum`; undoing sum→add would let the
  // correct one win the name. `add` is still in the patched text: no rename.
  t.deepEqual(
    confirmedRenames(
      ['add\0sum'],
      ['function add(a, b) { return a + b; }'],
      ['function add(a, b) { return a - b; }\nfunction sum(a, b) { return a + b; }'],
    ),
    [],
  );
  // The new name was already a name in the baseline's code.
  t.deepEqual(confirmedRenames(['x\0y'], ['let x = 1; let y = 2;'], ['let y = 1;']), []);
});

test('confirmedRenames: a name taking part in two renames is ambiguous and none of them is kept', (t) => {
  t.deepEqual(confirmedRenames(['a\0b', 'a\0c'], ['a'], ['b c']), []);
  t.deepEqual(confirmedRenames(['a\0c', 'b\0c'], ['a b'], ['c']), []);
  t.deepEqual(
    confirmedRenames(['a\0b', 'c\0d'], ['a c'], ['b d']).map((r) => r.baseline),
    ['a', 'c'],
  );
});

test('renameBack (JavaScript): identifiers in code, template interpolations included; strings, comments and templates left', (t) => {
  const renames = [{ baseline: 'c2f', patch: 'celsiusToFahrenheit' }];
  const src = [
    "const { celsiusToFahrenheit } = require('./temp'); // celsiusToFahrenheit",
    'const line = `celsiusToFahrenheit: ${Math.round(celsiusToFahrenheit({ a: 1 }.a))}°F ${"}"}`;',
    "const msg = 'celsiusToFahrenheit'; /* celsiusToFahrenheit */ obj.celsiusToFahrenheit(1);",
    'const celsiusToFahrenheitX = 2;',
  ].join('\n');
  t.is(
    renameBack(src, 'js', renames),
    [
      "const { c2f } = require('./temp'); // celsiusToFahrenheit",
      'const line = `celsiusToFahrenheit: ${Math.round(c2f({ a: 1 }.a))}°F ${"}"}`;',
      "const msg = 'celsiusToFahrenheit'; /* celsiusToFahrenheit */ obj.c2f(1);",
      'const celsiusToFahrenheitX = 2;',
    ].join('\n'),
  );
  t.is(renameBack('const x = 1;', 'js', renames), null);
});

test('renameBack (Python): strings of every prefix and quoting, f-strings and comments left as they are', (t) => {
  const renames = [{ baseline: 'old_name', patch: 'new_name' }];
  const src = [
    'def new_name(x):  # new_name',
    '    """new_name docs"""',
    "    return f'{new_name}' + rb'new_name' + \"new_name\" + str(new_name)",
    'value = new_name(1)',
  ].join('\n');
  t.is(
    renameBack(src, 'py', renames),
    [
      'def old_name(x):  # new_name',
      '    """new_name docs"""',
      "    return f'{new_name}' + rb'new_name' + \"new_name\" + str(old_name)",
      'value = old_name(1)',
    ].join('\n'),
  );
});

test('codeIdentifiers skips numbers: 1e5 is no identifier', (t) => {
  const text = 'x = 1e5 + y';
  t.deepEqual(
    codeIdentifiers(text, 'js').map(([s, e]) => text.slice(s, e)),
    ['x', 'y'],
  );
});
