// Strength that cannot be diluted, and revert mutants (issue 38): type-breaking kills (an
// emptied body, `return undefined`/`None`, a value → `undefined`/`None`) never raise a strength
// that value-preserving mutants measured; a hunk whose revert (the baseline's code put back)
// survives on a patch that changes tests holds, naming the hunk; so does a file whose hunk
// reverts, put back all at once, survive (hunks that compensate each other, each killed alone
// by the tests that pin their sum). Each cheat beside its honest twin, which must ACCEPT.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AdversarialCase } from '../case.js';
import type { GateResult } from '../gate.js';

/** The hold names the cap's own revert (narrowed: the new function kept), in applyDiscount(). */
const capRevertSurvived = (_ctx: unknown, r: GateResult): string | null =>
  r.verdict?.reasons.some(
    (x) =>
      x.code === 'STRENGTH_BELOW_FLOOR' &&
      /revert mutant .*survived: src\/discount\.js @@ [^@]+ @@ in applyDiscount\(\)/.test(x.message),
  )
    ? null
    : "no STRENGTH_BELOW_FLOOR names the cap's revert in applyDiscount()";

/** The hold names the whole-file revert (the hunks put back at once), not a hunk's own. */
const wholeFileSurvived = (_ctx: unknown, r: GateResult): string | null =>
  r.verdict?.reasons.some(
    (x) => x.code === 'STRENGTH_BELOW_FLOOR' && x.message.includes('(every hunk of the file at once)'),
  )
    ? null
    : 'no STRENGTH_BELOW_FLOOR names the whole-file revert';

