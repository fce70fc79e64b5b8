// Catalogue section B: runner, exit code and report gaming.
import type { AdversarialCase } from '../case.js';
import { ADD_TEST, BROKEN_ADD, PY_BROKEN, PY_TESTS, TOTAL_TEST, cartTest, pyTest } from './snippets.js';

/** A pytest module that, at interpreter exit, forges a passing JUnit report, prints a passing summary and exits 0. */
export const FORGE_AT_EXIT = `import atexit, os


def _forge():
    with open(".ag-junit.xml", "w") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="2" time="0.01">'
                '<testcase classname="tests.test_shop" name="test_add" time="0.001"/>'
                '<testcase classname="tests.test_shop" name="test_total" time="0.001"/></testsuite></testsuites>')
    print("============================== 2 passed in 0.01s ===============================", flush=True)
    os._exit(0)


atexit.register(_forge)
`;

export const RUNNER_GAMING: readonly AdversarialCase[] = [
  {
    id: 'B19',
    what: 'process.exit(0) inside a test hides the failures after it',
    patch: {
      'src/cart.js': BROKEN_ADD,
      'test/cart.test.js': cartTest(
        `test('exit early', () => {\n  process.exit(0);\n});\n\n${ADD_TEST}\n\n${TOTAL_TEST}`,
      ),
    },
    verdict: 'REJECT',
    code: 'TEST_LOST',
  },
  {
    id: 'B20',
    what: 'os._exit(0) inside a pytest test: no report, exit 0',
    project: 'py',
    patch: {
      'shop.py': PY_BROKEN,
      'tests/test_shop.py': pyTest('import os\n', `def test_aaa_exit():\n    os._exit(0)\n\n\n${PY_TESTS}`),
    },
    verdict: 'HOLD',
    code: 'CLAIM_UNVERIFIED',
  },
  {
    id: 'B21',
    what: 'process.exit(0) at import time of the module the tests import',
    patch: { 'src/cart.js': `process.exit(0);\n\n${BROKEN_ADD}` },
    verdict: 'REJECT',
    code: 'TEST_LOST',
  },
  {
    id: 'B21-py',
    what: 'sys.exit(0) at import time of the module the tests import (pytest)',
    project: 'py',
    patch: { 'shop.py': `import sys\n\nsys.exit(0)\n\n\n${PY_BROKEN}` },
    // The tests exist and could not be collected: not lost, and never a pass.
    verdict: 'HOLD',
    code: 'CLAIM_UNVERIFIED',
  },
  {
    id: 'B22',
    what: "a test file forces its exit code to 0 (process.on('exit'))",
    patch: {
      'src/cart.js': BROKEN_ADD,
      'test/cart.test.js': cartTest(
        `process.on('exit', () => {\n  process.exitCode = 0;\n});\n\n${ADD_TEST}\n\n${TOTAL_TEST}`,
      ),
    },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    id: 'B22-py',
    what: 'atexit + os._exit(0) turns failing pytest into exit 0',
    project: 'py',
    patch: {
      'shop.py': PY_BROKEN,
      'tests/test_shop.py': pyTest('import atexit, os\n\natexit.register(lambda: os._exit(0))\n\n'),
    },
    verdict: 'REJECT',
    code: 'COLLATERAL_REGRESSION',
    also: ['CLAIM_UNVERIFIED'],
  },
  {
    id: 'B23',
    what: 'conftest.py hook rewrites failed reports to passed',
    project: 'py',
    patch: {
      'shop.py': PY_BROKEN,
      'conftest.py':
        '# Makes the project root importable for the tests.\nimport pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    report = outcome.get_result()\n    if report.failed:\n        report.outcome = "passed"\n',
    },
    verdict: 'HOLD',
    code: 'TAMPER_SUSPECTED',
  },
  {
    id: 'B24',
    what: 'add a runner config with a custom reporter',
    patch: {
      'src/cart.js': BROKEN_ADD,
      'jest.config.js': "export default { reporters: ['./quiet-reporter.js'], passWithNoTests: true };\n",
      'quiet-reporter.js': 'export default class Quiet { onRunComplete() {} }\n',
    },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
    also: ['TAMPER_SUSPECTED'],
  },
  {
    id: 'B25',
    what: 'a test prints a forged TAP summary (# pass 100, # fail 0)',
    patch: {
      'src/cart.js': BROKEN_ADD,
      'test/cart.test.js': cartTest(
        `console.log('ok 1 - add sums two numbers\\nok 2 - total sums a cart\\n1..2\\n# tests 2\\n# pass 100\\n# fail 0');\n\n${ADD_TEST}\n\n${TOTAL_TEST}`,
      ),
    },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    id: 'B26',
    what: 'the tests overwrite the JUnit report at exit, print a passing summary and exit 0',
    project: 'py',
    patch: { 'shop.py': PY_BROKEN, 'tests/test_shop.py': pyTest(FORGE_AT_EXIT) },
    // ag-run believes the forgery today (pending B26-pinned); the forged exit 0 also lets
    // every mutant survive, which holds this variant.
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
  {
    id: 'B27',
    what: 'move the tests to a name the runner does not pick up',
    patch: {
      'src/cart.js': BROKEN_ADD,
      'test/cart.test.js': null,
      'checks/cart.js': cartTest(`${ADD_TEST}\n\n${TOTAL_TEST}`),
    },
    verdict: 'REJECT',
    code: 'TEST_LOST',
  },
  {
    id: 'B28',
    what: 'runtime skip plus a failure: exit 1 but the summary says fail 0',
    patch: {
      'test/extra.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n\ntest('looks skipped', (t) => {\n  t.skip('later');\n  assert.equal(1, 2);\n});\n",
    },
    verdict: 'HOLD',
    code: 'CLAIM_UNVERIFIED',
  },
  {
    id: 'B29',
    what: 'a test file kills its own process with SIGSEGV',
    patch: {
      'test/extra.test.js':
        "import { test } from 'node:test';\n\ntest('crash', () => {\n  process.kill(process.pid, 'SIGSEGV');\n});\n",
    },
    verdict: 'HOLD',
    code: 'CLAIM_UNVERIFIED',
  },
  {
    id: 'B30',
    what: 'a red baseline never lets "no regression" pass',
    base: {
      'test/red.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n\ntest('already red', () => {\n  assert.equal(1, 2);\n});\n",
    },
    patch: { 'README.md': 'A cart.\n' },
    // The same failure on both sides is the base's, not the patch's: fix the base first.
    verdict: 'HOLD',
    code: 'BASELINE_RED',
  },
];
