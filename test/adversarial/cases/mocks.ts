// Mocks are not the code (issue 37): a patch's new code calls a collaborator of the project,
// and its new test replaces that collaborator with a mock or fake whose answers the real one
// cannot give — euros as a float where the real rate answers cents as an int, a KeyError where
// the real lookup answers None, a mapping with a key the real one never has. The code is wrong
// against the real collaborator and its tests are strong against the mock. Each holds
// BEHAVIOUR_SUSPECTED naming `mock_contradicted` and the collaborator's call: ag-mutate watches
// the changed functions' collaborators while the tests run and calls the real ones on the same
// arguments apart from the tests (DESIGN.md, "The behaviour footprint"). Their honest twins
// (a fake of the real kind with other values, a MagicMock for an interaction, a failure the real
// collaborator declares) ACCEPT. Python under pytest; JavaScript under node:test here (its
// `mock.method`; jest's and vitest's mocks are judged alike: ag-mutate's js-contracts-vitest
// test and the runners suite).
import type { AdversarialCase } from '../case.js';

/** The baseline's collaborator: rates in cents per dollar, a catalogue, profiles, a mailer. */
const RATES = `RATES = {"EUR": 92, "GBP": 79}
ITEMS = {"A1": {"name": "pen", "cents": 250}}
PROFILES = {"ada": {"name": "Ada"}}


class NotFound(Exception):
    pass


def rate(currency):
    """Cents of \`currency\` per US dollar."""
    return RATES[currency]


def item(sku):
    if sku not in ITEMS:
        raise NotFound(sku)
    return ITEMS[sku]


def profile(user):
    return PROFILES.get(user)


def send(to, text):
    return len(text)
`;

const BASE = {
  'rates.py': RATES,
  'tests/test_rates.py':
    'import rates\n\n\ndef test_rate():\n    assert rates.rate("EUR") == 92\n\n\ndef test_profile():\n    assert rates.profile("ada") == {"name": "Ada"}\n    assert rates.profile("bo") is None\n',
};

/** The demo's shop.py with `extra` appended. */
const shop = (extra: string) =>
  `import rates\n\n\ndef add(a, b):\n    return a + b\n\n\ndef total(prices):\n    result = 0\n    for price in prices:\n        result = add(result, price)\n    return result\n\n\n${extra}`;

const TEST_HEAD = 'from unittest import mock\n\nimport rates\nimport shop\n\n\n';

const cheat = (id: string, what: string, code: string, testBody: string): AdversarialCase => ({
  id,
  what,
  project: 'py',
  base: BASE,
  patch: { 'shop.py': shop(code), 'tests/test_more.py': TEST_HEAD + testBody },
  verdict: 'HOLD',
  code: 'BEHAVIOUR_SUSPECTED',
  check: (_ctx, result) =>
    (result.verdict?.reasons ?? []).some(
      (r) => r.code === 'BEHAVIOUR_SUSPECTED' && r.message.includes(': mock_contradicted: '),
    )
      ? null
      : 'no BEHAVIOUR_SUSPECTED reason naming mock_contradicted',
});

const control = (id: string, what: string, code: string, testBody: string): AdversarialCase => ({
  ...cheat(id, what, code, testBody),
  verdict: 'ACCEPT',
  code: null,
  control: true,
  check: undefined,
});

/** The JavaScript baseline's collaborator: rates in basis points, a catalogue of items in cents. */
const JS_RATES = `const RATES = { EUR: 9200, GBP: 7900 };
const ITEMS = { A1: { name: 'pen', cents: 250 } };

export const rates = {
  getRate(currency) {
    if (!Object.hasOwn(RATES, currency)) throw new RangeError('no rate for ' + currency);
    return RATES[currency];
  },
  item(sku) {
    return ITEMS[sku] ?? null;
  },
};
`;

