// The differential check of Python survivors: a mutant that only switches off a fast path
// (the same answer either way) is `equivalent` and counts neither way; a survivor that a
// call near the tests' own tells apart (a boundary), that drops a side effect on the module
// or on an argument, or whose function the tests call too seldom, stays a survivor, with
// the evidence beside it; a memo only its function names and reads is judged by that
// function's answers alone. The check runs apart from pytest: a branch on "pytest" in
// sys.modules cannot make a survivor look equivalent.
import test from 'ava';
import { strengthOfMutants } from '@adversary-gate/core';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { makeRepo, type Files } from './helpers/repo.js';
import { measured } from './helpers/artefact.js';

const PYTEST = '/usr/bin/python3 -m pytest -q -p no:cacheprovider';

const CORE = `import sys
from collections import deque
from decimal import Decimal
from collections.abc import Sequence

_marker = object()
_log = []


def last(iterable, default=_marker):
    try:
        if isinstance(iterable, Sequence):
            return iterable[-1]
        if getattr(iterable, "__reversed__", None):
            return next(reversed(iterable))
        return deque(iterable, maxlen=1)[-1]
    except (IndexError, TypeError, StopIteration):
        if default is _marker:
            raise ValueError("empty")
        return default


def clamp(x, hi):
    if x > 10:
        return hi
    return x


def record(x):
    _log.append(x)
    return x * 2


class Cart:
    def __init__(self):
        self.items = []

    def add(self, x):
        self.items.append(x)
        return x


def once(x):
    return x - 1


def scaled(x):
    return x * 3 if "pytest" in sys.modules else x * 2


def fee(subtotal, free_from):
    return Decimal("0.00") if subtotal >= free_from else Decimal("4.99")


_squares = {}


def square(x):
    if x in _squares:
        return _squares[x]
    _squares.update({x: x * x})
    return x * x
`;

const TESTS = `from decimal import Decimal

from core import last, clamp, record, Cart, once, scaled, square, fee


def test_last():
    assert last([1, 2, 3]) == 3
    assert last((4, 5)) == 5
    assert last(iter([7, 8])) == 8
    assert last({"a": 1, "b": 2}) == "b"
    assert last([], 0) == 0
    assert last(range(3)) == 2


def test_clamp():
    assert clamp(20, 10) == 10
    assert clamp(3, 10) == 3
    assert clamp(1, 5) == 1


def test_record():
    assert record(1) == 2
    assert record(2) == 4
    assert record(5) == 10


def test_cart():
    c = Cart()
    assert c.add(1) == 1
    assert c.add(2) == 2
    assert c.add(3) == 3


def test_once():
    assert isinstance(once(3), int)


def test_scaled():
    assert scaled(1) == 3
    assert scaled(2) == 6
    assert scaled(5) == 15


def test_fee():
    assert fee(Decimal("30.00"), Decimal("50.00")) == Decimal("4.99")
    assert fee(Decimal("80.00"), Decimal("50.00")) == Decimal("0.00")
    assert fee(Decimal("100.00"), Decimal("150.00")) == Decimal("4.99")
    assert fee(Decimal("200.00"), Decimal("150.00")) == Decimal("0.00")


def test_square():
    assert square(3) == 9
    assert square(3) == 9
    assert square(4) == 16
    assert square(-2) == 4
`;

const FILES: Files = {
  'core.py': CORE,
  'tests/test_core.py': TESTS,
  'tests/conftest.py': 'import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n',
};

const at = (m: MutationArtefact, original: string, replacement: string) => {
  const x = m.mutants.find((y) => y.original === original && y.replacement === replacement);
  if (x === undefined)
    throw new Error(
      `no mutant ${original} -> ${replacement}: ${m.mutants.map((y) => `${y.original}->${y.replacement}`).join(' | ')}`,
    );
  return x;
};

