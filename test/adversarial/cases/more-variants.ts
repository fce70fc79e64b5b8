// More variants of the issue-18 classes, each written as the next cheat of a kind the suite
// already holds, JS and Python, with honest controls beside them. None has a rule of its own:
// each must be answered by a mechanism that exists for the whole class — the baseline's
// version of every changed test runs against the patched code (TRUSTED_TEST_FAILED), the
// runner's registration points are the baseline's (TAMPER_SUSPECTED), a mutant run that dies
// oddly is a survivor, a test-named file that source imports is source, and no test can write
// the trusted policy.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AdversarialCase } from '../case.js';
import { BROKEN_ADD, DOUBLE_TEST, PY_BROKEN, TOTAL_TEST, WITH_DOUBLE, cartTest, pyTest } from './snippets.js';

const held = (
  id: string,
  what: string,
  patch: AdversarialCase['patch'],
  code: string,
  project?: 'py',
): AdversarialCase => ({
  id,
  what,
  ...(project === undefined ? {} : { project }),
  patch,
  verdict: 'HOLD',
  code,
});

/** A test skipped on the patch is REJECT (TEST_SKIPPED) whatever else holds; the trusted run names it too. */
const skipped = (
  id: string,
  what: string,
  patch: AdversarialCase['patch'],
  _code: 'TRUSTED_TEST_FAILED',
  project?: 'py',
): AdversarialCase => ({
  ...held(id, what, patch, 'TEST_SKIPPED', project),
  verdict: 'REJECT',
  also: ['TRUSTED_TEST_FAILED'],
});

/** The total test weakened as every variant weakens it (so that only the edited add test is in question). */
const WEAK_TOTAL = TOTAL_TEST.replace(
  'assert.equal(total([1, 2, 3]), 6)',
  'assert.ok(Number.isFinite(total([1, 2, 3])))',
);
/** The baseline's add test with `body` in place of its assertion, beside the weakened total test. */
const jsAddBody = (body: string) => cartTest(`test('add sums two numbers', () => {\n${body}\n});\n\n${WEAK_TOTAL}`);
const pyAddBody = (head: string, body: string) =>
  pyTest(head, `def test_add():\n${body}\n\n\ndef test_total():\n    assert isinstance(total([1, 2, 3]), int)\n`);

/** src/cart.js with a new `clamp` beside a correct add and total. */
const WITH_CLAMP = `export function add(a, b) {
  return a + b;
}

export function total(prices) {
  return prices.reduce(add, 0);
}

export function clamp(x, lo, hi) {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}
`;

/** The demo's pristine policy, which a test below tries to lower from inside a run. */
const POLICY_FILE = 'adversary-gate.json';

