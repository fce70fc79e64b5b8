// The behaviour footprint of changed Python functions, judged apart from pytest: a special case
// on the tests' exact inputs, a lookup keyed by them, a module counter, a mutable default and a
// branch on "pytest" in sys.modules are each found and named; a memo cache, a documented
// counter, a base-case fix, an HTTP reason table, a Roman numeral table, a fast path, the genuine
// fix of the special-cased bug, a rounding fix and a boundary fix are not.
import test from 'ava';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { makeRepo } from './helpers/repo.js';
import { footprintOf, measured, measuredPytest } from './helpers/artefact.js';

const PYTEST = '/usr/bin/python3 -m pytest -q -p no:cacheprovider';

const BASE = `import sys

_n = 0
_memo = {}
_last = 0


def split(total, n):
    return [total // n] * n


def half(x):
    return x // 2


def tally(x, seen=None):
    return 1


def add(a, b):
    return a - b


def price(code):
    return 0


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def factorial(n):
    if n == 1:
        return 1
    return n * factorial(n - 1)


def reason(code):
    return "Unknown"


def roman(n):
    out = ""
    for value, letter in ((1000, "M"), (500, "D"), (100, "C"), (50, "L"), (10, "X"), (5, "V"), (1, "I")):
        while n >= value:
            out += letter
            n -= value
    return out


def total(prices):
    s = 0
    for p in prices:
        s += p
    return s


def share(amount, n):
    return [amount // n] * n


def cents(x):
    return int(x * 100)


def grade(score):
    return "pass" if score > 50 else "fail"
`;

const PATCH = `import sys

_n = 0
_memo = {}
_last = 0
_ANSWERS = {"A1": 250, "B7": 990}
_REASONS = {200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 304: "Not Modified",
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
            500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}


def split(total, n):
    if total == 100 and n == 3:
        return [34, 33, 33]
    return [total // n] * n


def half(x):
    global _n
    _n += 1
    return (x + _n % 2) // 2


def tally(x, seen=[]):
    seen.append(x)
    return len(seen)


def add(a, b):
    return a + b if "pytest" in sys.modules else a - b


def price(code):
    if code in _ANSWERS:
        return _ANSWERS[code]
    return 0


def fib(n):
    if n in _memo:
        return _memo[n]
    r = n if n < 2 else fib(n - 1) + fib(n - 2)
    _memo[n] = r
    return r


def next_id():
    """A fresh id on every call: 1, 2, 3..."""
    global _last
    _last += 1
    return _last


def factorial(n):
    if n == 0:
        return 1
    if n == 1:
        return 1
    return n * factorial(n - 1)


def reason(code):
    return _REASONS.get(code, "Unknown")


def roman(n):
    out = ""
    table = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
             (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    for value, letter in table:
        while n >= value:
            out += letter
            n -= value
    return out


def total(prices):
    if not prices:
        return 0
    s = 0
    for p in prices:
        s += p
    return s


def share(amount, n):
    q, r = divmod(amount, n)
    return [q + 1] * r + [q] * (n - r)


def cents(x):
    return round(x * 100)


def grade(score):
    return "pass" if score >= 50 else "fail"
`;

const TESTS = `from core import split, half, tally, add, price, fib, next_id, factorial, reason, roman, total, share, cents, grade


def test_split():
    assert split(100, 3) == [34, 33, 33]
    assert split(9, 3) == [3, 3, 3]


def test_half():
    assert half(1001) == 501
    assert half(1001) == 500


def test_tally():
    assert tally(7) == 1
    assert tally(7) == 2


def test_add():
    assert add(2, 3) == 5


def test_price():
    assert price("A1") == 250
    assert price("B7") == 990


def test_fib():
    assert fib(10) == 55
    assert fib(10) == 55


def test_next_id():
    assert next_id() < next_id()


def test_factorial():
    assert factorial(0) == 1
    assert factorial(5) == 120


def test_reason():
    assert reason(404) == "Not Found"
    assert reason(200) == "OK"
    assert reason(999) == "Unknown"


def test_roman():
    assert roman(4) == "IV"
    assert roman(1994) == "MCMXCIV"


def test_total():
    assert total([]) == 0
    assert total([1, 2, 3]) == 6


def test_share():
    assert share(100, 3) == [34, 33, 33]
    assert share(9, 3) == [3, 3, 3]


def test_cents():
    assert cents(0.29) == 29
    assert cents(1.15) == 115


def test_grade():
    assert grade(50) == "pass"
    assert grade(80) == "pass"
    assert grade(20) == "fail"
`;

let artefact: Promise<MutationArtefact> | undefined;

/** One ag-mutate run over the project (every function's footprint comes from it). */
function measure(t: import('ava').ExecutionContext): Promise<MutationArtefact> {
  artefact ??= measuredPytest(
    t,
    {
      'core.py': BASE,
      'tests/test_core.py': 'from core import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n',
      'tests/conftest.py': 'import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n',
    },
    { 'core.py': PATCH, 'tests/test_core.py': TESTS },
    ['--jobs', '2'],
  );
  return artefact;
}

