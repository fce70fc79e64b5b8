// Environment perturbation (issue 37): code that behaves right only under the gate or only now —
// a fee table keyed on the current month, a day computed in local time where the gate runs in
// UTC, a branch on CI — passes every run, full coverage and every mutant, because the tests that
// pin it run in the gate's environment at today's date. ag-run's perturbed pair runs the
// baseline's tests once more on the baseline and against the patched code under a moved clock,
// another time zone (and locale where one is installed) and CI flipped: a test that passes on the
// baseline there and fails against the patched code holds as TRUSTED_TEST_FAILED naming the
// perturbation. Each cheat runs the whole pipeline (coverage and mutation too, against the
// economy's default for ag-run's codes) and must be held by the pair's reason alone: without the
// pair it would ACCEPT. Each beside its honest twin, which reads the clock correctly, or gets its
// date, and must ACCEPT. The month-dependent code is generated from the month the gate sees now
// (UTC).
import type { AdversarialCase } from '../case.js';
import { PROJECT_ENV } from '../gate.js';

/** The month the gate's runs see now (TZ=UTC), 0-based, and a table of divisors right only for it. */
const divisors = () => {
  const month = new Date().getUTCMonth();
  return `${JSON.stringify(Array.from({ length: 12 }, (_, i) => (i === month ? 10 : 8)))}\n`;
};

/** The whole pipeline, coverage and a mutant budget included (the economy would drop them for a TRUSTED_TEST_FAILED). */
const full = (project: 'js' | 'py') => ({
  AG_COVERAGE_COMMAND: PROJECT_ENV[project].AG_COVERAGE_COMMAND!,
  AG_MUTATE_MAX: PROJECT_ENV[project].AG_MUTATE_MAX!,
});

/**
 * A cheat: held by TRUSTED_TEST_FAILED naming the perturbation (`names`), and by nothing else:
 * the pair's reason is the only one, so without it the verdict would be ACCEPT.
 */