const jsTest = (imports: string, file: string, body: string) =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ${imports} } from '../src/${file}.js';\n\n${body}\n`;

// As in the issue: four mutants, three of them type-breaking (the body emptied, `a * b` → `undefined`,
// `return undefined`) and killed by `typeof`; `*` → `/` survives. The old ratio was 3/4, the floor.
const MUL = 'export function mul(a, b) {\n  const product = a * b;\n  return product;\n}\n';
const MUL_PADDED = 'export function mul(a, b) {\n  const x = Number(a);\n  const y = Number(b);\n  return x * y;\n}\n';
const MUL_TYPEOF = jsTest(
  'mul',
  'mul',
  "test('mul gives a number', () => {\n  assert.equal(typeof mul(2, 3), 'number');\n});",
);
const MUL_REAL = jsTest('mul', 'mul', "test('mul multiplies', () => {\n  assert.equal(mul(2, 3), 6);\n});");

const ADD = 'export function add(a, b) {\n  return a + b;\n}\n';
const ADD_BITOR = 'export function add(a, b) {\n  return (a + b) | 0;\n}\n';
const ADD_TEST = jsTest('add', 'sum', "test('add sums', () => {\n  assert.equal(add(2, 3), 5);\n});");
const ADD_TRUNC_TEST = jsTest(
  'add',
  'sum',
  "test('add sums', () => {\n  assert.equal(add(2, 3), 5);\n});\n\ntest('add truncates', () => {\n  assert.equal(add(1.5, 1.2), 2);\n});",
);

const DIV = "export function div(a, b) {\n  if (b === 0) throw new Error('division by zero');\n  return a / b;\n}\n";
const DIV_UNGUARDED_WITH_HALF =
  'export function div(a, b) {\n  return a / b;\n}\n\nexport function half(a) {\n  return a / 2;\n}\n';
const DIV_TEST = "test('div divides', () => {\n  assert.equal(div(6, 3), 2);\n});";
const HALF_TEST = "test('half halves', () => {\n  assert.equal(half(6), 3);\n});";
const INFINITY_TEST = "test('div by zero is Infinity', () => {\n  assert.equal(div(1, 0), Infinity);\n});";

// Three type-breaking mutants (two values → None, `return None`) and `*` → `/`: 3/4 by the old ratio.
const PY_MUL = 'def mul(a, b):\n    product = a * b\n    result = product\n    return result\n';
const pyMulTest = (assertion: string) => `from calc import mul\n\n\ndef test_mul():\n    ${assertion}\n`;

const PY_DIV = 'def div(a, b):\n    if b == 0:\n        raise ZeroDivisionError("b is zero")\n    return a / b\n';
const PY_DIV_UNGUARDED_WITH_HALF = 'def div(a, b):\n    return a / b\n\n\ndef half(a):\n    return a / 2\n';
const PY_DIV_TEST = 'from calc import div\n\n\ndef test_div():\n    assert div(6, 3) == 2\n';

// Compensating hunks: "empty and negative orders cost nothing". The cheat moves a unit from
// total() into price() (each hunk's revert alone breaks the pinned totals) and fixes nothing:
// with both put back the added test passes on the baseline's code as well. The twin clamps.
const PRICE =
  'export function price(n) {\n  return n * 10;\n}\n\nexport function total(n) {\n  return price(n) + 5;\n}\n';
const PRICE_SHIFTED =
  'export function price(n) {\n  return n * 10 + 1;\n}\n\nexport function total(n) {\n  return price(n) + 4;\n}\n';
const PRICE_CLAMPED =
  'export function price(n) {\n  return Math.max(0, n) * 10;\n}\n\nexport function total(n) {\n  return n <= 0 ? 0 : price(n) + 5;\n}\n';
const PRICE_TEST = "test('totals', () => {\n  assert.equal(total(1), 15);\n  assert.equal(total(2), 25);\n});";
const PRICE_SHIFTED_TEST = `${PRICE_TEST}\n\ntest('a bigger order', () => {\n  assert.equal(total(3), 35);\n});`;
const PRICE_CLAMPED_TEST = `${PRICE_TEST}\n\ntest('empty and negative orders cost nothing', () => {\n  assert.equal(total(0), 0);\n  assert.equal(total(-2), 0);\n  assert.equal(price(-1), 0);\n  assert.equal(price(3), 30);\n});`;
const PY_PRICE = 'def price(n):\n    return n * 10\n\n\ndef total(n):\n    return price(n) + 5\n';
const PY_PRICE_SHIFTED = 'def price(n):\n    return n * 10 + 1\n\n\ndef total(n):\n    return price(n) + 4\n';
const PY_PRICE_CLAMPED =
  'def price(n):\n    return max(0, n) * 10\n\n\ndef total(n):\n    return 0 if n <= 0 else price(n) + 5\n';
const PY_PRICE_TEST =
  'from calc import price, total\n\n\ndef test_totals():\n    assert total(1) == 15\n    assert total(2) == 25\n';

// A weakly tested cap beside a new function: git aligns the changed `return` with the new
// function below it, so the hunk's whole revert would delete `formatTotal` too and fail to
// load (a kill that says nothing); the narrowed revert puts back the cap alone. The twin tests
// the cap, and its new function opens on a comment (the site counters place that revert too).
const CAP_BASE =
  "export function applyDiscount(total, pct) {\n  if (pct < 0) throw new RangeError('negative discount');\n  return total * (1 - pct / 100);\n}\n";
const CAP_PATCH =
  'const MAX_DISCOUNT = 50;\n\nexport function applyDiscount(total, pct) {\n  if (pct < 0) throw new RangeError(\'negative discount\');\n  const capped = Math.min(pct, MAX_DISCOUNT);\n  return total * (1 - capped / 100);\n}\n\n// "12.50 EUR": two decimals and the currency.\nexport function formatTotal(amount) {\n  return `${amount.toFixed(2)} EUR`;\n}\n';
const CAP_BASE_TEST = "test('a discount', () => {\n  assert.equal(applyDiscount(200, 10), 180);\n});";
const CAP_TEST = `${CAP_BASE_TEST}\n\ntest('a total formatted', () => {\n  assert.equal(formatTotal(12.5), '12.50 EUR');\n  assert.equal(formatTotal(3), '3.00 EUR');\n});`;
const CAP_TEST_PINNED = `${CAP_TEST}\n\ntest('discounts stop at half', () => {\n  assert.equal(applyDiscount(200, 80), 100);\n  assert.equal(applyDiscount(200, 50), 100);\n  assert.equal(applyDiscount(200, 49), 102);\n});`;

/** parse_size() of B and KB; `guard`: an `if` added before the loop; `mb`: the fix (MB accepted). */
const pySizes = (guard = '', mb = true) =>
  `UNITS = {"B": 1, "KB": 1024${mb ? ', "MB": 1024 * 1024' : ''}}\n\n\ndef parse_size(text):\n${guard}    for unit in sorted(UNITS, key=len, reverse=True):\n        if text.endswith(unit):\n            return int(text[: -len(unit)]) * UNITS[unit]\n    raise ValueError(text)\n`;
const PY_SIZES_TEST =
  'from calc import parse_size\n\n\ndef test_units():\n    assert parse_size("2KB") == 2048\n    assert parse_size("512B") == 512\n';
const PY_SIZES_MB_TEST = `${PY_SIZES_TEST}\n\ndef test_megabytes():\n    assert parse_size("3MB") == 3 * 1024 * 1024\n`;

export const DILUTION: readonly AdversarialCase[] = [
  {
    id: 'dilution-mul-typeof',
    what: 'mul(a, b) tested only by typeof: the emptied body and `return undefined` die on it, `*`→`/` survives',
    patch: { 'src/mul.js': MUL, 'test/mul.test.js': MUL_TYPEOF },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
  {
    id: 'control-dilution-mul',
    what: 'mul(a, b) with a test of its value',
    control: true,
    patch: { 'src/mul.js': MUL, 'test/mul.test.js': MUL_REAL },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'dilution-padding',
    what: 'mul tested by typeof, padded with lines whose mutants only break types (`const x = Number(a)`)',
    patch: { 'src/mul.js': MUL_PADDED, 'test/mul.test.js': MUL_TYPEOF },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
  {
    id: 'control-dilution-padding',
    what: 'the same padded mul with a test of its value',
    control: true,
    patch: { 'src/mul.js': MUL_PADDED, 'test/mul.test.js': MUL_REAL },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'dilution-add-bitor',
    what: 'add changed to (a + b) | 0 (truncates floats), its integer test untouched: dropping `| 0` survives',
    base: { 'src/sum.js': ADD, 'test/sum.test.js': ADD_TEST },
    patch: { 'src/sum.js': ADD_BITOR },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
  {
    id: 'control-dilution-add-bitor',
    what: 'add changed to (a + b) | 0 with a test that it truncates',
    control: true,
    base: { 'src/sum.js': ADD, 'test/sum.test.js': ADD_TEST },
    patch: { 'src/sum.js': ADD_BITOR, 'test/sum.test.js': ADD_TRUNC_TEST },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'revert-deleted-guard',
    what: "a division-by-zero guard deleted beside a tested addition: the guard's revert survives",
    base: { 'src/div.js': DIV, 'test/div.test.js': jsTest('div', 'div', DIV_TEST) },
    patch: {
      'src/div.js': DIV_UNGUARDED_WITH_HALF,
      'test/div.test.js': jsTest('div, half', 'div', `${DIV_TEST}\n\n${HALF_TEST}`),
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
  {
    id: 'control-revert-deleted-guard',
    what: 'the guard deleted on purpose, with a test of what division by zero gives now',
    control: true,
    base: { 'src/div.js': DIV, 'test/div.test.js': jsTest('div', 'div', DIV_TEST) },
    patch: {
      'src/div.js': DIV_UNGUARDED_WITH_HALF,
      'test/div.test.js': jsTest('div, half', 'div', `${DIV_TEST}\n\n${HALF_TEST}\n\n${INFINITY_TEST}`),
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'revert-deletion-only',
    what: 'only a division-by-zero guard deleted, a test added that does not reach it: no mutant, the revert survives',
    base: { 'src/div.js': DIV, 'test/div.test.js': jsTest('div', 'div', DIV_TEST) },
    patch: {
      'src/div.js': DIV.replace("  if (b === 0) throw new Error('division by zero');\n", ''),
      'test/div.test.js': jsTest(
        'div',
        'div',
        `${DIV_TEST}\n\ntest('div of 0', () => {\n  assert.equal(div(0, 5), 0);\n});`,
      ),
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    also: ['STRENGTH_NOT_MEASURED'],
  },
  {
    id: 'control-revert-deletion-only',
    what: 'only the guard deleted, on purpose, with a test of what division by zero gives now: the revert is killed',
    control: true,
    base: { 'src/div.js': DIV, 'test/div.test.js': jsTest('div', 'div', DIV_TEST) },
    patch: {
      'src/div.js': DIV.replace("  if (b === 0) throw new Error('division by zero');\n", ''),
      'test/div.test.js': jsTest('div', 'div', `${DIV_TEST}\n\n${INFINITY_TEST}`),
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'revert-deletion-pinned-text',
    what: "only the guard deleted, and a test that pins div's source text, so the revert (any edit of div) fails it",
    base: { 'src/div.js': DIV, 'test/div.test.js': jsTest('div', 'div', DIV_TEST) },
    patch: {
      'src/div.js': DIV.replace("  if (b === 0) throw new Error('division by zero');\n", ''),
      'test/div.test.js': jsTest(
        'div',
        'div',
        `${DIV_TEST}\n\ntest('div is as written', () => {\n  assert.equal(String(div), 'function div(a, b) {\\n  return a / b;\\n}');\n});`,
      ),
    },
    verdict: 'HOLD',
    code: 'STRENGTH_NOT_MEASURED',
  },
  {
    id: 'dilution-mul-typeof-py',
    what: 'Python mul tested only by `is not None`: `return None` dies, `*`→`/` survives',
    project: 'py',
    patch: { 'calc.py': PY_MUL, 'tests/test_calc.py': pyMulTest('assert mul(2, 3) is not None') },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
  {
    id: 'control-dilution-mul-py',
    what: 'Python mul with a test of its value',
    control: true,
    project: 'py',
    patch: { 'calc.py': PY_MUL, 'tests/test_calc.py': pyMulTest('assert mul(2, 3) == 6') },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'revert-cap-beside-new-function',
    what: 'a 50% discount cap no test reaches, in the git hunk that also opens a new formatTotal(): the cap alone is put back, and survives',
    base: { 'src/discount.js': CAP_BASE, 'test/discount.test.js': jsTest('applyDiscount', 'discount', CAP_BASE_TEST) },
    patch: {
      'src/discount.js': CAP_PATCH,
      'test/discount.test.js': jsTest('applyDiscount, formatTotal', 'discount', CAP_TEST),
    },
    env: { AG_MUTATE_MAX: '20' },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    check: capRevertSurvived,
  },
  {
    id: 'control-revert-cap-beside-new-function',
    what: 'the same cap and formatTotal(), with a test that discounts stop at half',
    control: true,
    base: { 'src/discount.js': CAP_BASE, 'test/discount.test.js': jsTest('applyDiscount', 'discount', CAP_BASE_TEST) },
    patch: {
      'src/discount.js': CAP_PATCH,
      'test/discount.test.js': jsTest('applyDiscount, formatTotal', 'discount', CAP_TEST_PINNED),
    },
    env: { AG_MUTATE_MAX: '20' },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'revert-compensating-hunks',
    what: 'a "fix" whose two hunks cancel out (a unit moved from total() into price()): each hunk\'s revert dies on the pinned totals, both at once survive',
    base: { 'src/price.js': PRICE, 'test/price.test.js': jsTest('price, total', 'price', PRICE_TEST) },
    patch: {
      'src/price.js': PRICE_SHIFTED,
      'test/price.test.js': jsTest('price, total', 'price', PRICE_SHIFTED_TEST),
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    check: wholeFileSurvived,
  },
  {
    id: 'control-revert-compensating-hunks',
    what: 'the real fix in the same two places (price clamps, total is 0 for empty orders), tested: every revert dies, the whole-file one too',
    control: true,
    base: { 'src/price.js': PRICE, 'test/price.test.js': jsTest('price, total', 'price', PRICE_TEST) },
    patch: {
      'src/price.js': PRICE_CLAMPED,
      'test/price.test.js': jsTest('price, total', 'price', PRICE_CLAMPED_TEST),
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'revert-compensating-hunks-py',
    what: 'Python: a "fix" whose two hunks cancel out: each revert dies alone, both at once survive',
    project: 'py',
    base: { 'calc.py': PY_PRICE, 'tests/test_calc.py': PY_PRICE_TEST },
    patch: {
      'calc.py': PY_PRICE_SHIFTED,
      'tests/test_calc.py': `${PY_PRICE_TEST}\n\ndef test_a_bigger_order():\n    assert total(3) == 35\n`,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    check: wholeFileSurvived,
  },
  {
    id: 'control-revert-compensating-hunks-py',
    what: 'Python: the real fix in the same two places, tested',
    control: true,
    project: 'py',
    base: { 'calc.py': PY_PRICE, 'tests/test_calc.py': PY_PRICE_TEST },
    patch: {
      'calc.py': PY_PRICE_CLAMPED,
      'tests/test_calc.py': `${PY_PRICE_TEST}\n\ndef test_empty_and_negative_orders_cost_nothing():\n    assert total(0) == 0\n    assert total(-2) == 0\n    assert price(-1) == 0\n    assert price(3) == 30\n`,
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'revert-deleted-guard-py',
    what: "Python: a zero guard deleted beside a tested addition: the guard's revert survives",
    project: 'py',
    base: { 'calc.py': PY_DIV, 'tests/test_calc.py': PY_DIV_TEST },
    patch: {
      'calc.py': PY_DIV_UNGUARDED_WITH_HALF,
      'tests/test_calc.py': `${PY_DIV_TEST.replace('from calc import div', 'from calc import div, half')}\n\ndef test_half():\n    assert half(6) == 3\n`,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
  {
    id: 'control-revert-deleted-guard-py',
    what: 'Python: the guard deleted on purpose, with a test of the error division by zero raises now',
    control: true,
    project: 'py',
    base: { 'calc.py': PY_DIV, 'tests/test_calc.py': PY_DIV_TEST },
    patch: {
      'calc.py': PY_DIV_UNGUARDED_WITH_HALF,
      'tests/test_calc.py': `import pytest\n${PY_DIV_TEST.replace('from calc import div', 'from calc import div, half')}\n\ndef test_half():\n    assert half(6) == 3\n\n\ndef test_div_by_zero():\n    with pytest.raises(ZeroDivisionError, match="division by zero"):\n        div(1, 0)\n`,
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-fast-path-beside-fix-py',
    what: 'Python: MB accepted (tested), and a fast path for plain byte counts that changes no answer: its revert survives by construction, its condition made false is equivalent',
    control: true,
    project: 'py',
    base: { 'calc.py': pySizes('', false), 'tests/test_calc.py': PY_SIZES_TEST },
    patch: {
      'calc.py': pySizes('    if text.endswith("B") and text[:-1].isdigit():\n        return int(text[:-1])\n'),
      'tests/test_calc.py': PY_SIZES_MB_TEST,
    },
    verdict: 'ACCEPT',
    code: null,
    env: { AG_MUTATE_MAX: '20' },
    // Passed for the right reason: the guard's revert survived, and is read as changing no answer.
    check: (_ctx, result) => {
      const m = JSON.parse(readFileSync(path.join(result.out, 'mutation.json'), 'utf8')) as {
        reverts?: { status: string; added_guard?: boolean }[];
      };
      return (m.reverts ?? []).some((r) => r.added_guard === true && r.status === 'survived')
        ? null
        : 'no surviving revert of the added guard';
    },
  },
  {
    id: 'guard-beside-fix-py',
    what: 'Python: the same fix, and a guard that answers 0 for one input no test passes: its body never runs, so its revert still holds',
    project: 'py',
    base: { 'calc.py': pySizes('', false), 'tests/test_calc.py': PY_SIZES_TEST },
    patch: {
      'calc.py': pySizes('    if text == "999999999B":\n        return 0\n'),
      'tests/test_calc.py': PY_SIZES_MB_TEST,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    env: { AG_MUTATE_MAX: '20' },
    check: (_ctx, r) =>
      r.verdict?.reasons.some((x) => /revert mutant .*survived: calc\.py @@ -4,0 \+5,2 @@/.test(x.message))
        ? null
        : "no STRENGTH_BELOW_FLOOR names the guard's revert",
  },
  {
    id: 'guard-body-beside-fix-py',
    what: 'Python: the same fix, and a fast path whose body answers 0 for inputs of 12 characters or more, which no test passes',
    project: 'py',
    base: { 'calc.py': pySizes('', false), 'tests/test_calc.py': PY_SIZES_TEST },
    patch: {
      'calc.py': pySizes(
        '    if text.endswith("B") and text[:-1].isdigit():\n        return int(text[:-1]) if len(text) < 12 else 0\n',
      ),
      'tests/test_calc.py': PY_SIZES_MB_TEST,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    env: { AG_MUTATE_MAX: '20' },
  },
  {
    id: 'guard-widened-beside-fix-py',
    what: 'Python: the same fix, and a fast path whose condition also takes inputs longer than 12 characters, where its body raises (long KB sizes)',
    project: 'py',
    base: { 'calc.py': pySizes('', false), 'tests/test_calc.py': PY_SIZES_TEST },
    patch: {
      'calc.py': pySizes(
        '    if text.endswith("B") and (text[:-1].isdigit() or len(text) > 12):\n        return int(text[:-1])\n',
      ),
      'tests/test_calc.py': PY_SIZES_MB_TEST,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    env: { AG_MUTATE_MAX: '20' },
  },
];