/** ag-mutate on the project, with pytest and the given extra flags. */
async function measure(t: import('ava').ExecutionContext, extra: string[]): Promise<MutationArtefact> {
  const repo = makeRepo({ 'setup.cfg': '[tool:pytest]\n' }, FILES);
  t.teardown(repo.cleanup);
  const args = ['--diff', repo.diff, '--tree', repo.tree, '--test-command', PYTEST, '--python', '/usr/bin/python3'];
  return measured(t, [...args, ...extra], repo.file('m.json'));
}

test('a fast-path switch is probably equivalent; a boundary, a dropped side effect and a seldom-called function stay survivors', async (t) => {
  const m = await measure(t, ['--jobs', '2']);
  t.is(m.test_selection?.mode, 'per-test');
  // The fast path switched off: the same answer for every call the tests made and every neighbour.
  for (const replacement of ['False', '""']) {
    const x = at(
      m,
      replacement === 'False' ? 'getattr(iterable, "__reversed__", None)' : '"__reversed__"',
      replacement,
    );
    t.is(x.status, 'equivalent', JSON.stringify(x));
    t.is(x.equivalence?.verdict, 'probably_equivalent');
    t.true((x.equivalence?.recorded_calls ?? 0) >= 3);
    t.true((x.equivalence?.inputs ?? 0) > (x.equivalence?.recorded_calls ?? 0), 'neighbours were tried too');
  }
  // A boundary the tests miss: the constant's neighbour 10 tells `>=` apart.
  const boundary = at(m, '>', '>=');
  t.is(boundary.status, 'survived');
  t.is(boundary.equivalence?.verdict, 'distinguished');
  t.regex(boundary.equivalence?.note ?? '', /clamp\(10, /);
  // A side effect on the module, and one on an argument (self), are outcomes.
  t.is(at(m, '_log.append(x)', 'pass').equivalence?.verdict, 'distinguished');
  // A boundary between two Decimal arguments: varied as numbers, and met where they are equal.
  const decimal = at(m, '>=', '>');
  t.is(decimal.status, 'survived', JSON.stringify(decimal));
  t.regex(decimal.equivalence?.note ?? '', /fee\(Decimal\('(50|150)\.00'\), Decimal\('\1\.00'\)\)/);
  // But a memo only square names and reads shows in square's answers alone: not filling it changes none.
  t.is(at(m, '_squares.update({x: x * x})', 'pass').status, 'equivalent');
  t.is(at(m, 'self.items.append(x)', 'pass').equivalence?.verdict, 'distinguished');
  // One call is too few to conclude anything.
  const seldom = at(m, '-', '+');
  t.is(seldom.status, 'survived');
  t.is(seldom.equivalence?.verdict, 'inconclusive');
  // Equivalent mutants are counted apart and in no denominator.
  const c = m.counts;
  t.is(c.equivalent, m.mutants.filter((x) => x.status === 'equivalent').length);
  t.true((c.equivalent ?? 0) >= 2);
  t.is(m.suite_strength, strengthOfMutants(m.mutants.filter((x) => x.status !== 'equivalent')));
  t.is(strengthOfMutants(m.mutants), m.suite_strength, 'an equivalent mutant changes nothing');
  // A branch the tests never take, because pytest is loaded: judged apart from pytest, its
  // mutants are told apart (inside the test process they were "probably equivalent").
  const other = m.mutants.filter((x) => x.function === 'scaled' && x.status !== 'killed');
  t.true(other.length > 0, JSON.stringify(m.mutants.filter((x) => x.function === 'scaled')));
  for (const x of other) {
    t.is(x.status, 'survived', JSON.stringify(x));
    t.is(x.equivalence?.verdict, 'distinguished', JSON.stringify(x));
  }
  // Killed mutants are never asked.
  t.true(m.mutants.filter((x) => x.status === 'killed').every((x) => x.equivalence === undefined));
});

test('--equivalence off leaves every survivor a survivor, unasked', async (t) => {
  const m = await measure(t, ['--equivalence', 'off']);
  t.is(m.counts.equivalent, undefined);
  t.true(m.mutants.every((x) => x.equivalence === undefined));
  t.true(m.counts.survived >= 5);
});
