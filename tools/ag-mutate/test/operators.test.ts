// Operators for what real diffs change: case labels, regex literals, numeric literals,
// bitwise operators, optional chaining and statement removal, in JS and Python. For each,
// a real bug of that kind is killed by a good suite and survives a weak one.
import test from 'ava';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { makeRepo, type Files } from './helpers/repo.js';
import { measured } from './helpers/artefact.js';

const PKG: Files = { 'package.json': '{"type":"module"}\n' };
const PYTEST = '/usr/bin/python3 -m pytest -q -p no:cacheprovider';

const JS = `export function kind(c) {
  switch (c) {
    case 0x09:
    case 0x20:
      return 'space';
    default:
      return 'other';
  }
}
export const isWord = (s) => /^[a-z]+$/.test(s);
export const trunc = (x) => x | 0;
export const city = (user) => user?.address?.city;
export function add(list, x) {
  list.push(x);
  return list;
}
`;

const JS_GOOD = `import test from 'node:test';
import assert from 'node:assert/strict';
import { kind, isWord, trunc, city, add } from '../src/ops.js';
test('kind', () => { assert.equal(kind(9), 'space'); assert.equal(kind(32), 'space'); assert.equal(kind(10), 'other'); });
test('isWord', () => { assert.equal(isWord('abc'), true); assert.equal(isWord('1abc'), false); assert.equal(isWord('abc1'), false); assert.equal(isWord('a'), true); });
test('trunc', () => { assert.equal(trunc(2.7), 2); assert.equal(trunc(4), 4); });
test('city', () => { assert.equal(city(undefined), undefined); assert.equal(city({}), undefined); assert.equal(city({ address: { city: 'Oslo' } }), 'Oslo'); });
test('add', () => { assert.deepEqual(add([], 1), [1]); });
`;

const JS_WEAK = `import test from 'node:test';
import assert from 'node:assert/strict';
import { kind, isWord, trunc, city, add } from '../src/ops.js';
test('types', () => {
  assert.equal(typeof kind(9), 'string');
  assert.equal(typeof isWord('abc'), 'boolean');
  assert.equal(typeof trunc(2.7), 'number');
  assert.equal(city({ address: { city: 'Oslo' } }), 'Oslo');
  assert.ok(Array.isArray(add([], 1)));
});
`;

const PY = `import re


def kind(c):
    match c:
        case 9 | 32:
            return "space"
        case 10:
            return "newline"
    return "other"


WORD = re.compile(r"^[a-z]+$")


def is_word(s):
    return WORD.search(s) is not None


def low_byte(x):
    return x & 0xFF


def add(items, x):
    items.append(x)
    return items
`;

const PY_GOOD = `from ops import kind, is_word, low_byte, add


def test_kind():
    assert kind(9) == "space"
    assert kind(32) == "space"
    assert kind(10) == "newline"
    assert kind(11) == "other"


def test_is_word():
    assert is_word("abc")
    assert is_word("a")
    assert not is_word("1abc")
    assert not is_word("abc1")


def test_low_byte():
    assert low_byte(0x1FF) == 0xFF
    assert low_byte(0x100) == 0


def test_add():
    assert add([], 1) == [1]
`;

const PY_WEAK = `from ops import kind, is_word, low_byte, add


def test_types():
    assert isinstance(kind(9), str)
    assert isinstance(is_word("abc"), bool)
    assert isinstance(low_byte(3), int)
    assert isinstance(add([], 1), list)
`;

const CONFTEST = 'import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n';

/** Per operator: how many mutants were killed and how many survived. */
function byOperator(m: MutationArtefact): Map<string, { killed: number; survived: number }> {
  const out = new Map<string, { killed: number; survived: number }>();
  for (const x of m.mutants) {
    const o = out.get(x.operator) ?? { killed: 0, survived: 0 };
    out.set(x.operator, o);
    if (x.status === 'killed' || x.status === 'timeout') o.killed++;
    else if (x.status === 'survived' || x.status === 'no_coverage') o.survived++;
  }
  return out;
}

async function run(
  t: import('ava').ExecutionContext,
  files: Files,
  command: string,
  extra: string[] = [],
): Promise<MutationArtefact> {
  const repo = makeRepo(PKG, files);
  t.teardown(repo.cleanup);
  return measured(
    t,
    ['--diff', repo.diff, '--tree', repo.tree, '--test-command', command, '--jobs', '2', ...extra],
    repo.file('m.json'),
  );
}

const JS_OPERATORS = ['CaseLabel', 'Regex', 'NumberLiteral', 'BitwiseOperator', 'OptionalChaining', 'StatementRemoval'];
const PY_OPERATORS = ['CaseLabel', 'Regex', 'NumberLiteral', 'BitwiseOperator', 'StatementRemoval'];

test('JS: a good suite kills every case-label, regex, number, bitwise, optional-chaining and statement-removal mutant', async (t) => {
  const m = await run(t, { 'src/ops.js': JS, 'test/ops.test.js': JS_GOOD }, 'node test/ops.test.js');
  const ops = byOperator(m);
  for (const op of JS_OPERATORS) {
    t.true((ops.get(op)?.killed ?? 0) > 0, `${op}: ${JSON.stringify(ops.get(op))}`);
    t.is(
      ops.get(op)?.survived,
      0,
      `${op} survivors: ${JSON.stringify(m.mutants.filter((x) => x.operator === op && x.status === 'survived'))}`,
    );
  }
  // The new case label and the regex line are measured: no changed line is left without a mutant.
  t.deepEqual(m.unmutated_lines, []);
});

test('JS: a weak suite leaves a survivor of each of those operators', async (t) => {
  const m = await run(t, { 'src/ops.js': JS, 'test/ops.test.js': JS_WEAK }, 'node test/ops.test.js');
  const ops = byOperator(m);
  for (const op of JS_OPERATORS) t.true((ops.get(op)?.survived ?? 0) > 0, `${op}: ${JSON.stringify(ops.get(op))}`);
});

const pyFiles = (spec: string): Files => ({ 'ops.py': PY, 'tests/test_ops.py': spec, 'tests/conftest.py': CONFTEST });

test('Python: a good suite kills every case-label, regex, number, bitwise and statement-removal mutant', async (t) => {
  const m = await run(t, pyFiles(PY_GOOD), PYTEST, ['--python', '/usr/bin/python3']);
  const ops = byOperator(m);
  for (const op of PY_OPERATORS) {
    t.true((ops.get(op)?.killed ?? 0) > 0, `${op}: ${JSON.stringify(ops.get(op))}`);
    t.is(
      ops.get(op)?.survived,
      0,
      `${op} survivors: ${JSON.stringify(m.mutants.filter((x) => x.operator === op && x.status === 'survived'))}`,
    );
  }
  t.deepEqual(m.unmutated_lines, []);
});

test('Python: a weak suite leaves a survivor of each of those operators', async (t) => {
  const m = await run(t, pyFiles(PY_WEAK), PYTEST, ['--python', '/usr/bin/python3']);
  const ops = byOperator(m);
  for (const op of PY_OPERATORS) t.true((ops.get(op)?.survived ?? 0) > 0, `${op}: ${JSON.stringify(ops.get(op))}`);
});