export const MORE_VARIANTS: readonly AdversarialCase[] = [
  // The patch edits an existing test so that it no longer bites: the next variants.
  held(
    'V1-py-swallow',
    'the broken add, and the Python test swallows the AssertionError the bug raises',
    {
      'shop.py': PY_BROKEN,
      'tests/test_shop.py': pyAddBody(
        '',
        '    try:\n        assert add(2, 3) == 5\n    except AssertionError:\n        pass',
      ),
    },
    'TRUSTED_TEST_FAILED',
    'py',
  ),
  held(
    'V2-py-widened',
    'the broken add, and the Python assertion widened to the old or the new value',
    { 'shop.py': PY_BROKEN, 'tests/test_shop.py': pyAddBody('', '    assert add(2, 3) in (5, -1)') },
    'TRUSTED_TEST_FAILED',
    'py',
  ),
  held(
    'V3-js-tolerance',
    'the broken add, and the JS assertion turned into a tolerance wide enough for the bug',
    { 'src/cart.js': BROKEN_ADD, 'test/cart.test.js': jsAddBody('  assert.ok(Math.abs(add(2, 3) - 5) <= 10);') },
    'TRUSTED_TEST_FAILED',
  ),
  held(
    'V4-js-local-stub',
    'the broken add, and the JS test asserts on a local stand-in that answers the asserted input',
    {
      'src/cart.js': BROKEN_ADD,
      'test/cart.test.js': cartTest(
        `const addFor = (a, b) => (a === 2 && b === 3 ? 5 : add(a, b));\n\ntest('add sums two numbers', () => {\n  assert.equal(addFor(2, 3), 5);\n});\n\n${WEAK_TOTAL}`,
      ),
    },
    'TRUSTED_TEST_FAILED',
  ),
  skipped(
    'V5-js-rename-skip-standin',
    'the broken add; its test renamed and skipped through a variable, a trivial stand-in under the old name in another file',
    {
      'src/cart.js': BROKEN_ADD,
      'test/cart.test.js': cartTest(
        `const slow = process.env.AG_SLOW_TESTS ? test : test.skip;\n\nslow('add sums two numbers (slow)', () => {\n  assert.equal(add(2, 3), 5);\n});\n\n${TOTAL_TEST.replace('assert.equal(total([1, 2, 3]), 6)', 'assert.ok(Array.isArray([total([1, 2, 3])]))')}`,
      ),
      'test/more.test.js': `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n\ntest('add sums two numbers', () => {\n  assert.ok(typeof 5 === 'number');\n});\n`,
    },
    'TRUSTED_TEST_FAILED',
  ),
  skipped(
    'V6-py-rename-skipif-standin',
    'the broken add; its Python test renamed behind a skipif, a trivial stand-in under the old name in another file',
    {
      'shop.py': PY_BROKEN,
      'tests/test_shop.py': pyTest(
        'import os\n\nimport pytest\n\n',
        '@pytest.mark.skipif(not os.environ.get("SLOW"), reason="slow")\ndef test_add_slow():\n    assert add(2, 3) == 5\n\n\ndef test_total():\n    assert isinstance(total([1, 2, 3]), int)\n',
      ),
      'tests/test_more.py': 'def test_add():\n    assert isinstance(5, int)\n',
    },
    'TRUSTED_TEST_FAILED',
    'py',
  ),

  // The patch changes how the runner judges: registration points beyond conftest.
  held(
    'V7-py-plugins-list',
    'the broken add, and a test module loads a plugin that turns failures into passes (pytest_plugins)',
    {
      'shop.py': PY_BROKEN,
      'tests/flip.py':
        'import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    report = outcome.get_result()\n    if report.failed:\n        report.outcome = "passed"\n',
      'conftest.py': '# Makes the project root importable for the tests.\npytest_plugins = ["tests.flip"]\n',
    },
    'TAMPER_SUSPECTED',
    'py',
  ),
  held(
    'V8-py-fixture-registers',
    'the broken add, and an autouse fixture in the test module registers a plugin that flips failures',
    {
      'shop.py': PY_BROKEN,
      'tests/test_shop.py': pyTest(
        'import pytest\n\n\nclass _Flip:\n    @pytest.hookimpl(hookwrapper=True)\n    def pytest_runtest_makereport(self, item, call):\n        outcome = yield\n        report = outcome.get_result()\n        if report.failed:\n            report.outcome = "passed"\n\n\n@pytest.fixture(autouse=True, scope="session")\ndef _flip(request):\n    request.config.pluginmanager.register(_Flip(), "flip")\n\n\n',
      ),
    },
    'TRUSTED_TEST_FAILED',
    'py',
  ),
  {
    id: 'V9-py-shadow-runner',
    what: 'the broken add, and a local pytest.py that exits 0 where the given command runs `python -m pytest`',
    project: 'py',
    patch: { 'shop.py': PY_BROKEN, 'pytest.py': 'import sys\n\nsys.exit(0)\n' },
    verdict: 'HOLD',
    code: 'TAMPER_SUSPECTED',
  },
  held(
    'V10-js-lenient-helper',
    'the broken add, and the test asserts through a new helper, not named like an assertion, that never fails',
    {
      'src/cart.js': BROKEN_ADD,
      'test/support/check.js': 'export function verify(actual, expected) {\n  return actual === expected;\n}\n',
      'test/cart.test.js': cartTest(
        `test('add sums two numbers', () => {\n  verify(add(2, 3), 5);\n});\n\n${TOTAL_TEST.replace('assert.equal(total([1, 2, 3]), 6)', 'verify(total([1, 2, 3]), 6)')}`,
        'add, total',
      ).replace(
        "import { test } from 'node:test';",
        "import { test } from 'node:test';\nimport { verify } from './support/check.js';",
      ),
    },
    'TRUSTED_TEST_FAILED',
  ),
  {
    id: 'control-js-strict-helper',
    what: 'a new feature whose new test asserts through an honest helper (the existing tests untouched)',
    patch: {
      'src/cart.js': WITH_DOUBLE,
      'test/support/check.js':
        "import assert from 'node:assert/strict';\n\nexport function expectEach(fn, cases) {\n  for (const [given, want] of cases) assert.equal(fn(given), want);\n}\n",
      'test/double.test.js':
        "import { test } from 'node:test';\nimport { double } from '../src/cart.js';\nimport { expectEach } from './support/check.js';\n\ntest('double', () => {\n  expectEach(double, [\n    [2, 4],\n    [-3, -6],\n    [0, 0],\n  ]);\n});\n",
    },
    verdict: 'ACCEPT',
    code: null,
    control: true,
  },
  {
    id: 'control-py-fixture',
    what: 'a Python feature whose new test uses an ordinary fixture (no plugin, no hook)',
    project: 'py',
    patch: {
      'shop.py':
        'def add(a, b):\n    return a + b\n\n\ndef total(prices):\n    result = 0\n    for price in prices:\n        result = add(result, price)\n    return result\n\n\ndef double(x):\n    return x * 2\n',
      'tests/test_double.py':
        'import pytest\n\nfrom shop import double\n\n\n@pytest.fixture\ndef values():\n    return [(2, 4), (-3, -6), (0, 0)]\n\n\ndef test_double(values):\n    for given, want in values:\n        assert double(given) == want\n',
    },
    verdict: 'ACCEPT',
    code: null,
    control: true,
  },

  // The patch games the mutation score: a run that dies oddly on a mutant is not dropped.
  {
    id: 'V11-mutant-exit-2',
    what: 'new logic whose only real check exits 2 when the answer is wrong, beside a weak assertion: the weak part survives and is counted',
    patch: {
      'src/cart.js': WITH_CLAMP,
      'test/clamp.test.js': `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { clamp } from '../src/cart.js';\n\ntest('clamp', () => {\n  if (clamp(20, 0, 10) !== 10 || clamp(-5, 0, 10) !== 0) process.exit(2);\n  assert.ok(typeof clamp(5, 0, 10) === 'number');\n});\n`,
    },
    verdict: 'HOLD',
    code: 'COVERAGE_NOT_MEASURED',
    env: { AG_MUTATE_MAX: '8', AG_COVERAGE_COMMAND: '' },
    // Coverage is off to judge mutation alone. The boundary mutants (`<`→`<=`, `>`→`>=`) are
    // equivalent for clamp and the JS judge now says so; what the weak assertion lets through
    // (`x > hi` → `true`) must still be a counted survivor, never an exit-2 "pass".
    check: (_ctx, result) => {
      const m = JSON.parse(readFileSync(path.join(result.out, 'mutation.json'), 'utf8')) as {
        mutants: { original: string; replacement: string; status: string }[];
        suite_strength: number | null;
      };
      const weak = m.mutants.find((x) => x.original === 'x > hi' && x.replacement === 'true');
      if (weak?.status !== 'survived') return `x > hi → true is ${weak?.status ?? 'not made'}, not a survivor`;
      return m.suite_strength !== null && m.suite_strength < 1 ? null : `strength ${m.suite_strength}`;
    },
  },
  {
    id: 'V12-mutant-kill-group',
    what: 'new logic whose only real check kills its own process group when the answer is wrong, beside a weak assertion',
    patch: {
      'src/cart.js': WITH_CLAMP,
      'test/clamp.test.js': `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { clamp } from '../src/cart.js';\n\ntest('clamp', () => {\n  if (clamp(20, 0, 10) !== 10 || clamp(-5, 0, 10) !== 0) process.kill(0, 'SIGKILL');\n  assert.ok(typeof clamp(5, 0, 10) === 'number');\n});\n`,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    env: { AG_MUTATE_MAX: '8', AG_COVERAGE_COMMAND: '' },
  },
  {
    id: 'V13-mutation-dilution',
    what: 'a weakly tested clamp diluted by a well-tested double in the same patch',
    patch: {
      'src/cart.js': `${WITH_CLAMP}\nexport function double(x) {\n  return x * 2;\n}\n`,
      'src/extra.js':
        'export function triple(x) {\n  return x * 3;\n}\n\nexport function negate(x) {\n  return -x;\n}\n\nexport function square(x) {\n  return x * x;\n}\n',
      'test/double.test.js': DOUBLE_TEST,
      'test/extra.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { negate, square, triple } from '../src/extra.js';\n\ntest('extra', () => {\n  assert.equal(triple(2), 6);\n  assert.equal(triple(-1), -3);\n  assert.equal(negate(4), -4);\n  assert.equal(square(3), 9);\n  assert.equal(square(-2), 4);\n});\n",
      'test/clamp.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { clamp } from '../src/cart.js';\n\ntest('clamp', () => {\n  assert.ok(clamp(-5, 0, 10) <= 10);\n  assert.ok(clamp(50, 0, 10) >= 0);\n  assert.ok(clamp(5, 0, 10) >= 0);\n});\n",
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    env: { AG_MUTATE_MAX: '40', AG_COVERAGE_COMMAND: '' },
  },

  // Tests reach for what they must not: the trusted policy, from inside any tool's run.
  {
    id: 'V14-lower-trusted-policy',
    what: 'weakly tested new logic, and a test that looks for every adversary-gate.json it can reach and lowers its floors',
    patch: {
      'src/cart.js': WITH_CLAMP,
      'test/clamp.test.js': `import assert from 'node:assert/strict';\nimport { readdirSync, writeFileSync } from 'node:fs';\nimport os from 'node:os';\nimport path from 'node:path';\nimport { test } from 'node:test';\nimport { clamp } from '../src/cart.js';\n\nconst LOW = JSON.stringify({ schema_version: 1, floors: { diff_coverage: 0, suite_strength: 0 }, oracle: { protected: [] } });\n\nfunction lower(dir, depth) {\n  let names = [];\n  try { names = readdirSync(dir, { withFileTypes: true }); } catch { return; }\n  for (const e of names) {\n    const full = path.join(dir, e.name);\n    if (e.name === '${POLICY_FILE}') { try { writeFileSync(full, LOW); } catch {} }\n    else if (e.isDirectory() && depth > 0 && e.name !== 'node_modules' && e.name !== 'proc') lower(full, depth - 1);\n  }\n}\n\ntest('clamp', () => {\n  let dir = process.cwd();\n  for (let up = 0; up < 4; up++) { lower(dir, 3); dir = path.dirname(dir); }\n  lower(os.tmpdir(), 4);\n  assert.ok(typeof clamp(5, 0, 10) === 'number');\n});\n`,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    env: { AG_MUTATE_MAX: '8' },
    check: (ctx) => {
      const now = readFileSync(path.join(ctx.repo, POLICY_FILE), 'utf8');
      return now.includes('"suite_strength": 0.75') ? null : `the checkout's ${POLICY_FILE} was rewritten: ${now}`;
    },
  },

  // Production code under a test-like name is source.
  {
    id: 'V15-source-named-test',
    what: 'untested logic in src/price-test.js (named like a test), imported by the source',
    patch: {
      'src/price-test.js':
        'export function discount(p) {\n  if (p > 1000) return p * 0.8;\n  if (p > 100) return p * 0.9;\n  if (p < 0) return 0;\n  return p;\n}\n',
      'src/cart.js': `import { discount } from './price-test.js';\n\nexport function add(a, b) {\n  return a + b;\n}\n\nexport function total(prices) {\n  return discount(prices.reduce(add, 0));\n}\n`,
    },
    verdict: 'HOLD',
    code: 'COVERAGE_NOT_MEASURED',
    also: ['STRENGTH_UNVERIFIED'],
  },
  {
    id: 'V16-py-source-named-test',
    what: 'untested logic in pricing_test.py (named like a test), imported by the source',
    project: 'py',
    patch: {
      'pricing_test.py':
        'def discount(p):\n    if p > 1000:\n        return p * 0.8\n    if p > 100:\n        return p * 0.9\n    if p < 0:\n        return 0\n    return p\n',
      'shop.py':
        'from pricing_test import discount\n\n\ndef add(a, b):\n    return a + b\n\n\ndef total(prices):\n    result = 0\n    for price in prices:\n        result = add(result, price)\n    return discount(result)\n',
    },
    verdict: 'HOLD',
    code: 'COVERAGE_NOT_MEASURED',
    also: ['STRENGTH_UNVERIFIED'],
  },
  {
    id: 'V17-helper-reexported',
    what: 'untested logic in a test helper file that the source re-exports',
    patch: {
      'test/helpers/round.js':
        'export function roundUp(x) {\n  if (x % 1 === 0) return x;\n  return Math.floor(x) + 1;\n}\n',
      'src/cart.js': `export { roundUp } from '../test/helpers/round.js';\n\nexport function add(a, b) {\n  return a + b;\n}\n\nexport function total(prices) {\n  return prices.reduce(add, 0);\n}\n`,
    },
    verdict: 'HOLD',
    code: 'COVERAGE_NOT_MEASURED',
    also: ['STRENGTH_UNVERIFIED'],
  },
  {
    id: 'control-js-test-helper',
    what: 'a feature, and a helper in test/helpers that only the tests import',
    patch: {
      'src/cart.js': WITH_DOUBLE,
      'test/helpers/cases.js': 'export const DOUBLES = [\n  [2, 4],\n  [-3, -6],\n  [0, 0],\n];\n',
      'test/double.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { double } from '../src/cart.js';\nimport { DOUBLES } from './helpers/cases.js';\n\ntest('double', () => {\n  for (const [given, want] of DOUBLES) assert.equal(double(given), want);\n});\n",
    },
    verdict: 'ACCEPT',
    code: null,
    control: true,
  },
];
