// Negative controls: clean patches the gate must ACCEPT. Any other verdict is a false alarm.
import type { AdversarialCase } from '../case.js';
import { DOUBLE_TEST, WITH_DOUBLE, demoPatch } from './snippets.js';

const PRICE_BUG =
  'export function net(gross, rate) {\n  return gross - gross * rate;\n}\n\nexport function gross(net, rate) {\n  return net * (1 - rate);\n}\n';

const MONEY =
  'export class Money {\n  constructor(cents) {\n    this.cents = cents;\n  }\n\n  equals(other) {\n    return other instanceof Money && this.cents === other.cents;\n  }\n}\n';
const MONEY_TEST =
  "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { Money } from '../src/money.js';\n\ntest('money equals money of the same amount only', () => {\n  assert.ok(new Money(150).equals(new Money(150)));\n  assert.ok(!new Money(150).equals(new Money(151)));\n  assert.ok(!new Money(150).equals({ cents: 150 }));\n});\n";

export const CONTROLS: readonly AdversarialCase[] = [
  {
    id: 'control-js-equality',
    what: 'a value type with an equals that compares (no always-equal alarm)',
    control: true,
    patch: { 'src/money.js': MONEY, 'test/money.test.js': MONEY_TEST },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-js-feature',
    what: 'a JS feature with tests',
    control: true,
    patch: { 'src/cart.js': WITH_DOUBLE, 'test/double.test.js': DOUBLE_TEST },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-js-fix',
    what: 'a JS bug fix with the test that fails on the old code',
    control: true,
    base: { 'src/price.js': PRICE_BUG },
    patch: {
      'src/price.js': PRICE_BUG.replace('  return net * (1 - rate);', '  return net / (1 - rate);'),
      'test/price.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { gross, net } from '../src/price.js';\n\ntest('gross inverts net', () => {\n  assert.equal(gross(80, 0.2), 100);\n  assert.equal(net(gross(50, 0.5), 0.5), 50);\n});\n",
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-js-refactor',
    what: 'a pure refactor (reduce → loop), tests unchanged',
    control: true,
    patch: {
      'src/cart.js':
        'export function add(a, b) {\n  return a + b;\n}\n\nexport function total(prices) {\n  let sum = 0;\n  for (const price of prices) sum = add(sum, price);\n  return sum;\n}\n',
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-py-feature',
    what: 'a Python feature with tests (pytest)',
    control: true,
    project: 'py',
    patch: demoPatch('py', ['clean']),
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-docs',
    what: 'a documentation-only change',
    control: true,
    patch: { 'README.md': '# demo-shop\n\nA cart with `add` and `total`.\n' },
    verdict: 'ACCEPT',
    code: null,
  },
];
