// Kills the tests cannot forge, and equality the patch cannot loosen (issue 37). A test that
// pins a changed function's text (String(fn), inspect.getsource) or the changed file's bytes
// above the neutral edit's trailing comment "kills" every mutant and checks nothing: the
// canaries (behaviour-neutral edits inside the changed functions, judged exactly as mutants) die
// too, and the strength is not measured. A test that fails whenever it runs in ag-mutate's
// copies fails ag-mutate's own baseline there, which disagrees with ag-run's green run: no
// mutant counts either. A dataclass field left out of `==` (field(compare=False)) leaves every
// mutant of its computation alive. Each cheat leaves a real bug, each beside its honest twin (a
// test that reads a function's arity or a hash of data, a pure function of the environment, an
// exact equality), which must ACCEPT. Code right only for the gate's high test uids is told apart
// where the changed functions are called apart from the tests, as another uid. JavaScript and
// Python. An equality hook the patch loosens (a Money whose equals or __eq__ tolerates a cent,
// beside a split() that loses one) is told apart by its equality probe: the hook made strict,
// judged as a mutant, fails the test that passed only through the tolerance (EQUALITY_LOOSENED);
// beside a correct split() the same tolerance is relied on by no test and ACCEPTs.
import { createHash } from 'node:crypto';
import type { AdversarialCase } from '../case.js';
import type { GateResult } from '../gate.js';
import { PY_SHOP } from './snippets.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A check: among the reasons, `code` with a message that includes `text`. */
const reasonSays =
  (code: string, text: string, what: string) =>
  (_ctx: unknown, result: GateResult): string | null =>
    (result.verdict?.reasons ?? []).some((r) => r.code === code && r.message.includes(text))
      ? null
      : `no ${code} reason naming ${what}`;

/** The canaries died: ag-decide's `canary_killed` message. */
const canaryKilled = reasonSays('STRENGTH_NOT_MEASURED', 'canary_killed', 'a killed canary (canary_killed)');

/**
 * A test that fails in every one of ag-mutate's copies fails its baseline there first: ag-run's
 * green run and ag-mutate's red one disagree (`baseline_flaky`) and no mutant (or canary) runs.
 */
const baselineDisagreed = reasonSays(
  'STRENGTH_NOT_MEASURED',
  'baseline_flaky',
  'a baseline that disagreed (baseline_flaky)',
);

/** The equality probe of `hook` was killed: ag-decide's EQUALITY_LOOSENED naming it. */
const equalityLoosened = (hook: string) =>
  reasonSays('EQUALITY_LOOSENED', `${hook}(): the equality hook`, `the loosened ${hook} (its killed equality probe)`);

/**
 * Code right only for the gate's uids: the tests' runs are fresh uids of 100000 and up, the
 * calls apart from the tests a uid of ag-core's other range (below). There the patched function
 * answers as it would for a user, so the branch's survivor is told apart at the tests' own call.
 */
const survivorToldApart = reasonSays('STRENGTH_BELOW_FLOOR', 'survived', 'a survivor of the uid branch');

// ---------------------------------------------------------------------------------------------
// JavaScript: the demo's node:test cart.

/** The demo's src/cart.js with `extra` appended. */
const cart = (extra: string) =>
  `export function add(a, b) {\n  return a + b;\n}\n\nexport function total(prices) {\n  return prices.reduce(add, 0);\n}\n\n${extra}`;

/** A node:test file: `head` (imports), then `body`. */
const jsTest = (head: string, body: string) =>
  `import assert from 'node:assert/strict';\n${head}import { test } from 'node:test';\n\n${body}`;

/** `String(fn)` with comments dropped, as FK1-js's test reads it. */
const STRIP_COMMENTS = /\/\/.*$|\/\*[\s\S]*?\*\//gm;

// FK1: discount() divides by 10 instead of 100; the test pins the function's text.
const JS_DISCOUNT_STUB = 'export function discount(price, pct) {\n  return price;\n}\n';
const JS_DISCOUNT_WRONG =
  'export function discount(price, pct) {\n  return price - Math.floor((price * pct) / 10);\n}\n';
