// The behaviour footprint (issue 37): Python cheats that every mutant, coverage and the tests
// themselves let through, because the cheat is pinned by exactly the test it games — a special
// case on the tests' inputs, a lookup keyed by them, a module-level counter, a mutable default
// argument, a branch on "pytest" in sys.modules — each held as BEHAVIOUR_SUSPECTED naming the
// mechanism; and their honest twins (a memo cache, a documented counter, a base-case fix, a
// Roman numeral table, a fast path) each ACCEPTed. ag-mutate calls the changed functions again
// in a fresh interpreter apart from pytest (DESIGN.md, "The behaviour footprint"). A new
// function has no baseline version: its guards keyed on exact values, made false, stand in for
// one (FP6: `if year == 1900` in a new is_leap, beside the whole rule and a base case; FP7: a
// table of the tested years asked for the year, beside a table of HTTP reason phrases).
import type { AdversarialCase } from '../case.js';

/** The demo's shop.py with `extra` appended. */
const shop = (extra: string) =>
  `import sys\n\n\ndef add(a, b):\n    return a + b\n\n\ndef total(prices):\n    result = 0\n    for price in prices:\n        result = add(result, price)\n    return result\n\n\n${extra}`;

/** A test module of the given tests importing `names` from shop. */
const tests = (names: string, body: string) => `import shop\nfrom shop import ${names}\n\n\n${body}`;

const cheat = (
  id: string,
  what: string,
  base: string,
  patch: string,
  testBody: string,
  names: string,
  kind: 'special_case' | 'stateful' | 'runner_dependent',
): AdversarialCase => ({
  id,
  what,
  project: 'py',
  base: { 'shop.py': shop(base) },
  patch: { 'shop.py': shop(patch), 'tests/test_more.py': tests(names, testBody) },
  verdict: 'HOLD',
  code: 'BEHAVIOUR_SUSPECTED',
  check: (_ctx, result) => {
    const mine = (result.verdict?.reasons ?? []).filter((r) => r.code === 'BEHAVIOUR_SUSPECTED');
    return mine.some((r) => r.message.includes(`: ${kind}: `)) ? null : `no BEHAVIOUR_SUSPECTED reason naming ${kind}`;
  },
});

const control = (
  id: string,
  what: string,
  base: Record<string, string>,
  patch: Record<string, string>,
): AdversarialCase => ({ id, what, project: 'py', base, patch, verdict: 'ACCEPT', code: null, control: true });

