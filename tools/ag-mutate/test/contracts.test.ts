// Collaborators the tests replaced, judged against the real ones (the footprint's
// `mock_contradicted`): a fake answering a float where the real one answers an int, a mock whose
// mapping has a key the real one never has, a mock raising where the real one answers None are
// each named; a fake of the same kind with other values, a MagicMock answer, a fake clock and a
// failure the real one declares are not. The tests still pass with the witnesses in place.
import test from 'ava';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { measuredPytest } from './helpers/artefact.js';

const FX = `import time

RATES = {"EUR": 92, "GBP": 79}
ITEMS = {"A1": {"name": "pen", "cents": 250}}
PROFILES = {"ada": {"name": "Ada"}}


class NotFound(Exception):
    pass


def rate(currency):
    """Cents of \`currency\` per US dollar."""
    return RATES[currency]


def lookup(sku):
    return ITEMS[sku]


def load_profile(user):
    return PROFILES.get(user)


def find(sku):
    if sku not in ITEMS:
        raise NotFound(sku)
    return ITEMS[sku]


def now():
    return time.time()


def send(to, text):
    return len(text)
`;

const CONVERT = `from shop import fx
from shop.fx import rate


def to_currency(usd_cents, currency):
    return round(usd_cents * rate(currency))


def to_currency_ok(usd_cents, currency):
    return usd_cents * fx.rate(currency) // 100


def price_of(sku):
    return fx.lookup(sku)["price"]


def greet(user):
    try:
        return "Hello, " + fx.load_profile(user)["name"]
    except KeyError:
        return "Hello, guest"


def describe(sku):
    try:
        return fx.find(sku)["name"]
    except fx.NotFound:
        return "unknown"


def stamp(text):
    return "%d %s" % (fx.now(), text)


def notify(to, total):
    fx.send(to, "total %d" % total)
    return total * 2
`;

const TESTS = `from unittest import mock

from shop import convert, fx


def test_to_currency(monkeypatch):
    monkeypatch.setattr(convert, "rate", lambda c: {"EUR": 0.92, "GBP": 0.79}[c])
    assert convert.to_currency(1000, "EUR") == 920
    assert convert.to_currency(250, "GBP") == 198


def test_to_currency_ok(monkeypatch):
    monkeypatch.setattr(fx, "rate", lambda c: {"EUR": 90, "GBP": 80}[c])
    assert convert.to_currency_ok(1001, "EUR") == 900
    assert convert.to_currency_ok(250, "GBP") == 200


def test_price_of():
    with mock.patch("shop.fx.lookup", return_value={"name": "pen", "price": 2.5}):
        assert convert.price_of("A1") == 2.5


def test_greet():
    with mock.patch.object(fx, "load_profile", side_effect=KeyError("ghost")):
        assert convert.greet("ghost") == "Hello, guest"
    with mock.patch.object(fx, "load_profile", return_value={"name": "Bo"}):
        assert convert.greet("bo") == "Hello, Bo"


def test_describe():
    with mock.patch.object(fx, "find", side_effect=fx.NotFound("Z9")):
        assert convert.describe("A1") == "unknown"


def test_stamp(monkeypatch):
    monkeypatch.setattr(fx, "now", lambda: 1000)
    assert convert.stamp("hi") == "1000 hi"


def test_notify():
    with mock.patch("shop.fx.send") as send:
        assert convert.notify("a@b", 21) == 42
        send.assert_called_once_with("a@b", "total 21")
        fx.send.assert_called_once()
`;

let artefact: Promise<MutationArtefact> | undefined;

function measure(t: import('ava').ExecutionContext): Promise<MutationArtefact> {
  artefact ??= measuredPytest(
    t,
    {
      'shop/__init__.py': '',
      'shop/fx.py': FX,
      'pytest.ini': '[pytest]\npythonpath = .\n',
      'tests/test_fx.py': 'from shop.fx import rate\n\n\ndef test_rate():\n    assert rate("EUR") == 92\n',
    },
    { 'shop/convert.py': CONVERT, 'tests/test_convert.py': TESTS },
  );
  return artefact;
}

const findings = (m: MutationArtefact, fn: string) => {
  const f = m.footprint?.functions.find((x) => x.function === fn);
  if (f === undefined) throw new Error(`no footprint of ${fn}: ${JSON.stringify(m.footprint)}`);
  return f.findings.filter((x) => x.kind === 'mock_contradicted');
};

test('replacements whose answers the real collaborator cannot give are named, with the real answer', async (t) => {
  const m = await measure(t);
  t.is(m.footprint?.status, 'measured', JSON.stringify(m.footprint));
  t.deepEqual(
    findings(m, 'to_currency').map((f) => f.call),
    ["rate('EUR')", "rate('GBP')"],
  );
  t.regex(findings(m, 'to_currency')[0]!.detail, /a float where the real one answers an int \(real: value 92\)/);
  t.deepEqual(
    findings(m, 'price_of').map((f) => f.call),
    ["fx.lookup('A1')"],
  );
  t.regex(findings(m, 'price_of')[0]!.detail, /"price", which the real one's \{name, cents\} lacks/);
  t.deepEqual(
    findings(m, 'greet').map((f) => f.call),
    ["fx.load_profile('ghost')"],
  );
  t.regex(findings(m, 'greet')[0]!.detail, /raised KeyError where the real one answers None/);
});

test('other values of the same kind, a MagicMock, a fake clock and a declared failure are no finding', async (t) => {
  const m = await measure(t);
  for (const fn of ['to_currency_ok', 'describe', 'stamp', 'notify']) t.deepEqual(findings(m, fn), [], fn);
  // The witnesses changed nothing the tests see: every test passed while its calls were recorded.
  t.is(m.footprint?.note, null);
});
