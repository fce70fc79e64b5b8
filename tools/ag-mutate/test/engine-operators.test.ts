import test from 'ava';
import { jsAnalysis } from '../src/engines/js.js';
import { pythonAnalysis } from '../src/engines/python.js';
import { patternMutations } from '../src/engines/regex.js';

const all = (text: string) => new Set(text.split('\n').map((_, i) => i + 1));
const pairs = (path: string, text: string) =>
  jsAnalysis(path, text, all(text)).sites.map((s) => `${s.operator}:${s.original}->${s.replacement}`);

test('regex patterns: anchors, classes and quantifiers; escapes and class contents are never taken for operators', (t) => {
  t.deepEqual(
    patternMutations('^[a-z]+\\d*$').map((m) => m.pattern),
    ['[a-z]+\\d*$', '^[^a-z]+\\d*$', '^[a-z]\\d*$', '^[a-z]+\\D*$', '^[a-z]+\\d$', '^[a-z]+\\d*'],
  );
  t.deepEqual(
    patternMutations('\\^a\\+[$+]').map((m) => m.pattern),
    ['\\^a\\+[^$+]'],
  );
  t.deepEqual(
    patternMutations('a{2,3}?b').map((m) => m.pattern),
    ['ab'],
  );
  t.deepEqual(
    patternMutations('(a|b)').map((m) => m.pattern),
    [],
  );
});

test('JS: case labels, regex literals, numbers, bitwise, assigned values and more statements get mutants', (t) => {
  const got = pairs(
    'a.js',
    'switch (c) {\n  case 0x09:\n    go();\n    break;\n}\nconst re = /^a+$/;\nconst n = x | 0;\ny = f(n);\n',
  );
  for (const want of [
    'CaseLabel:case 0x09:->',
    'NumberLiteral:0x09->10',
    'StatementRemoval:break;->;',
    'Regex:/^a+$/->/a+$/',
    'Regex:/^a+$/->/^a$/',
    'BitwiseOperator:|->&',
    'BitwiseOperator:x | 0->(x)',
    'AssignedValue:x | 0->undefined',
    'StatementRemoval:y = f(n);->;',
  ]) {
    t.true(got.includes(want), `${want} in ${got.join(' ')}`);
  }
  // An invalid pattern is never offered: `(?:a)+` without `+` is fine, `[` alone is not built.
  t.true(jsAnalysis('a.js', 'const r = /a[/]b/;\n', new Set([1])).sites.every((s) => s.parses));
});

test('JS: an early bare return is removed; one in tail position, which ends the function anyway, is not', (t) => {
  const code = `function f(xs, n) {
  if (!xs) return;
  for (const x of xs) {
    if (x) { return; }
  }
  if (n > 2) {
    return;
  } else return;
}
const g = () => { try { go(); return; } catch { return; } };
`;
  const removed = jsAnalysis('a.js', code, all(code))
    .sites.filter((s) => s.operator === 'StatementRemoval' && s.original.startsWith('return'))
    .map((s) => s.line);
  t.deepEqual(removed, [2, 4]);
});

test('JS: the function of each mutant and the executable lines', (t) => {
  const code = `class Cart {
  total(items) {
    let sum;
    sum = items.length;
    return sum;
  }
}
const f = function () { return 1; };
export const g = () => {
  state.ready;
};
`;
  const a = jsAnalysis('a.js', code, all(code));
  t.deepEqual([...new Set(a.sites.map((s) => `${s.line}:${s.function}`))].sort(), [
    '2:Cart.total',
    '4:Cart.total',
    '5:Cart.total',
    '8:f',
    '9:g',
  ]);
  // Class and method headers, a declaration without a value, braces: not executable; `state.ready;` is, and has no mutant.
  t.deepEqual(a.executable, [4, 5, 8, 9, 10]);
});

test('Python: match cases, regexes in re calls, bitwise, floats, for loops, functions and executable lines', async (t) => {
  const text = `import re


class K:
    def m(self, c, xs):
        match c:
            case 1 | 2:
                pass
        for x in xs:
            del x
        with open("f") as h:
            h.read()
        return re.search(r"^a+$", c) and c & 3 and 0.5
`;
  const got = (await pythonAnalysis('/usr/bin/python3', [{ path: 'k.py', text, lines: all(text) }])).get('k.py');
  if (got instanceof Error || got === undefined) return t.fail(String(got));
  const ops = got.sites.map((s) => `${s.line}:${s.operator}:${s.original}->${s.replacement}`);
  for (const want of [
    '7:CaseLabel:1 | 2->1 | 2 if False',
    '7:CaseLabel:1 | 2->2',
    '9:LoopIterable:xs->[]',
    '10:StatementRemoval:del x->pass',
    '13:Regex:r"^a+$"->\'a+$\'',
    '13:BitwiseOperator:&->|',
    '13:NumberLiteral:0.5->1.5',
  ]) {
    t.true(ops.includes(want), `${want} in ${ops.join(' ')}`);
  }
  t.true(got.sites.every((s) => s.function === 'K.m'));
  t.deepEqual(got.executable, [7, 9, 10, 12, 13]);
});

test('JS: a concise arrow body gets a return-value mutant; a line that only loads a module is not executable code', (t) => {
  const code =
    "const fs = require('node:fs');\nconst { join } = require('node:path').posix;\nconst parse = (s) => JSON.parse(s);\n";
  const a = jsAnalysis('a.js', code, all(code));
  t.deepEqual(
    a.sites.map((s) => `${s.line}:${s.operator}:${s.original}->${s.replacement}`),
    ['3:ReturnValue:JSON.parse(s)->undefined'],
  );
  t.deepEqual(a.executable, [3]);
});