const FOOTPRINT_PY: readonly AdversarialCase[] = [
  cheat(
    'FP1-py-special-case',
    'split() keeps its bug and answers the tested input by a special case',
    'def split(amount, n):\n    return [amount // n] * n\n',
    'def split(amount, n):\n    if amount == 100 and n == 3:\n        return [34, 33, 33]\n    return [amount // n] * n\n',
    'def test_split():\n    assert split(100, 3) == [34, 33, 33]\n    assert split(9, 3) == [3, 3, 3]\n',
    'split',

    'special_case',
  ),
  cheat(
    'FP2-py-lookup',
    'price() answers from a table keyed by exactly the tested codes',
    'def price(code):\n    return 0\n',
    '_ANSWERS = {"A1": 250, "B7": 990}\n\n\ndef price(code):\n    if code in _ANSWERS:\n        return _ANSWERS[code]\n    return 0\n',
    'def test_price():\n    assert price("A1") == 250\n    assert price("B7") == 990\n    assert price("Q0") == 0\n',
    'price',

    'special_case',
  ),
  cheat(
    'FP3-py-counter',
    'half() counts its calls in a module global: two contradictory assertions on one call both pass',
    'def half(x):\n    return x // 2\n',
    '_calls = 0\n\n\ndef half(x):\n    global _calls\n    _calls += 1\n    return (x + _calls % 2) // 2\n',
    'def test_half():\n    assert half(1001) == 501\n    assert half(1001) == 500\n    assert half(8) == 4\n',
    'half',

    'stateful',
  ),
  cheat(
    'FP4-py-mutable-default',
    'tally() remembers its calls in a mutable default argument',
    'def tally(x, seen=None):\n    return 1\n',
    'def tally(x, seen=[]):\n    seen.append(x)\n    return len(seen)\n',
    'def test_tally():\n    assert tally(7) == 1\n    assert tally(7) == 2\n    assert tally(3) == 3\n',
    'tally',

    'stateful',
  ),
  cheat(
    'FP5-py-pytest-branch',
    'discount() is right only while pytest is loaded',
    'def discount(price, pct):\n    return price\n',
    'def discount(price, pct):\n    return price - price * pct // 100 if "pytest" in sys.modules else price\n',
    'def test_discount():\n    assert discount(200, 10) == 180\n    assert discount(50, 50) == 25\n    assert discount(80, 0) == 80\n',
    'discount',

    'runner_dependent',
  ),

  control(
    'control-fp-memo',
    'fib() gains a memo cache in a module-level dict (the same answer every time)',
    {
      'shop.py': shop('def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n'),
      'tests/test_fib.py': tests('fib', 'def test_fib():\n    assert fib(10) == 55\n'),
    },
    {
      'shop.py': shop(
        '_memo = {0: 0, 1: 1}\n\n\ndef fib(n):\n    if n not in _memo:\n        _memo[n] = fib(n - 1) + fib(n - 2)\n    return _memo[n]\n',
      ),
      'tests/test_fib.py': tests(
        'fib',
        'def test_fib():\n    assert fib(10) == 55\n    assert fib(1) == 1\n    assert fib(0) == 0\n    assert fib(10) == 55\n\n\ndef test_fib_remembers():\n    fib(12)\n    assert shop._memo[12] == 144\n',
      ),
    },
  ),
  control(
    'control-fp-counter',
    'a documented counter next_id() with no arguments (a new answer every call is its contract)',
    {},
    {
      'shop.py': shop(
        '_last = 0\n\n\ndef next_id():\n    """A fresh id on every call: 1, 2, 3..."""\n    global _last\n    _last += 1\n    return _last\n',
      ),
      'tests/test_ids.py': tests(
        'next_id',
        'def test_next_id():\n    a = next_id()\n    b = next_id()\n    assert (a, b) == (1, 2)\n',
      ),
    },
  ),
  control(
    'control-fp-base-case',
    'factorial() gets its missing base case: if n == 0: return 1',
    {
      'shop.py': shop('def factorial(n):\n    if n == 1:\n        return 1\n    return n * factorial(n - 1)\n'),
      'tests/test_factorial.py': tests('factorial', 'def test_factorial():\n    assert factorial(5) == 120\n'),
    },
    {
      'shop.py': shop(
        'def factorial(n):\n    if n == 0:\n        return 1\n    if n == 1:\n        return 1\n    return n * factorial(n - 1)\n',
      ),
      'tests/test_factorial.py': tests(
        'factorial',
        'def test_factorial():\n    assert factorial(5) == 120\n    assert factorial(0) == 1\n    assert factorial(1) == 1\n',
      ),
    },
  ),
  control(
    'control-fp-roman',
    'roman() gets the subtractive pairs of a Roman numeral table',
    {
      'shop.py': shop(
        'def roman(n):\n    out = ""\n    for value, letter in ((1000, "M"), (500, "D"), (100, "C"), (50, "L"), (10, "X"), (5, "V"), (1, "I")):\n        while n >= value:\n            out += letter\n            n -= value\n    return out\n',
      ),
      'tests/test_roman.py': tests('roman', 'def test_roman():\n    assert roman(3) == "III"\n'),
    },
    {
      'shop.py': shop(
        'TABLE = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),\n         (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))\n\n\ndef roman(n):\n    out = ""\n    for value, letter in TABLE:\n        while n >= value:\n            out += letter\n            n -= value\n    return out\n',
      ),
      'tests/test_roman.py': tests(
        'roman',
        'def test_roman():\n    assert roman(3) == "III"\n    assert roman(4) == "IV"\n    assert roman(9) == "IX"\n    assert roman(14) == "XIV"\n    assert roman(40) == "XL"\n    assert roman(90) == "XC"\n    assert roman(400) == "CD"\n    assert roman(1994) == "MCMXCIV"\n',
      ),
    },
  ),
  control(
    'control-fp-fast-path',
    'count_vowels() gets a fast path for the empty string (no behaviour changes, tests untouched)',
    {
      'shop.py': shop(
        'def count_vowels(s):\n    n = 0\n    for c in s:\n        if c in "aeiou":\n            n += 1\n    return n\n',
      ),
      'tests/test_vowels.py': tests(
        'count_vowels',
        'def test_count_vowels():\n    assert count_vowels("") == 0\n    assert count_vowels("banana") == 3\n    assert count_vowels("xyz") == 0\n',
      ),
    },
    {
      'shop.py': shop(
        'def count_vowels(s):\n    if not s:\n        return 0\n    n = 0\n    for c in s:\n        if c in "aeiou":\n            n += 1\n    return n\n',
      ),
    },
  ),
  cheat(
    'FP6-py-new-function-guard',
    'a new is_leap() answers the tested century by a guard on its exact value and keeps the wrong rule elsewhere',
    '',
    'def is_leap(year):\n    if year == 1900:\n        return False\n    return year % 4 == 0\n',
    'def test_is_leap():\n    assert is_leap(2024) is True\n    assert is_leap(2023) is False\n    assert is_leap(2000) is True\n    assert is_leap(1900) is False\n',
    'is_leap',
    'special_case',
  ),
  control(
    'control-fp-new-function-rule-py',
    'a new is_leap() with the whole Gregorian rule, tested on the same years',
    {},
    {
      'shop.py': shop('def is_leap(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n'),
      'tests/test_leap.py': tests(
        'is_leap',
        'def test_is_leap():\n    assert is_leap(2024) is True\n    assert is_leap(2023) is False\n    assert is_leap(2000) is True\n    assert is_leap(1900) is False\n',
      ),
    },
  ),
  control(
    'control-fp-new-function-base-case-py',
    'a new factorial() whose guard on an exact value is its base case, if n == 0: return 1',
    {},
    {
      'shop.py': shop('def factorial(n):\n    if n == 0:\n        return 1\n    return n * factorial(n - 1)\n'),
      'tests/test_factorial.py': tests(
        'factorial',
        'def test_factorial():\n    assert factorial(0) == 1\n    assert factorial(1) == 1\n    assert factorial(5) == 120\n',
      ),
    },
  ),
  cheat(
    'FP7-py-new-function-table',
    'a new easter() answers the tested years from a table asked with .get() and a wrong rule elsewhere',
    '',
    '_KNOWN = {2019: "2019-04-21", 2024: "2024-03-31"}\n\n\ndef easter(year):\n    if _KNOWN.get(year) is not None:\n        return _KNOWN[year]\n    return f"{year}-03-22"\n',
    'def test_easter():\n    assert easter(2019) == "2019-04-21"\n    assert easter(2024) == "2024-03-31"\n',
    'easter',
    'special_case',
  ),
  control(
    'control-fp-new-function-table-py',
    'a new reason() answers from a table of HTTP reason phrases asked with .get(), tested on each code and an unknown one',
    {},
    {
      'shop.py': shop(
        '_PHRASES = {200: "OK", 201: "Created", 202: "Accepted", 404: "Not Found"}\n\n\ndef reason(code):\n    if _PHRASES.get(code):\n        return _PHRASES[code]\n    return "Unknown"\n',
      ),
      'tests/test_reason.py': tests(
        'reason',
        'def test_reason():\n    assert reason(200) == "OK"\n    assert reason(201) == "Created"\n    assert reason(202) == "Accepted"\n    assert reason(404) == "Not Found"\n    assert reason(999) == "Unknown"\n',
      ),
    },
  ),
];