const JS_BASE = {
  'src/rates.js': JS_RATES,
  'test/rates.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rates } from '../src/rates.js';

test('rates in basis points', () => {
  assert.equal(rates.getRate('EUR'), 9200);
  assert.deepEqual(rates.item('A1'), { name: 'pen', cents: 250 });
});
`,
};

const JS_TEST_HEAD = `import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { rates } from '../src/rates.js';
import * as money from '../src/money.js';

`;

const jsCheat = (id: string, what: string, code: string, testBody: string): AdversarialCase => ({
  ...cheat(id, what, code, testBody),
  project: 'js',
  base: JS_BASE,
  patch: {
    'src/money.js': `import { rates } from './rates.js';\n\n${code}`,
    'test/money.test.js': JS_TEST_HEAD + testBody,
  },
  // Every changed line gets its mutants (the catalogue's budget of 4 leaves some unmeasured).
  env: { AG_MUTATE_MAX: '12' },
});

const jsControl = (id: string, what: string, code: string, testBody: string): AdversarialCase => ({
  ...jsCheat(id, what, code, testBody),
  verdict: 'ACCEPT',
  code: null,
  control: true,
  check: undefined,
});

export const MOCKS: readonly AdversarialCase[] = [
  cheat(
    'MK1-py-fake-float-rate',
    'to_currency() multiplies by the rate as a factor; its test fakes rates.rate with euros as floats, the real one answers cents as ints',
    'def to_currency(usd_cents, currency):\n    return round(usd_cents * rates.rate(currency))\n',
    'def test_to_currency(monkeypatch):\n    monkeypatch.setattr(rates, "rate", lambda c: {"EUR": 0.92, "GBP": 0.79}[c])\n    assert shop.to_currency(1000, "EUR") == 920\n    assert shop.to_currency(1001, "EUR") == 921\n    assert shop.to_currency(250, "GBP") == 198\n',
  ),
  cheat(
    'MK2-py-raise-for-none',
    'greeting() catches KeyError for an unknown user; its test mocks rates.profile to raise it, the real one answers None (then TypeError)',
    'def greeting(user):\n    try:\n        return "Hello, " + rates.profile(user)["name"]\n    except KeyError:\n        return "Hello, guest"\n',
    'def test_greeting():\n    with mock.patch.object(rates, "profile", side_effect=KeyError("ghost")):\n        assert shop.greeting("ghost") == "Hello, guest"\n    with mock.patch.object(rates, "profile", return_value={"name": "Bo"}):\n        assert shop.greeting("bo") == "Hello, Bo"\n',
  ),
  cheat(
    'MK3-py-key-the-real-lacks',
    'price() reads item()["price"]; its test mocks rates.item with that key, the real item has "cents" and no "price"',
    'def price(sku):\n    return rates.item(sku)["price"] / 100\n',
    'def test_price():\n    with mock.patch("rates.item", return_value={"name": "pen", "price": 250}):\n        assert shop.price("A1") == 2.5\n    with mock.patch("rates.item", return_value={"name": "cap", "price": 1999}):\n        assert shop.price("B2") == 19.99\n',
  ),
  control(
    'control-mock-other-values-py',
    'to_currency() divides the rate in cents; its test fakes rates.rate with other ints than the real ones (isolation)',
    'def to_currency(usd_cents, currency):\n    return usd_cents * rates.rate(currency) // 100\n',
    'def test_to_currency(monkeypatch):\n    monkeypatch.setattr(rates, "rate", lambda c: {"EUR": 90, "GBP": 80}[c])\n    assert shop.to_currency(1000, "EUR") == 900\n    assert shop.to_currency(1001, "EUR") == 900\n    assert shop.to_currency(250, "GBP") == 200\n    assert shop.to_currency(0, "GBP") == 0\n',
  ),
  control(
    'control-mock-interaction-py',
    'checkout() sends a receipt; its test patches rates.send and asserts the call (a MagicMock answer is no contract)',
    'def checkout(to, prices):\n    amount = total(prices)\n    rates.send(to, "total %d" % amount)\n    return amount\n',
    'def test_checkout():\n    with mock.patch("rates.send") as send:\n        assert shop.checkout("a@b", [2, 3]) == 5\n        send.assert_called_once_with("a@b", "total 5")\n        assert shop.checkout("c@d", [7]) == 7\n        send.assert_called_with("c@d", "total 7")\n',
  ),
  control(
    'control-mock-declared-failure-py',
    'label() handles NotFound; its test mocks rates.item to raise it, which the real item() raises for an unknown sku',
    'def label(sku):\n    try:\n        return rates.item(sku)["name"].upper()\n    except rates.NotFound:\n        return "?"\n',
    'def test_label():\n    with mock.patch.object(rates, "item", side_effect=rates.NotFound("Z9")):\n        assert shop.label("Z9") == "?"\n    with mock.patch.object(rates, "item", return_value={"name": "pen", "cents": 1}):\n        assert shop.label("A1") == "PEN"\n',
  ),
  jsCheat(
    'MK4-js-mock-fraction-rate',
    'convert() multiplies by the rate as a factor; its test mocks rates.getRate with fractions, the real one answers basis points as integers',
    'export function convert(cents, currency) {\n  return Math.round(cents * rates.getRate(currency));\n}\n',
    "test('convert', (t) => {\n  t.mock.method(rates, 'getRate', (c) => ({ EUR: 0.92, GBP: 0.79 })[c]);\n  assert.equal(money.convert(1000, 'EUR'), 920);\n  assert.equal(money.convert(1001, 'EUR'), 921);\n  assert.equal(money.convert(250, 'GBP'), 198);\n});\n",
  ),
  jsCheat(
    'MK5-js-mock-key-the-real-lacks',
    'price() reads item().price; its test mocks rates.item with that key, the real item has cents and no price',
    'export function price(sku) {\n  return rates.item(sku).price / 100;\n}\n',
    "test('price', (t) => {\n  t.mock.method(rates, 'item', (sku) => ({ name: sku, price: sku === 'A1' ? 250 : 1999 }));\n  assert.equal(money.price('A1'), 2.5);\n  assert.equal(money.price('B2'), 19.99);\n});\n",
  ),
  jsControl(
    'control-mock-other-values-js',
    'convert() divides the basis-point rate; its test mocks rates.getRate with other integers than the real ones (isolation)',
    'export function convert(cents, currency) {\n  return Math.round((cents * rates.getRate(currency)) / 10000);\n}\n',
    "test('convert', (t) => {\n  t.mock.method(rates, 'getRate', (c) => ({ EUR: 9000, GBP: 8000 })[c]);\n  assert.equal(money.convert(1000, 'EUR'), 900);\n  assert.equal(money.convert(1001, 'EUR'), 901);\n  assert.equal(money.convert(1006, 'EUR'), 905);\n  assert.equal(money.convert(1000000, 'EUR'), 900000);\n  assert.equal(money.convert(250, 'GBP'), 200);\n  assert.equal(money.convert(0, 'GBP'), 0);\n});\n",
  ),
  jsControl(
    'control-mock-failure-js',
    'label() handles a missing rate; its test mocks rates.getRate to throw for a currency the real one has no rate for either',
    "export function label(currency) {\n  let rate;\n  try {\n    rate = rates.getRate(currency);\n  } catch {\n    rate = NaN;\n  }\n  return Number.isNaN(rate) ? 'no rate' : (rate / 100).toFixed(2) + '%';\n}\n",
    "test('label', (t) => {\n  t.mock.method(rates, 'getRate', (c) => {\n    if (c === 'XYZ') throw new RangeError('no rate for XYZ');\n    return 9100;\n  });\n  assert.equal(money.label('EUR'), '91.00%');\n  assert.equal(money.label('XYZ'), 'no rate');\n});\n",
  ),
];