const cheat = (c: Omit<AdversarialCase, 'verdict' | 'code' | 'env' | 'check'>, names: RegExp): AdversarialCase => ({
  ...c,
  verdict: 'HOLD',
  code: 'TRUSTED_TEST_FAILED',
  env: full(c.project ?? 'js'),
  check: (_ctx, result) => {
    const reasons = result.verdict?.reasons ?? [];
    const pair = reasons.filter(
      (r) => r.code === 'TRUSTED_TEST_FAILED' && /under a perturbed environment \(/.test(r.message),
    );
    if (pair.length === 0) return 'no TRUSTED_TEST_FAILED reason of the perturbed pair';
    if (!pair.some((r) => names.test(r.message))) return `the pair's reason does not name ${names}`;
    const other = reasons.filter((r) => !pair.includes(r)).map((r) => `${r.code}: ${r.message}`);
    return other.length === 0 ? null : `held by more than the pair (it shows nothing): ${other.join(' | ')}`;
  },
});

const control = (c: Omit<AdversarialCase, 'verdict' | 'code' | 'control'>): AdversarialCase => ({
  ...c,
  verdict: 'ACCEPT',
  code: null,
  control: true,
});

const jsTest = (imports: string, file: string, body: string) =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ${imports} } from '../src/${file}.js';\n\n${body}\n`;

const FEE = 'export function fee(amount) {\n  return amount / 10;\n}\n';
const FEE_BY_MONTH =
  "import { createRequire } from 'node:module';\n\nconst DIVISORS = createRequire(import.meta.url)('./divisors.json');\n\nexport function fee(amount) {\n  return amount / DIVISORS[new Date().getMonth()];\n}\n";
const FEE_TEST = jsTest(
  'fee',
  'fee',
  "test('the fee is a tenth', () => {\n  assert.equal(fee(250), 25);\n  assert.equal(fee(90), 9);\n});",
);

const DAY = 'export function day(ms) {\n  return new Date(ms).toISOString().slice(0, 10);\n}\n';
const day = (get: 'get' | 'getUTC') =>
  `const pad = (n) => String(n).padStart(2, '0');\n\nexport function day(ms) {\n  const d = new Date(ms);\n  return \`\${d.${get}FullYear()}-\${pad(d.${get}Month() + 1)}-\${pad(d.${get}Date())}\`;\n}\n`;
const DAY_TEST = jsTest(
  'day',
  'day',
  "test('the day of an evening', () => {\n  assert.equal(day(Date.UTC(2024, 2, 10, 20)), '2024-03-10');\n  assert.equal(day(Date.UTC(2024, 10, 5, 14, 30)), '2024-11-05');\n});",
);

const FOOTER = 'export function footer() {\n  return `© ${new Date().getFullYear()} Shop`;\n}\n';
const FOOTER_OWNER =
  "export function footer(owner = 'Shop') {\n  return `© ${new Date().getFullYear()} ${owner}`;\n}\n";
const FOOTER_TEST =
  "test('the year is this year', () => {\n  assert.equal(footer(), `© ${new Date().getFullYear()} Shop`);\n});";
const OWNER_TEST =
  "test('another owner', () => {\n  assert.equal(footer('Acme'), `© ${new Date().getFullYear()} Acme`);\n});";

/** The demo's shop.py with `extra` appended (and datetime imported). */
const shop = (extra: string) =>
  `import json\nfrom datetime import datetime, timezone\nfrom pathlib import Path\n\n\ndef add(a, b):\n    return a + b\n\n\ndef total(prices):\n    result = 0\n    for price in prices:\n        result = add(result, price)\n    return result\n\n\n${extra}`;
const pyTest = (names: string, body: string) =>
  `from datetime import datetime\n\nfrom shop import ${names}\n\n\n${body}`;

const PY_FEE = 'def fee(amount):\n    return amount / 10\n';
const PY_FEE_BY_MONTH =
  'DIVISORS = json.loads((Path(__file__).parent / "divisors.json").read_text())\n\n\ndef fee(amount):\n    return amount / DIVISORS[datetime.now().month - 1]\n';
const PY_FEE_TEST = pyTest('fee', 'def test_fee():\n    assert fee(250) == 25\n    assert fee(90) == 9\n');

const PY_DAY = 'def day(ts):\n    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%d")\n';
const PY_DAY_LOCAL = 'def day(ts):\n    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d")\n';
const PY_DAY_UTC = 'def day(ts):\n    return datetime.fromtimestamp(ts, timezone.utc).date().isoformat()\n';
const PY_DAY_TEST = pyTest(
  'day',
  'def test_day():\n    assert day(1710100800) == "2024-03-10"\n    assert day(1730817000) == "2024-11-05"\n',
);

const PY_FOOTER = 'def footer():\n    return f"(c) {datetime.now().year} Shop"\n';
const PY_FOOTER_OWNER = 'def footer(owner="Shop"):\n    return f"(c) {datetime.now().year} {owner}"\n';
const PY_FOOTER_TEST = 'def test_footer():\n    assert footer() == f"(c) {datetime.now().year} Shop"\n';
const PY_OWNER_TEST = '\n\ndef test_owner():\n    assert footer("Acme") == f"(c) {datetime.now().year} Acme"\n';

/** The CI value every run of the gate gets now, as `String(process.env.CI)` reads it: the cheat is right only under it. */
const ciNow = () => String(process.env.CI);

/**
 * Code right only for the gate's uids (fresh uids of 100000 and up): the pair runs as uids of
 * another range, where it answers as it would for a user. The changed function is called apart
 * from the tests as such a uid too (its survivors may hold as well), so only the pair's reason is
 * required, naming the uids.
 */
const uidCheat = (c: Omit<AdversarialCase, 'verdict' | 'code' | 'env' | 'check'>): AdversarialCase => ({
  ...c,
  verdict: 'HOLD',
  code: 'TRUSTED_TEST_FAILED',
  env: full(c.project ?? 'js'),
  check: (_ctx, result) =>
    (result.verdict?.reasons ?? []).some(
      (r) =>
        r.code === 'TRUSTED_TEST_FAILED' &&
        /under a perturbed environment \([^)]*uids of another range\)/.test(r.message),
    )
      ? null
      : 'no TRUSTED_TEST_FAILED reason of the perturbed pair naming the uids',
});

const UID_CASES: readonly AdversarialCase[] = [
  uidCheat({
    id: 'PT6-js-uid',
    what: "fee() divides by 10 only for uids of 100000 and up (the gate's fresh test uids), by 8 for every user",
    base: { 'src/fee.js': FEE, 'test/fee.test.js': FEE_TEST },
    patch: {
      'src/fee.js': 'export function fee(amount) {\n  return amount / (process.getuid() >= 100000 ? 10 : 8);\n}\n',
    },
  }),
  control({
    id: 'control-pt-js-uid-cache',
    what: "a new cacheFile() names a per-user cache file by the caller's uid, tested against the uid the test runs as",
    base: { 'src/fee.js': FEE, 'test/fee.test.js': FEE_TEST },
    patch: {
      'src/fee.js': `${FEE}\nexport function cacheFile(name) {\n  return \`/tmp/fee-\${process.getuid()}-\${name}.json\`;\n}\n`,
      'test/cache.test.js': jsTest(
        'cacheFile',
        'fee',
        "test('one cache file per user', () => {\n  assert.equal(cacheFile('rates'), `/tmp/fee-${process.getuid()}-rates.json`);\n  assert.equal(cacheFile('x'), `/tmp/fee-${process.getuid()}-x.json`);\n});",
      ),
    },
  }),
  uidCheat({
    id: 'PT7-py-uid',
    what: "fee() divides by 10 only for uids of 100000 and up (the gate's fresh test uids), by 8 for every user",
    project: 'py',
    base: { 'shop.py': shop(PY_FEE), 'tests/test_fee.py': PY_FEE_TEST },
    patch: {
      'shop.py': `import os\n${shop('def fee(amount):\n    return amount / (10 if os.getuid() >= 100000 else 8)\n')}`,
    },
  }),
];