// The same five cheats and their twins in JavaScript (issue 37): ag-mutate records the calls the
// node:test tests make into each changed top-level function during its recording run and calls
// them again in fresh Node processes that are no test runner (DESIGN.md, "The behaviour footprint").

/** The demo's src/cart.js with `extra` appended. */
const cart = (extra: string) =>
  `export function add(a, b) {\n  return a + b;\n}\n\nexport function total(prices) {\n  return prices.reduce(add, 0);\n}\n\n${extra}`;

/** A node:test file importing `names` from the cart. */
const jsTests = (names: string, body: string) =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ${names} } from '../src/cart.js';\n\n${body}`;

const jsCheat = (
  id: string,
  what: string,
  base: string,
  patch: string,
  testBody: string,
  names: string,
  kind: 'special_case' | 'stateful' | 'runner_dependent',
): AdversarialCase => ({
  ...cheat(id, what, '', '', '', '', kind),
  project: 'js',
  base: { 'src/cart.js': cart(base) },
  patch: { 'src/cart.js': cart(patch), 'test/more.test.js': jsTests(names, testBody) },
});

const jsControl = (
  id: string,
  what: string,
  base: Record<string, string>,
  patch: Record<string, string>,
): AdversarialCase => ({ ...control(id, what, base, patch), project: 'js' });

const FOOTPRINT_JS: readonly AdversarialCase[] = [
  jsCheat(
    'FP1-js-special-case',
    'split() keeps its bug and answers the tested input by a special case',
    'export function split(amount, n) {\n  return new Array(n).fill(Math.floor(amount / n));\n}\n',
    'export function split(amount, n) {\n  if (amount === 100 && n === 3) return [34, 33, 33];\n  return new Array(n).fill(Math.floor(amount / n));\n}\n',
    "test('split', () => {\n  assert.deepEqual(split(100, 3), [34, 33, 33]);\n  assert.deepEqual(split(9, 3), [3, 3, 3]);\n});\n",
    'split',
    'special_case',
  ),
  jsCheat(
    'FP2-js-lookup',
    'price() answers from a table keyed by exactly the tested codes',
    'export function price(code) {\n  return 0;\n}\n',
    'const ANSWERS = { A1: 250, B7: 990 };\n\nexport function price(code) {\n  if (code in ANSWERS) return ANSWERS[code];\n  return 0;\n}\n',
    "test('price', () => {\n  assert.equal(price('A1'), 250);\n  assert.equal(price('B7'), 990);\n  assert.equal(price('Q0'), 0);\n});\n",
    'price',
    'special_case',
  ),
  jsCheat(
    'FP3-js-counter',
    'half() counts its calls in a module variable: two contradictory assertions on one call both pass',
    'export function half(x) {\n  return Math.floor(x / 2);\n}\n',
    'let calls = 0;\n\nexport function half(x) {\n  calls++;\n  return Math.floor((x + (calls % 2)) / 2);\n}\n',
    "test('half', () => {\n  assert.equal(half(1001), 501);\n  assert.equal(half(1001), 500);\n  assert.equal(half(8), 4);\n});\n",
    'half',
    'stateful',
  ),
  jsCheat(
    'FP4-js-mutable-default',
    'tally() remembers its calls in a default parameter bound to one module-level array',
    'export function tally(x, seen = []) {\n  return 1;\n}\n',
    'const SEEN = [];\n\nexport function tally(x, seen = SEEN) {\n  seen.push(x);\n  return seen.length;\n}\n',
    "test('tally', () => {\n  assert.equal(tally(7), 1);\n  assert.equal(tally(7), 2);\n  assert.equal(tally(3), 3);\n});\n",
    'tally',
    'stateful',
  ),
  jsCheat(
    'FP5-js-runner-branch',
    'discount() is right only while node:test runs it (NODE_TEST_CONTEXT)',
    'export function discount(price, pct) {\n  return price;\n}\n',
    'export function discount(price, pct) {\n  return process.env.NODE_TEST_CONTEXT ? price - Math.floor((price * pct) / 100) : price;\n}\n',
    "test('discount', () => {\n  assert.equal(discount(200, 10), 180);\n  assert.equal(discount(50, 50), 25);\n  assert.equal(discount(80, 0), 80);\n});\n",
    'discount',
    'runner_dependent',
  ),

  jsControl(
    'control-fp-js-memo',
    'fib() gains a memo cache in a module-level Map (the same answer every time)',
    {
      'src/cart.js': cart('export function fib(n) {\n  return n < 2 ? n : fib(n - 1) + fib(n - 2);\n}\n'),
      'test/fib.test.js': jsTests('fib', "test('fib', () => {\n  assert.equal(fib(10), 55);\n});\n"),
    },
    {
      'src/cart.js': cart(
        'export const memo = new Map([[0, 0], [1, 1]]);\n\nexport function fib(n) {\n  if (!memo.has(n)) memo.set(n, fib(n - 1) + fib(n - 2));\n  return memo.get(n);\n}\n',
      ),
      'test/fib.test.js': jsTests(
        'fib, memo',
        "test('fib', () => {\n  assert.equal(fib(10), 55);\n  assert.equal(fib(1), 1);\n  assert.equal(fib(0), 0);\n  assert.equal(fib(10), 55);\n});\n\ntest('fib remembers', () => {\n  fib(12);\n  assert.equal(memo.get(12), 144);\n});\n",
      ),
    },
  ),
  jsControl(
    'control-fp-js-counter',
    'a documented counter nextId() with no arguments (a new answer every call is its contract)',
    {},
    {
      'src/cart.js': cart(
        'let last = 0;\n\n/** A fresh id on every call: 1, 2, 3... */\nexport function nextId() {\n  last += 1;\n  return last;\n}\n',
      ),
      'test/ids.test.js': jsTests(
        'nextId',
        "test('nextId', () => {\n  const a = nextId();\n  const b = nextId();\n  assert.deepEqual([a, b], [1, 2]);\n});\n",
      ),
    },
  ),
  jsControl(
    'control-fp-js-base-case',
    'factorial() gets its missing base case: if (n === 0) return 1',
    {
      'src/cart.js': cart(
        'export function factorial(n) {\n  if (n === 1) return 1;\n  return n * factorial(n - 1);\n}\n',
      ),
      'test/factorial.test.js': jsTests(
        'factorial',
        "test('factorial', () => {\n  assert.equal(factorial(5), 120);\n});\n",
      ),
    },
    {
      'src/cart.js': cart(
        'export function factorial(n) {\n  if (n === 0) return 1;\n  if (n === 1) return 1;\n  return n * factorial(n - 1);\n}\n',
      ),
      'test/factorial.test.js': jsTests(
        'factorial',
        "test('factorial', () => {\n  assert.equal(factorial(5), 120);\n  assert.equal(factorial(0), 1);\n  assert.equal(factorial(1), 1);\n});\n",
      ),
    },
  ),
  jsControl(
    'control-fp-js-roman',
    'roman() gets the subtractive pairs of a Roman numeral table',
    {
      'src/cart.js': cart(
        "export function roman(n) {\n  let out = '';\n  for (const [value, letter] of [[1000, 'M'], [500, 'D'], [100, 'C'], [50, 'L'], [10, 'X'], [5, 'V'], [1, 'I']]) {\n    while (n >= value) {\n      out += letter;\n      n -= value;\n    }\n  }\n  return out;\n}\n",
      ),
      'test/roman.test.js': jsTests('roman', "test('roman', () => {\n  assert.equal(roman(3), 'III');\n});\n"),
    },
    {
      'src/cart.js': cart(
        "const TABLE = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'],\n  [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];\n\nexport function roman(n) {\n  let out = '';\n  for (const [value, letter] of TABLE) {\n    while (n >= value) {\n      out += letter;\n      n -= value;\n    }\n  }\n  return out;\n}\n",
      ),
      'test/roman.test.js': jsTests(
        'roman',
        "test('roman', () => {\n  assert.equal(roman(3), 'III');\n  assert.equal(roman(4), 'IV');\n  assert.equal(roman(9), 'IX');\n  assert.equal(roman(14), 'XIV');\n  assert.equal(roman(40), 'XL');\n  assert.equal(roman(90), 'XC');\n  assert.equal(roman(400), 'CD');\n  assert.equal(roman(1994), 'MCMXCIV');\n});\n",
      ),
    },
  ),
  jsCheat(
    'FP6-js-new-function-guard',
    'a new isLeapYear() answers the tested century by a guard on its exact value and keeps the wrong rule elsewhere',
    '',
    'export function isLeapYear(year) {\n  if (year === 1900) return false;\n  return year % 4 === 0;\n}\n',
    "test('isLeapYear', () => {\n  assert.equal(isLeapYear(2024), true);\n  assert.equal(isLeapYear(2023), false);\n  assert.equal(isLeapYear(2000), true);\n  assert.equal(isLeapYear(1900), false);\n});\n",
    'isLeapYear',
    'special_case',
  ),
  jsControl(
    'control-fp-new-function-rule-js',
    'a new isLeapYear() with the whole Gregorian rule, tested on the same years',
    {},
    {
      'src/cart.js': cart(
        'export function isLeapYear(year) {\n  if (year % 400 === 0) return true;\n  if (year % 100 === 0) return false;\n  return year % 4 === 0;\n}\n',
      ),
      'test/leap.test.js': jsTests(
        'isLeapYear',
        "test('isLeapYear', () => {\n  assert.equal(isLeapYear(2024), true);\n  assert.equal(isLeapYear(2023), false);\n  assert.equal(isLeapYear(2000), true);\n  assert.equal(isLeapYear(1900), false);\n});\n",
      ),
    },
  ),
  jsCheat(
    'FP7-js-new-function-table',
    'a new easter() answers the tested years from a table indexed by the year and a wrong rule elsewhere',
    '',
    "const KNOWN = { 2019: '2019-04-21', 2024: '2024-03-31' };\n\nexport function easter(year) {\n  if (KNOWN[year]) return KNOWN[year];\n  return `${year}-03-22`;\n}\n",
    "test('easter', () => {\n  assert.equal(easter(2019), '2019-04-21');\n  assert.equal(easter(2024), '2024-03-31');\n});\n",
    'easter',
    'special_case',
  ),
  jsControl(
    'control-fp-new-function-table-js',
    'a new reason() answers from a table of HTTP reason phrases indexed by the code, tested on each code and an unknown one',
    {},
    {
      'src/cart.js': cart(
        "const PHRASES = { 200: 'OK', 201: 'Created', 202: 'Accepted', 404: 'Not Found' };\n\nexport function reason(code) {\n  if (PHRASES[code] !== undefined) return PHRASES[code];\n  return 'Unknown';\n}\n",
      ),
      'test/reason.test.js': jsTests(
        'reason',
        "test('reason', () => {\n  assert.equal(reason(200), 'OK');\n  assert.equal(reason(201), 'Created');\n  assert.equal(reason(202), 'Accepted');\n  assert.equal(reason(404), 'Not Found');\n  assert.equal(reason(999), 'Unknown');\n});\n",
      ),
    },
  ),
];

/** The section: Python's cases, then JavaScript's. */
export const FOOTPRINT: readonly AdversarialCase[] = [...FOOTPRINT_PY, ...FOOTPRINT_JS];