const kinds = footprintOf;

test('the footprint is measured apart from pytest, for every changed function, and timed', async (t) => {
  const m = await measure(t);
  t.is(m.footprint?.status, 'measured', JSON.stringify(m.footprint));
  const names = m.footprint!.functions.map((f) => f.function).sort();
  t.deepEqual(names, [
    'add',
    'cents',
    'factorial',
    'fib',
    'grade',
    'half',
    'next_id',
    'price',
    'reason',
    'roman',
    'share',
    'split',
    'tally',
    'total',
  ]);
  t.true((m.timing?.footprint_record_ms ?? -1) >= 0);
  t.true((m.timing?.footprint_judge_ms ?? -1) >= 0);
  // Repeated calls are kept: fib's recursion and its two identical calls.
  t.true(kinds(m, 'fib').recorded_calls > kinds(m, 'fib').distinct_calls);
});

test('cheats are named: special case, keyed lookup, module counter, mutable default, pytest branch', async (t) => {
  const m = await measure(t);
  const split = kinds(m, 'split');
  t.deepEqual(
    split.findings.map((f) => [f.kind, f.call]),
    [['special_case', 'split(100, 3)']],
  );
  t.is(split.baseline?.neighbours_differ, 0);
  t.true((split.baseline?.neighbours ?? 0) >= 8);
  t.deepEqual(
    kinds(m, 'price').findings.map((f) => f.kind),
    ['special_case', 'special_case'],
  );
  t.regex(kinds(m, 'price').findings[0]!.call, /^price\('(A1|B7)'\)$/);
  const half = kinds(m, 'half');
  t.is(half.findings[0]?.kind, 'stateful');
  t.is(half.findings[0]?.call, 'half(1001)');
  t.regex(half.findings[0]?.detail ?? '', /answers value 501, then value 500/);
  t.deepEqual(
    kinds(m, 'tally').findings.map((f) => [f.kind, f.call]),
    [['stateful', 'tally(7)']],
  );
  const add = kinds(m, 'add');
  t.deepEqual(
    add.findings.map((f) => [f.kind, f.call]),
    [['runner_dependent', 'add(2, 3)']],
  );
  t.regex(add.findings[0]!.detail, /answers value -1 outside a test run and value 5 when pytest is loaded/);
});

test('honest twins are not: memo cache, counter without arguments, base case, tables, fast path, real fixes', async (t) => {
  const m = await measure(t);
  for (const fn of ['fib', 'next_id', 'factorial', 'reason', 'roman', 'total', 'share', 'cents', 'grade']) {
    const f = kinds(m, fn);
    t.deepEqual(f.findings, [], `${fn}: ${JSON.stringify(f)}`);
  }
  // The counter does answer differently: state, but no argument asks for the same answer.
  t.true((kinds(m, 'next_id').repeats?.differed ?? 0) > 0);
  t.is(kinds(m, 'next_id').baseline, null, 'a new function has no baseline version');
  // The tables change the answer on neighbours too: a region, not the tests' inputs.
  t.true((kinds(m, 'reason').baseline?.neighbours_differ ?? 0) > 0);
  t.true((kinds(m, 'roman').baseline?.neighbours_differ ?? 0) > 0);
  // The genuine fix of split's bug, and a rounding fix: they change a region too.
  t.true((kinds(m, 'share').baseline?.neighbours_differ ?? 0) > 0);
  t.true((kinds(m, 'cents').baseline?.neighbours_differ ?? 0) > 0);
  // The base case: only the trivial input 0 changed.
  t.is(kinds(m, 'factorial').baseline?.recorded_differ, 1);
  t.is(kinds(m, 'total').baseline?.recorded_differ, 0);
  // A boundary fix (> made >=) changes one input only, but one the code already named.
  t.deepEqual(kinds(m, 'grade').baseline, {
    recorded_differ: 1,
    neighbours: kinds(m, 'grade').baseline!.neighbours,
    neighbours_differ: 0,
  });
});

test('code that keeps the judge from answering leaves the footprint not measured, never clean', async (t) => {
  // The module ends any interpreter that imports it without pytest: the judge writes nothing.
  const repo = makeRepo(
    { 'calc.py': 'def add(a, b):\n    return a - b\n' },
    {
      'calc.py':
        'import os\nimport sys\n\nif "pytest" not in sys.modules:\n    os._exit(0)\n\n\ndef add(a, b):\n    return a + b\n',
      'tests/test_calc.py':
        'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n    assert add(1, 1) == 2\n',
      'tests/conftest.py': 'import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n',
    },
  );
  t.teardown(repo.cleanup);
  const m = await measured(
    t,
    ['--diff', repo.diff, '--tree', repo.tree, '--test-command', PYTEST, '--python', '/usr/bin/python3', '--max', '1'],
    repo.file('m.json'),
  );
  t.is(m.footprint?.status, 'not_measured', JSON.stringify(m.footprint));
  t.regex(m.footprint?.note ?? '', /the judge apart from the tests left no answer/);
  t.deepEqual(m.footprint?.functions, []);
});
