import test from 'ava';
import { EngineParseError } from '../src/engines/js.js';
import { pythonSites } from '../src/engines/python.js';

const PY = '/usr/bin/python3';
const all = (text: string) => new Set(text.split('\n').map((_, i) => i + 1));

async function pairs(text: string, lines = all(text)) {
  const result = (await pythonSites(PY, [{ path: 'm.py', text, lines }])).get('m.py');
  if (!Array.isArray(result)) throw result;
  return result.map((s) => `${s.operator}:${s.original}->${s.replacement}`);
}

test('Python operators include is/in, and/or, not, break/continue and literals', async (t) => {
  const code = `def f(a, xs):
    for x in xs:
        if x is None or x not in a:
            break
        if not x:
            continue
        a += x * 2
    return a == [1]
`;
  const got = await pairs(code);
  for (const want of [
    'ConditionalExpression:x is None or x not in a->False',
    'EqualityOperator:is->is not',
    'EqualityOperator:not in->in',
    'LogicalOperator:or->and',
    'ControlKeyword:break->continue',
    'ControlKeyword:continue->break',
    'UnaryOperator:not ->',
    'AssignmentOperator:+=->-=',
    'ArithmeticOperator:*->/',
    'NumberLiteral:2->3',
    'EqualityOperator:==->!=',
    'ReturnValue:return a == [1]->return None',
    'ArrayDeclaration:[1]->[]',
  ])
    t.true(got.includes(want), want);
});

test('str methods are swapped for their mirror, and containment of a literal for a prefix test', async (t) => {
  const code = `def f(name, ids):
    if "test" in name or name.startswith("qa_"):
        return name.upper().rstrip()
    return 1 in ids
`;
  const got = await pairs(code);
  for (const want of [
    'MethodExpression:"test" in name->(name).startswith("test")',
    'MethodExpression:startswith->endswith',
    'MethodExpression:upper->lower',
    'MethodExpression:rstrip->lstrip',
  ])
    t.true(got.includes(want), want);
  // a number's containment is no string's prefix
  t.false(got.some((p) => p.startsWith('MethodExpression:1 in ids')));
});

test('math.ceil and math.floor are swapped for each other', async (t) => {
  const got = await pairs('import math\n\n\ndef pages(n, per):\n    return math.ceil(n / per) + math.floor(n)\n');
  t.true(got.includes('MethodExpression:ceil->floor'));
  t.true(got.includes('MethodExpression:floor->ceil'));
});

test("a dataclass field's None default is removed (it has no literal to mutate); a type-breaking mutant", async (t) => {
  const code = '@dataclasses.dataclass\nclass V:\n    major: int\n    pre: str = None\n';
  t.deepEqual(await pairs(code), ['AssignedValue: = None->']);
  t.deepEqual(await pairs(code.replace('@dataclasses.dataclass\n', '')), [], 'a plain class: left alone');
  const sites = (await pythonSites(PY, [{ path: 'm.py', text: code, lines: all(code) }])).get('m.py');
  t.true(Array.isArray(sites) && sites.every((s) => s.breaksType === true));
});

test('an early bare return is removed; one in tail position, which ends the function anyway, is not', async (t) => {
  const code = `def f(xs, n):
    if not xs:
        return
    for x in xs:
        if x:
            return None
    if n > 2:
        return
    else:
        return None
`;
  const removed = (await pythonSites(PY, [{ path: 'm.py', text: code, lines: all(code) }])).get('m.py');
  if (!Array.isArray(removed)) throw removed;
  t.deepEqual(
    removed.filter((s) => s.operator === 'StatementRemoval').map((s) => `${s.line}:${s.replacement}`),
    ['3:pass', '6:pass'],
  );
});

test('imports, docstrings, logging, annotations and f-strings are never mutated', async (t) => {
  const code = `"""module doc"""
import os
from x import y
def g(p: int = 1) -> "str":
    """doc"""
    logging.info("x %s", 1 + 2)
    print("y")
    return f"{p}"
`;
  const got = await pairs(code);
  t.deepEqual(
    got.filter((p) => !p.startsWith('NumberLiteral:1->2') && !p.startsWith('ReturnValue')),
    [],
  );
});

test('offsets survive characters outside the BMP', async (t) => {
  const code = 's = "😀😀"; t = 1 < 2\n';
  const result = (await pythonSites(PY, [{ path: 'm.py', text: code, lines: new Set([1]) }])).get('m.py');
  t.true(Array.isArray(result));
  const lt = (result as { original: string; replacement: string }[]).find((s) => s.replacement === '<=');
  t.is(lt?.original, '<');
});

test('a file Python cannot parse is reported for that file only', async (t) => {
  const result = await pythonSites(PY, [
    { path: 'bad.py', text: 'def (:\n', lines: new Set([1]) },
    { path: 'ok.py', text: 'x = 1 + 2\n', lines: new Set([1]) },
  ]);
  t.true(result.get('bad.py') instanceof EngineParseError);
  t.true(Array.isArray(result.get('ok.py')));
});

test('a missing interpreter is an engine failure', async (t) => {
  await t.throwsAsync(pythonSites('/nonexistent/python3', [{ path: 'a.py', text: 'x = 1\n', lines: new Set([1]) }]), {
    message: /python engine/,
  });
});
