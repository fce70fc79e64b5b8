import test from 'ava';
import { END_OF_FILE, pragmaScopes } from '../src/measure/pragma-scope.js';

/** The scopes of a whole file, as [pragma line, from, to]. */
const scopesOf = (path: string, text: string) => {
  const texts = text.split('\n');
  return pragmaScopes(path, { numbers: texts.map((_, k) => k + 1), texts, complete: true }).map((s) => [
    s.line,
    s.from,
    s.to,
  ]);
};

test('c8, v8 and node:coverage `ignore next N`: the pragma line and the N lines after it', (t) => {
  const text = ['/* c8 ignore next 2 */', 'a();', 'b();', 'c();', '/* node:coverage ignore next 3 */', 'd();'].join(
    '\n',
  );
  t.deepEqual(scopesOf('a.js', text), [
    [1, 1, 3],
    [5, 5, 6], // cut at the end of the file
  ]);
});

test('start/stop, disable/enable and LCOV_EXCL ranges; a start never stopped runs to the end; a stray stop reaches nothing', (t) => {
  const text = [
    '/* c8 ignore stop */', // 1: nothing started
    '/* v8 ignore start */', // 2
    'x();',
    '/* c8 ignore stop */', // 4: c8 and v8 share their start/stop (v8-to-istanbul)
    '/* node:coverage disable */', // 5
    'y();',
    '/* node:coverage enable */', // 7
    '// LCOV_EXCL_START', // 8
    'z();',
  ].join('\n');
  t.deepEqual(scopesOf('a.js', text), [
    [2, 2, 4],
    [5, 5, 7],
    [8, 8, 9],
  ]);
});

test('`istanbul ignore next` reaches the whole next statement: a function with its body, whatever its brackets hide in strings', (t) => {
  const text = [
    'export function a() {',
    '  /* istanbul ignore next */',
    '  function f(x) {', // 3
    "    const s = '}';",
    '    if (x) {',
    '      return s;',
    '    }',
    '    return `${x}}`;',
    '  }', // 9
    '  return f;',
    '}',
  ].join('\n');
  t.deepEqual(scopesOf('a.js', text), [[2, 2, 9]]);
});

test('`ignore next` with no count on an if/else reaches the else; a chained call goes on while lines start with a dot', (t) => {
  const ifElse = ['/* istanbul ignore if */', 'if (a) {', '  b();', '}', 'else {', '  c();', '}', 'd();'].join('\n');
  t.deepEqual(scopesOf('a.ts', ifElse), [[1, 1, 7]]);
  const chain = ['/* v8 ignore next */', 'promise', '  .then(f)', '  .catch(g);', 'h();'].join('\n');
  t.deepEqual(scopesOf('a.js', chain), [[1, 1, 4]]);
});

test('a statement badly indented is still followed to its closing bracket', (t) => {
  const text = ['/* istanbul ignore next */', 'function f() {', 'evil();', 'return 1;', '}', 'ok();'].join('\n');
  t.deepEqual(scopesOf('a.js', text), [[1, 1, 5]]);
});

test('coverage.py: an excluded line that opens a block reaches the block; a decorator, the decorated function', (t) => {
  const text = [
    'def a():', // 1
    '    return 1',
    '',
    'def discount(amount):  # pragma: no cover', // 4
    '    doc = """',
    'text at column 0 inside a string',
    '"""', // 7
    '    if amount > 100:',
    '        return amount - 10',
    '    return amount', // 10
    '',
    '@decorate  # pragma: no cover', // 12
    '@another(',
    '    1,',
    ')',
    'def g():', // 16
    '    return 2', // 17
    'x = 1  # pragma: no cover', // 18
    'y = 2',
  ].join('\n');
  t.deepEqual(scopesOf('shop.py', text), [
    [4, 4, 10],
    [12, 12, 17],
    [18, 18, 18],
  ]);
});

test('coverage.py reads `# pragma nocover` too (its default regex); `no branch` reaches its own line', (t) => {
  const text = ['if x:  # pragma nocover', '    y()', 'while z:  # pragma: no branch', '    w()'].join('\n');
  t.deepEqual(scopesOf('a.py', text), [
    [1, 1, 2],
    [3, 3, 3],
  ]);
});

test('a pragma ag-diffcov lists but cannot read counts against coverage to the end of the file', (t) => {
  const text = ['a();', '/* c8 ignore else */', 'b();', 'c();'].join('\n');
  t.deepEqual(scopesOf('a.js', text), [[2, 2, 4]]);
});

test('with the added lines alone, a statement pragma reaches every later line; a counted one stays counted', (t) => {
  const scopes = pragmaScopes('a.js', {
    numbers: [10, 11, 20],
    texts: ['/* istanbul ignore next */', 'function f() {', '/* c8 ignore next 1 */'],
    complete: false,
  });
  t.deepEqual(
    scopes.map((s) => [s.line, s.from, s.to]),
    [
      [10, 10, END_OF_FILE],
      [20, 20, 21],
    ],
  );
  t.is(scopes[0]!.text, '/* istanbul ignore next */');
});

test('ordinary code that mentions coverage has no scope', (t) => {
  t.deepEqual(scopesOf('a.js', 'const ignore = c8Options;\ncoverage.ignore = [];\n'), []);
});

test('with the added lines alone, a statement that visibly ends inside its run of added lines ends there', (t) => {
  const texts = ['def f():  # pragma: no cover', '    return 1', '', '', 'def g():', '    return 2'];
  const scopes = pragmaScopes('a.py', { numbers: [5, 6, 7, 8, 9, 10], texts, complete: false });
  t.deepEqual(
    scopes.map((s) => [s.line, s.from, s.to]),
    [[5, 5, 6]],
  );
  const open = pragmaScopes('a.py', { numbers: [5, 6, 7], texts: texts.slice(0, 3), complete: false });
  t.deepEqual(
    open.map((s) => [s.line, s.from, s.to]),
    [[5, 5, END_OF_FILE]],
  );
});