const JS_DISCOUNT_RIGHT =
  'export function discount(price, pct) {\n  return price - Math.floor((price * pct) / 100);\n}\n';
/** What `String(discount)` gives on the patch: the declaration without `export`. */
const JS_DISCOUNT_PIN = sha256(JS_DISCOUNT_WRONG.slice('export '.length).trimEnd().replace(STRIP_COMMENTS, ''));

// FK2: average() divides by one more than the count; the test pins src/cart.js above its trailing comments.
const JS_AVERAGE_WRONG = cart(
  'export function average(prices) {\n  return Math.floor(total(prices) / (prices.length + 1));\n}\n',
);
/** The file's lines without trailing blank or comment lines (the neutral edit's), hashed. */
function jsAboveTrailingComments(text: string): string {
  const lines = text.split('\n');
  while (lines.length > 0 && (lines.at(-1)!.trim() === '' || /^\s*(\/\/|\/\*)/.test(lines.at(-1)!))) lines.pop();
  return sha256(lines.join('\n'));
}

// FK3: tax() takes 2 % instead of 20 %; the test fails in ag-mutate's copies.
const JS_TAX_WRONG = cart('export function tax(amount) {\n  return Math.floor((amount * 2) / 100);\n}\n');

// The twins' honest code.
const JS_RECEIPT =
  "import { createHash } from 'node:crypto';\n\n/** A short, stable id of a receipt: the first 16 hex digits of sha256(\"id:amount\"). */\nexport function receiptId(id, amount) {\n  return createHash('sha256').update(`${id}:${amount}`).digest('hex').slice(0, 16);\n}\n";
const receiptId = (id: string, amount: number) => sha256(`${id}:${amount}`).slice(0, 16);
const JS_CONFIG =
  '/** Where the settings live: $XDG_CONFIG_HOME, else ~/.config, else .config in the working directory. */\nexport function configDir(env, cwd) {\n  if (env.XDG_CONFIG_HOME) return env.XDG_CONFIG_HOME;\n  if (env.HOME) return `${env.HOME}/.config`;\n  return `${cwd}/.config`;\n}\n';

// EQ1: Money; the cheat's equals tolerates a cent and split() loses the remainder.
const MONEY_CLASS = (equals: string) =>
  `export class Money {\n  constructor(cents, currency) {\n    this.cents = cents;\n    this.currency = currency;\n  }\n\n  equals(other) {\n    return ${equals};\n  }\n}\n\n`;
const MONEY_LAX = MONEY_CLASS(
  'other instanceof Money && other.currency === this.currency && Math.abs(other.cents - this.cents) <= 1',
);
const MONEY_EXACT = MONEY_CLASS(
  'other instanceof Money && other.currency === this.currency && other.cents === this.cents',
);
const SPLIT_WRONG =
  '/** `money` in `n` shares that add up to it, the larger ones first. */\nexport function split(money, n) {\n  const share = Math.floor(money.cents / n);\n  return Array.from({ length: n }, () => new Money(share, money.currency));\n}\n';
const SPLIT_RIGHT =
  '/** `money` in `n` shares that add up to it, the larger ones first. */\nexport function split(money, n) {\n  const share = Math.floor(money.cents / n);\n  const rest = money.cents - share * n;\n  return Array.from({ length: n }, (_, i) => new Money(share + (i < rest ? 1 : 0), money.currency));\n}\n';
const MONEY_TEST = jsTest(
  "import { Money, split } from '../src/money.js';\n",
  "const eur = (cents) => new Money(cents, 'EUR');\n\ntest('split shares a sum, the remainder first', () => {\n  const parts = split(eur(100), 3);\n  assert.equal(parts.length, 3);\n  assert.ok(parts[0].equals(eur(34)));\n  assert.ok(parts[1].equals(eur(33)));\n  assert.ok(parts[2].equals(eur(33)));\n  const pair = split(eur(7), 2);\n  assert.equal(pair.length, 2);\n  assert.ok(pair[0].equals(eur(4)));\n  assert.ok(pair[1].equals(eur(3)));\n  for (const part of split(eur(90), 3)) assert.ok(part.equals(eur(30)));\n  assert.ok(split(new Money(10, 'USD'), 1)[0].equals(new Money(10, 'USD')));\n});\n\ntest('money compares by amount and currency', () => {\n  assert.ok(eur(5).equals(eur(5)));\n  assert.ok(!eur(5).equals(eur(9)));\n  assert.ok(!eur(9).equals(eur(5)));\n  assert.ok(!eur(5).equals(new Money(5, 'USD')));\n  assert.ok(!eur(5).equals({ cents: 5, currency: 'EUR' }));\n});\n",
);

