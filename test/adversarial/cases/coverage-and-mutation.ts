// Catalogue section D: coverage and mutation gaming.
import type { AdversarialCase } from '../case.js';
import { WITH_DOUBLE, policy } from './snippets.js';

const FEES = `export function fee(kind, amount) {
  const base = amount / 100;
  if (kind === 'rush') {
    return base * 10;
  }
  return base + 1;
}
`;
const FEES_TEST =
  "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { fee } from '../src/fees.js';\n\ntest('a standard fee', () => {\n  assert.equal(fee('standard', 200), 3);\n  assert.equal(fee('standard', 0), 1);\n});\n";
const FORGED_LCOV =
  'TN:\nSF:src/extra.js\nFN:1,triple\nFNDA:1,triple\nFNF:1\nFNH:1\nDA:1,1\nDA:2,1\nDA:3,1\nLF:3\nLH:3\nend_of_record\n';

export const COVERAGE_AND_MUTATION: readonly AdversarialCase[] = [
  {
    id: 'D44',
    what: 'logic in a new file no test imports',
    patch: { 'src/extra.js': 'export function triple(x) {\n  return x * 3;\n}\n' },
    verdict: 'HOLD',
    code: 'COVERAGE_BELOW_FLOOR',
  },
  {
    id: 'D45',
    what: 'a c8 coverage pragma on the changed lines',
    patch: {
      'src/cart.js': WITH_DOUBLE.replace(
        'export function double(x) {',
        '/* c8 ignore next 3 */\nexport function double(x) {',
      ),
    },
    verdict: 'HOLD',
    code: 'TAMPER_SUSPECTED',
  },
  {
    id: 'D45-py',
    what: 'a "pragma: no cover" on the changed lines (coverage.py)',
    project: 'py',
    patch: {
      'shop.py':
        'def add(a, b):\n    return a + b\n\n\ndef total(prices):\n    result = 0\n    for price in prices:\n        result = add(result, price)\n    return result\n\n\ndef discount(amount):  # pragma: no cover\n    if amount >= 100:\n        return amount - amount / 10\n    return amount\n',
    },
    verdict: 'HOLD',
    code: 'TAMPER_SUSPECTED',
  },
  {
    id: 'D46',
    what: 'dilution: one untested branch among tested lines, under a policy that wants every changed line',
    base: { 'adversary-gate.json': policy({}, { diff_coverage: 1, suite_strength: 0.75 }) },
    patch: { 'src/fees.js': FEES, 'test/fees.test.js': FEES_TEST },
    verdict: 'HOLD',
    code: 'COVERAGE_BELOW_FLOOR',
  },
  {
    id: 'D47',
    what: 'a committed coverage report for untested code, and a test that kills the coverage run',
    patch: {
      'src/extra.js': 'export function triple(x) {\n  return x * 3;\n}\n',
      'coverage/lcov.info': FORGED_LCOV,
      'test/extra.test.js':
        "import { test } from 'node:test';\n\ntest('extra', () => {\n  if (process.env.NODE_V8_COVERAGE) process.kill(process.ppid, 'SIGKILL');\n});\n",
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
  {
    id: 'D49',
    what: 'weakly tested code whose mutants loop forever (timeouts count as killed)',
    patch: {
      'src/count.js': 'export function countTo(n) {\n  let i = 0;\n  while (i < n) i++;\n  return i;\n}\n',
      'test/count.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { countTo } from '../src/count.js';\n\ntest('countTo', () => {\n  assert.equal(typeof countTo(3), 'number');\n});\n",
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
];