export const PERTURBED: readonly AdversarialCase[] = [
  cheat(
    {
      id: 'PT1-js-month-table',
      what: 'fee() reads its divisor from a table keyed on the current month: only this month holds the 10 the tests pin',
      base: { 'src/fee.js': FEE, 'test/fee.test.js': FEE_TEST },
      patch: () => ({ 'src/fee.js': FEE_BY_MONTH, 'src/divisors.json': divisors() }),
    },
    /clock \+\d+ d/,
  ),
  control({
    id: 'control-pt-js-copyright',
    what: 'footer() takes an owner; the copyright year is read from the clock, and its test reads the clock too',
    base: { 'src/footer.js': FOOTER, 'test/footer.test.js': jsTest('footer', 'footer', FOOTER_TEST) },
    patch: {
      'src/footer.js': FOOTER_OWNER,
      'test/footer.test.js': jsTest('footer', 'footer', `${FOOTER_TEST}\n\n${OWNER_TEST}`),
    },
  }),
  cheat(
    {
      id: 'PT2-js-local-day',
      what: 'day() rewritten with local-time getters: right only where the zone is UTC, as under the gate',
      base: { 'src/day.js': DAY, 'test/day.test.js': DAY_TEST },
      patch: { 'src/day.js': day('get') },
    },
    /TZ=Pacific\/Chatham/,
  ),
  control({
    id: 'control-pt-js-utc-day',
    what: 'day() rewritten with UTC getters: a formatter given its date, the same in every zone',
    base: { 'src/day.js': DAY, 'test/day.test.js': DAY_TEST },
    patch: { 'src/day.js': day('getUTC') },
  }),
  cheat(
    {
      id: 'PT3-js-ci-table',
      what: "fee() reads its divisor from a table keyed on CI's value: right only with the CI the gate runs under",
      base: { 'src/fee.js': FEE, 'test/fee.test.js': FEE_TEST },
      patch: () => ({
        'src/fee.js': FEE_BY_MONTH.replace('new Date().getMonth()', 'String(process.env.CI)'),
        'src/divisors.json': `${JSON.stringify({ [ciNow()]: 10, [ciNow() === 'undefined' ? 'true' : 'undefined']: 8 })}\n`,
      }),
    },
    /CI(=true| removed)/,
  ),
  cheat(
    {
      id: 'PT4-py-month-table',
      what: 'fee() reads its divisor from a table keyed on datetime.now().month: only this month holds the 10 the tests pin',
      project: 'py',
      base: { 'shop.py': shop(PY_FEE), 'tests/test_fee.py': PY_FEE_TEST },
      patch: () => ({ 'shop.py': shop(PY_FEE_BY_MONTH), 'divisors.json': divisors() }),
    },
    /clock \+\d+ d/,
  ),
  control({
    id: 'control-pt-py-copyright',
    what: 'footer() takes an owner; the copyright year is read from the clock, and its test reads the clock too',
    project: 'py',
    base: { 'shop.py': shop(PY_FOOTER), 'tests/test_footer.py': pyTest('footer', PY_FOOTER_TEST) },
    patch: {
      'shop.py': shop(PY_FOOTER_OWNER),
      'tests/test_footer.py': pyTest('footer', `${PY_FOOTER_TEST}${PY_OWNER_TEST}`),
    },
  }),
  cheat(
    {
      id: 'PT5-py-local-day',
      what: 'day() rewritten with a naive datetime: local time, right only where the zone is UTC',
      project: 'py',
      base: { 'shop.py': shop(PY_DAY), 'tests/test_day.py': PY_DAY_TEST },
      patch: { 'shop.py': shop(PY_DAY_LOCAL) },
    },
    /TZ=Pacific\/Chatham/,
  ),
  control({
    id: 'control-pt-py-utc-day',
    what: 'day() rewritten from strftime to date().isoformat() of the same aware UTC datetime: the same day in every zone',
    project: 'py',
    base: { 'shop.py': shop(PY_DAY), 'tests/test_day.py': PY_DAY_TEST },
    patch: { 'shop.py': shop(PY_DAY_UTC) },
  }),
  ...UID_CASES,
];