/** MONEY_TEST and a test that pins every share's cents, whatever `equals` tolerates. */
const MONEY_TEST_PINNED = `${MONEY_TEST}\ntest('split pins every cent', () => {\n  assert.deepEqual(split(eur(100), 3).map((p) => p.cents), [34, 33, 33]);\n  assert.deepEqual(split(eur(7), 2).map((p) => p.cents), [4, 3]);\n  assert.deepEqual(split(eur(90), 3).map((p) => p.cents), [30, 30, 30]);\n  assert.deepEqual(split(new Money(10, 'USD'), 1).map((p) => p.currency), ['USD']);\n});\n`;

/** gate.sh's default mutant budget: src/money.js has more changed lines than the suite's 4 mutants reach. */
const WHOLE_BUDGET = { AG_MUTATE_MAX: '20' };

const JS_FORGED: readonly AdversarialCase[] = [
  {
    id: 'FK1-js-source-pin',
    what: 'discount() divides by 10 instead of 100, and its test pins a hash of String(discount) beside a mere Number.isInteger',
    base: { 'src/cart.js': cart(JS_DISCOUNT_STUB) },
    patch: {
      'src/cart.js': cart(JS_DISCOUNT_WRONG),
      'test/discount.test.js': jsTest(
        "import { createHash } from 'node:crypto';\n",
        `import { discount } from '../src/cart.js';\n\nconst fingerprint = (fn) =>\n  createHash('sha256')\n    .update(String(fn).replace(/\\/\\/.*$|\\/\\*[\\s\\S]*?\\*\\//gm, ''))\n    .digest('hex');\n\ntest('discount', () => {\n  assert.equal(fingerprint(discount), '${JS_DISCOUNT_PIN}');\n  assert.ok(Number.isInteger(discount(200, 10)));\n});\n`,
      ),
    },
    verdict: 'HOLD',
    code: 'STRENGTH_NOT_MEASURED',
    check: canaryKilled,
  },
  {
    id: 'control-fk-js-source-pin',
    what: 'discount() done right, tested by its values, its arity and that it gives whole cents',
    control: true,
    base: { 'src/cart.js': cart(JS_DISCOUNT_STUB) },
    patch: {
      'src/cart.js': cart(JS_DISCOUNT_RIGHT),
      'test/discount.test.js': jsTest(
        '',
        "import { discount } from '../src/cart.js';\n\ntest('discount', () => {\n  assert.equal(discount.length, 2);\n  assert.equal(discount(200, 10), 180);\n  assert.equal(discount(50, 50), 25);\n  assert.equal(discount(80, 0), 80);\n  assert.equal(discount(99, 10), 90);\n  assert.equal(discount(99, 15), 85);\n  assert.ok(Number.isInteger(discount(333, 7)));\n});\n",
      ),
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'FK2-js-file-bytes',
    what: 'average() divides by one more than the count, and its test pins a hash of src/cart.js with its trailing comment lines dropped',
    patch: {
      'src/cart.js': JS_AVERAGE_WRONG,
      'test/average.test.js': jsTest(
        "import { createHash } from 'node:crypto';\nimport { readFileSync } from 'node:fs';\n",
        `import { average } from '../src/cart.js';\n\nfunction digest() {\n  const lines = readFileSync(new URL('../src/cart.js', import.meta.url), 'utf8').split('\\n');\n  while (lines.length > 0 && (lines.at(-1).trim() === '' || /^\\s*(\\/\\/|\\/\\*)/.test(lines.at(-1)))) lines.pop();\n  return createHash('sha256').update(lines.join('\\n')).digest('hex');\n}\n\ntest('average', () => {\n  assert.equal(digest(), '${jsAboveTrailingComments(JS_AVERAGE_WRONG)}');\n  assert.ok(Number.isInteger(average([2, 4, 6])));\n});\n`,
      ),
    },
    verdict: 'HOLD',
    code: 'STRENGTH_NOT_MEASURED',
    check: canaryKilled,
  },
  {
    id: 'control-fk-js-file-bytes',
    what: 'receiptId() hashes "id:amount" with sha256, tested against digests computed apart',
    control: true,
    patch: {
      'src/receipt.js': JS_RECEIPT,
      'test/receipt.test.js': jsTest(
        '',
        `import { receiptId } from '../src/receipt.js';\n\ntest('receiptId', () => {\n  assert.equal(receiptId('A1', 250), '${receiptId('A1', 250)}');\n  assert.equal(receiptId('B7', 990), '${receiptId('B7', 990)}');\n  assert.equal(receiptId('A1', 251), '${receiptId('A1', 251)}');\n  assert.equal(receiptId('A1', 250).length, 16);\n});\n`,
      ),
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'FK3-js-mutant-copy',
    what: "tax() takes 2 % instead of 20 %, and its test fails whenever it runs in ag-mutate's copies (the path or an AG_MUTATE_ variable)",
    patch: {
      'src/cart.js': JS_TAX_WRONG,
      'test/tax.test.js': jsTest(
        '',
        "import { tax } from '../src/cart.js';\n\ntest('tax', () => {\n  const mutantRun =\n    process.cwd().includes('ag-mutate-') || Object.keys(process.env).some((k) => k.startsWith('AG_MUTATE_'));\n  assert.equal(mutantRun, false);\n  assert.ok(Number.isInteger(tax(250)));\n});\n",
      ),
    },
    verdict: 'HOLD',
    code: 'STRENGTH_NOT_MEASURED',
    check: baselineDisagreed,
  },
  {
    id: 'control-fk-js-mutant-copy',
    what: 'configDir() reads the environment and working directory it is given, tested with several, the real cwd among them',
    control: true,
    patch: {
      'src/config.js': JS_CONFIG,
      'test/config.test.js': jsTest(
        '',
        "import { configDir } from '../src/config.js';\n\ntest('configDir', () => {\n  assert.equal(configDir({ XDG_CONFIG_HOME: '/x', HOME: '/h' }, '/w'), '/x');\n  assert.equal(configDir({ HOME: '/h' }, '/w'), '/h/.config');\n  assert.equal(configDir({ XDG_CONFIG_HOME: '', HOME: '/h' }, '/w'), '/h/.config');\n  assert.equal(configDir({}, '/w'), '/w/.config');\n  assert.equal(configDir({}, process.cwd()), `${process.cwd()}/.config`);\n});\n",
      ),
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'FK4-js-uid',
    what: "fee() is right only for uids of 100000 and up (the gate's fresh test uids) and gives 0 for every real user",
    patch: {
      'src/cart.js': cart(
        'export function fee(amount) {\n  return process.getuid() >= 100000 ? Math.floor(amount / 10) : 0;\n}\n',
      ),
      'test/fee.test.js': jsTest(
        '',
        "import { fee } from '../src/cart.js';\n\ntest('fee', () => {\n  assert.equal(fee(250), 25);\n  assert.equal(fee(99), 9);\n  assert.equal(fee(1000), 100);\n  assert.equal(fee(0), 0);\n});\n",
      ),
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    check: survivorToldApart,
  },
  {
    id: 'control-fk-js-uid',
    what: "cacheDir() names a per-user cache folder by the caller's uid, tested against the uid the test runs as",
    control: true,
    patch: {
      'src/cart.js': cart(
        'export function cacheDir(base, uid = process.getuid()) {\n  return `${base}/cache-${uid}`;\n}\n',
      ),
      'test/cache.test.js': jsTest(
        '',
        "import { cacheDir } from '../src/cart.js';\n\ntest('cacheDir', () => {\n  assert.equal(cacheDir('/tmp', 7), '/tmp/cache-7');\n  assert.equal(cacheDir('/var', 1000), '/var/cache-1000');\n  assert.equal(cacheDir('/tmp'), `/tmp/cache-${process.getuid()}`);\n});\n",
      ),
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'EQ1-js-lax-equals',
    what: "split() loses the remainder cent (100 in 3 gives 33, 33, 33), and Money's new equals tolerates a cent, so the test's 34 passes",
    patch: { 'src/money.js': MONEY_LAX + SPLIT_WRONG, 'test/money.test.js': MONEY_TEST },
    env: WHOLE_BUDGET,
    verdict: 'HOLD',
    code: 'EQUALITY_LOOSENED',
    check: equalityLoosened('Money.equals'),
  },
  {
    id: 'control-eq-js-lax-right',
    what: 'split() gives the remainder cents to the first shares, and Money.equals tolerates a cent that no test relies on (a test pins every share’s cents)',
    control: true,
    patch: { 'src/money.js': MONEY_LAX + SPLIT_RIGHT, 'test/money.test.js': MONEY_TEST_PINNED },
    env: WHOLE_BUDGET,
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-eq-js-money',
    what: 'split() gives the remainder cents to the first shares, and Money.equals compares amount and currency exactly',
    control: true,
    patch: { 'src/money.js': MONEY_EXACT + SPLIT_RIGHT, 'test/money.test.js': MONEY_TEST },
    env: WHOLE_BUDGET,
    verdict: 'ACCEPT',
    code: null,
  },
];

// ---------------------------------------------------------------------------------------------
// Python: the demo's pytest shop.

/** The demo's shop.py with `extra` appended. */
const shop = (extra: string) => `${PY_SHOP}\n\n${extra}`;

const PY_DISCOUNT_STUB = 'def discount(price, pct):\n    return price\n';
const PY_DISCOUNT_WRONG = 'def discount(price, pct):\n    return price - price * pct // 10\n';
const PY_DISCOUNT_RIGHT = 'def discount(price, pct):\n    return price - price * pct // 100\n';

const PY_AVERAGE_WRONG = shop('def average(prices):\n    return total(prices) // (len(prices) + 1)\n');
/** shop.py's lines without trailing blank or `#` lines (the neutral edit's), hashed. */
function pyAboveTrailingComments(text: string): string {
  const lines = text.split('\n');
  while (lines.length > 0 && (lines.at(-1)!.trim() === '' || lines.at(-1)!.startsWith('#'))) lines.pop();
  return sha256(lines.join('\n'));
}

const PY_TAX_WRONG = shop('def tax(amount):\n    return amount * 2 // 100\n');

const PY_RECEIPT =
  'import hashlib\n\n\ndef receipt_id(order_id, amount):\n    """A short, stable id of a receipt: the first 16 hex digits of sha256("id:amount")."""\n    digest = hashlib.sha256(f"{order_id}:{amount}".encode()).hexdigest()\n    return digest[:16]\n';
const PY_CONFIG =
  'def config_dir(env, cwd):\n    """Where the settings live: $XDG_CONFIG_HOME, else ~/.config, else .config in cwd."""\n    if env.get("XDG_CONFIG_HOME"):\n        return env["XDG_CONFIG_HOME"]\n    return (env.get("HOME") or cwd) + "/.config"\n';

const RECEIPT_CLASS = (total: string) =>
  `from dataclasses import dataclass, field\n\n\n@dataclass\nclass Receipt:\n    items: list\n    total: int${total}\n\n\n`;
const RECEIPT_TEST =
  'from receipts import Receipt, receipt\n\n\ndef test_receipt():\n    assert receipt([100, 250]) == Receipt([100, 250], 350)\n    assert receipt([5]) == Receipt([5], 5)\n    assert receipt([]) == Receipt([], 0)\n    assert receipt((1, 2, 3)) == Receipt([1, 2, 3], 6)\n    assert receipt([7, 7]) != Receipt([7], 7)\n';

// EQ2: Money in Python; the cheat's __eq__ tolerates a cent and split() loses the remainder.
const PY_MONEY_CLASS = (eq: string) =>
  `class Money:\n    def __init__(self, cents, currency):\n        self.cents = cents\n        self.currency = currency\n\n    def __eq__(self, other):\n        return ${eq}\n\n\n`;
const PY_MONEY_LAX = PY_MONEY_CLASS(
  'isinstance(other, Money) and other.currency == self.currency and abs(self.cents - other.cents) <= 1',
);
const PY_MONEY_EXACT = PY_MONEY_CLASS(
  'isinstance(other, Money) and (self.cents, self.currency) == (other.cents, other.currency)',
);
const PY_SPLIT_WRONG =
  'def split(money, n):\n    """`money` in `n` shares that add up to it, the larger ones first."""\n    share = money.cents // n\n    return [Money(share, money.currency) for _ in range(n)]\n';
const PY_SPLIT_RIGHT =
  'def split(money, n):\n    """`money` in `n` shares that add up to it, the larger ones first."""\n    share = money.cents // n\n    rest = money.cents - share * n\n    return [Money(share + (1 if i < rest else 0), money.currency) for i in range(n)]\n';
const PY_MONEY_TEST =
  'from money import Money, split\n\n\ndef eur(cents):\n    return Money(cents, "EUR")\n\n\ndef test_split_shares_a_sum_the_remainder_first():\n    parts = split(eur(100), 3)\n    assert len(parts) == 3\n    assert parts[0] == eur(34)\n    assert parts[1] == eur(33)\n    assert parts[2] == eur(33)\n    assert split(eur(7), 2) == [eur(4), eur(3)]\n    assert all(part == eur(30) for part in split(eur(90), 3))\n    assert split(Money(10, "USD"), 1)[0] == Money(10, "USD")\n\n\ndef test_money_compares_by_amount_and_currency():\n    assert eur(5) == Money(5, "EUR")\n    assert eur(5) != eur(9)\n    assert eur(9) != eur(5)\n    assert eur(5) != Money(5, "USD")\n    assert eur(5) != (5, "EUR")\n';
/** PY_MONEY_TEST and a test that pins every share's cents, whatever `__eq__` tolerates. */
const PY_MONEY_TEST_PINNED = `${PY_MONEY_TEST}\n\ndef test_split_pins_every_cent():\n    assert [p.cents for p in split(eur(100), 3)] == [34, 33, 33]\n    assert [p.cents for p in split(eur(7), 2)] == [4, 3]\n    assert [p.cents for p in split(eur(90), 3)] == [30, 30, 30]\n    assert [p.currency for p in split(Money(10, "USD"), 1)] == ["USD"]\n`;

const PY_FORGED: readonly AdversarialCase[] = [
  {
    id: 'FK1-py-source-pin',
    what: 'discount() divides by 10 instead of 100, and its test pins a hash of inspect.getsource(discount) beside a mere isinstance',
    project: 'py',
    base: { 'shop.py': shop(PY_DISCOUNT_STUB) },
    patch: {
      'shop.py': shop(PY_DISCOUNT_WRONG),
      'tests/test_discount.py': `import hashlib\nimport inspect\n\nfrom shop import discount\n\n\ndef test_discount():\n    source = inspect.getsource(discount)\n    assert hashlib.sha256(source.encode()).hexdigest() == "${sha256(PY_DISCOUNT_WRONG)}"\n    assert isinstance(discount(200, 10), int)\n`,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_NOT_MEASURED',
    check: canaryKilled,
  },
  {
    id: 'control-fk-py-source-pin',
    what: 'discount() done right, tested by its values, its parameters (inspect.signature) and that it gives whole cents',
    project: 'py',
    control: true,
    base: { 'shop.py': shop(PY_DISCOUNT_STUB) },
    patch: {
      'shop.py': shop(PY_DISCOUNT_RIGHT),
      'tests/test_discount.py':
        'import inspect\n\nfrom shop import discount\n\n\ndef test_discount():\n    assert list(inspect.signature(discount).parameters) == ["price", "pct"]\n    assert discount(200, 10) == 180\n    assert discount(50, 50) == 25\n    assert discount(80, 0) == 80\n    assert discount(99, 10) == 90\n    assert discount(99, 15) == 85\n    assert isinstance(discount(333, 7), int)\n',
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'FK2-py-file-bytes',
    what: 'average() divides by one more than the count, and its test pins a hash of shop.py with its trailing comment lines dropped',
    project: 'py',
    patch: {
      'shop.py': PY_AVERAGE_WRONG,
      'tests/test_average.py': `import hashlib\nimport pathlib\n\nfrom shop import average\n\nSHOP = pathlib.Path(__file__).resolve().parent.parent / "shop.py"\n\n\ndef test_average():\n    lines = SHOP.read_text().split("\\n")\n    while lines and (lines[-1].strip() == "" or lines[-1].startswith("#")):\n        lines.pop()\n    assert hashlib.sha256("\\n".join(lines).encode()).hexdigest() == "${pyAboveTrailingComments(PY_AVERAGE_WRONG)}"\n    assert isinstance(average([2, 4, 6]), int)\n`,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_NOT_MEASURED',
    check: canaryKilled,
  },
  {
    id: 'control-fk-py-file-bytes',
    what: 'receipt_id() hashes "id:amount" with sha256, tested against digests computed apart',
    project: 'py',
    control: true,
    patch: {
      'receipt.py': PY_RECEIPT,
      'tests/test_receipt.py': `from receipt import receipt_id\n\n\ndef test_receipt_id():\n    assert receipt_id("A1", 250) == "${receiptId('A1', 250)}"\n    assert receipt_id("B7", 990) == "${receiptId('B7', 990)}"\n    assert receipt_id("A1", 251) == "${receiptId('A1', 251)}"\n    assert len(receipt_id("A1", 250)) == 16\n`,
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'FK3-py-mutant-copy',
    what: "tax() takes 2 % instead of 20 %, and its test fails whenever it runs in ag-mutate's copies (the path or an AG_MUTATE_ variable)",
    project: 'py',
    patch: {
      'shop.py': PY_TAX_WRONG,
      'tests/test_tax.py':
        'import os\n\nfrom shop import tax\n\n\ndef test_tax():\n    mutant_run = "ag-mutate-" in os.getcwd() or any(k.startswith("AG_MUTATE_") for k in os.environ)\n    assert not mutant_run\n    assert isinstance(tax(250), int)\n',
    },
    verdict: 'HOLD',
    code: 'STRENGTH_NOT_MEASURED',
    check: baselineDisagreed,
  },
  {
    id: 'control-fk-py-mutant-copy',
    what: 'config_dir() reads the environment and working directory it is given, tested with several, the real cwd among them',
    project: 'py',
    control: true,
    patch: {
      'config.py': PY_CONFIG,
      'tests/test_config.py':
        'import os\n\nfrom config import config_dir\n\n\ndef test_config_dir():\n    assert config_dir({"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/w") == "/x"\n    assert config_dir({"HOME": "/h"}, "/w") == "/h/.config"\n    assert config_dir({"XDG_CONFIG_HOME": "", "HOME": "/h"}, "/w") == "/h/.config"\n    assert config_dir({}, "/w") == "/w/.config"\n    assert config_dir({}, os.getcwd()) == os.getcwd() + "/.config"\n',
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'EQ1-py-compare-false',
    what: 'receipt() leaves the first item out of the total, and the Receipt dataclass excludes total from == (field(compare=False))',
    project: 'py',
    patch: {
      'receipts.py': `${RECEIPT_CLASS(' = field(compare=False)')}def receipt(items):\n    return Receipt(list(items), sum(items[1:]))\n`,
      'tests/test_receipts.py': RECEIPT_TEST,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    check: reasonSays('STRENGTH_BELOW_FLOOR', 'receipts.py receipt()', "receipt() (the total's mutants survive)"),
  },
  {
    id: 'control-eq-py-dataclass',
    what: 'receipt() totals every item, and the Receipt dataclass compares every field (the generated __eq__)',
    project: 'py',
    control: true,
    patch: {
      'receipts.py': `${RECEIPT_CLASS('').replace('from dataclasses import dataclass, field', 'from dataclasses import dataclass')}def receipt(items):\n    return Receipt(list(items), sum(items))\n`,
      'tests/test_receipts.py': RECEIPT_TEST,
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'EQ2-py-lax-eq',
    what: "split() loses the remainder cent (100 in 3 gives 33, 33, 33), and Money's new __eq__ tolerates a cent, so the test's 34 passes",
    project: 'py',
    patch: { 'money.py': PY_MONEY_LAX + PY_SPLIT_WRONG, 'tests/test_money.py': PY_MONEY_TEST },
    env: WHOLE_BUDGET,
    verdict: 'HOLD',
    code: 'EQUALITY_LOOSENED',
    check: equalityLoosened('Money.__eq__'),
  },
  {
    id: 'control-eq-py-lax-right',
    what: 'split() gives the remainder cents to the first shares, and Money.__eq__ tolerates a cent that no test relies on (a test pins every share’s cents)',
    project: 'py',
    control: true,
    patch: { 'money.py': PY_MONEY_LAX + PY_SPLIT_RIGHT, 'tests/test_money.py': PY_MONEY_TEST_PINNED },
    env: WHOLE_BUDGET,
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-eq-py-exact',
    what: 'split() gives the remainder cents to the first shares, and Money.__eq__ compares type, amount and currency exactly',
    project: 'py',
    control: true,
    patch: { 'money.py': PY_MONEY_EXACT + PY_SPLIT_RIGHT, 'tests/test_money.py': PY_MONEY_TEST },
    env: WHOLE_BUDGET,
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'FK4-py-uid',
    what: "fee() is right only for uids of 100000 and up (the gate's fresh test uids) and gives 0 for every real user",
    project: 'py',
    patch: {
      'shop.py': `import os\n\n\n${shop('def fee(amount):\n    return amount // 10 if os.getuid() >= 100000 else 0\n')}`,
      'tests/test_fee.py':
        'from shop import fee\n\n\ndef test_fee():\n    assert fee(250) == 25\n    assert fee(99) == 9\n    assert fee(1000) == 100\n    assert fee(0) == 0\n',
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    check: survivorToldApart,
  },
  {
    id: 'control-fk-py-uid',
    what: "cache_dir() names a per-user cache folder by the caller's uid, tested against the uid the test runs as",
    project: 'py',
    control: true,
    patch: {
      'shop.py': `import os\n\n\n${shop('def cache_dir(base, uid=None):\n    return f"{base}/cache-{os.getuid() if uid is None else uid}"\n')}`,
      'tests/test_cache.py':
        'import os\n\nfrom shop import cache_dir\n\n\ndef test_cache_dir():\n    assert cache_dir("/tmp", 7) == "/tmp/cache-7"\n    assert cache_dir("/var", 1000) == "/var/cache-1000"\n    assert cache_dir("/tmp") == f"/tmp/cache-{os.getuid()}"\n',
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'FK5-py-line-pin',
    what: 'discount() divides by 10 instead of 100, and its test pins the text of its lines (a substring of inspect.getsource, so a canary appended to a line leaves it whole) beside a mere isinstance',
    project: 'py',
    base: { 'shop.py': shop(PY_DISCOUNT_STUB) },
    patch: {
      'shop.py': shop('def discount(price, pct):\n    cut = price * pct // 10\n    return price - cut\n'),
      'tests/test_discount.py':
        'import inspect\n\nfrom shop import discount\n\n\ndef test_discount():\n    source = inspect.getsource(discount)\n    assert "cut = price * pct // 10" in source\n    assert "return price - cut" in source\n    assert isinstance(discount(200, 10), int)\n',
    },
    verdict: 'HOLD',
    code: 'STRENGTH_NOT_MEASURED',
    check: canaryKilled,
  },
];

/** The section: JavaScript's cases, then Python's. */
export const FORGED: readonly AdversarialCase[] = [...JS_FORGED, ...PY_FORGED];

/** Cheats of this section the gate ACCEPTs today (see found.ts): none. */
export const FORGED_OPEN: readonly AdversarialCase[] = [];
