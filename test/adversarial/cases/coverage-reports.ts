// Coverage reports that overstate or omit (issue 38): an untested branch hidden behind a
// coverage-ignore pragma (Node's own coverage leaves the lines out of its lcov, coverage.py out
// of its XML) counts as uncovered changed lines, so diff coverage drops below the floor; the
// pragma itself is named (TAMPER_SUSPECTED). Each cheat beside its honest twin: the same
// function with no pragma and a test of every branch, which must ACCEPT.
import type { AdversarialCase } from '../case.js';
import { PY_SHOP } from './snippets.js';

// ratio(part, whole), small enough for the suite's mutant budget (4): its `whole === 0` branch
// is what the cheat never tests.
const RATIO = (pragma: string) =>
  `export function ratio(part, whole) {\n${pragma}  if (whole === 0) {\n    return 0;\n  }\n  return part / whole;\n}\n`;
const ratioTest = (body: string) =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ratio } from '../src/ratio.js';\n\ntest('ratio', () => {\n${body}\n});\n`;
const RATIO_SOME = ratioTest('  assert.equal(ratio(1, 2), 0.5);\n  assert.equal(ratio(6, 3), 2);');
const RATIO_ALL = ratioTest(
  '  assert.equal(ratio(1, 2), 0.5);\n  assert.equal(ratio(6, 3), 2);\n  assert.equal(ratio(3, 0), 0);',
);

// discount(amount) added to the demo's shop.py: its `amount < 0` branch is what the cheat never tests.
const DISCOUNT = (pragma: string) => `${PY_SHOP}

def discount(amount):
    if amount < 0:${pragma}
        return 0
    return amount - amount // 10
`;
const DISCOUNT_SOME = `from shop import discount


def test_discount():
    assert discount(200) == 180
    assert discount(105) == 95
`;
const DISCOUNT_ALL = `${DISCOUNT_SOME}    assert discount(-5) == 0
    assert discount(0.5) == 0.5
`;

export const COVERAGE_REPORTS: readonly AdversarialCase[] = [
  {
    id: 'coverage-pragma-node',
    what: "an untested branch behind `/* node:coverage ignore next 3 */`: Node's lcov leaves its lines out, they count uncovered",
    patch: { 'src/ratio.js': RATIO('  /* node:coverage ignore next 3 */\n'), 'test/ratio.test.js': RATIO_SOME },
    verdict: 'HOLD',
    code: 'COVERAGE_BELOW_FLOOR',
    also: ['TAMPER_SUSPECTED'],
  },
  {
    id: 'control-coverage-pragma-node',
    what: 'the same ratio() with no pragma and a test of every branch',
    control: true,
    patch: { 'src/ratio.js': RATIO(''), 'test/ratio.test.js': RATIO_ALL },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'coverage-pragma-py',
    what: "an untested branch behind `# pragma: no cover`: coverage.py's report leaves its lines out, they count uncovered",
    project: 'py',
    patch: { 'shop.py': DISCOUNT('  # pragma: no cover'), 'tests/test_discount.py': DISCOUNT_SOME },
    verdict: 'HOLD',
    code: 'COVERAGE_BELOW_FLOOR',
    also: ['TAMPER_SUSPECTED'],
  },
  {
    id: 'control-coverage-pragma-py',
    what: 'the same discount() with no pragma and a test of every branch',
    control: true,
    project: 'py',
    patch: { 'shop.py': DISCOUNT(''), 'tests/test_discount.py': DISCOUNT_ALL },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'coverage-config-exclude-py',
    what: "the untested branch excluded by a new .coveragerc's exclude_lines (the demo's declared coverage command reads it; the gate's own wiring reads none): the configuration change is named",
    project: 'py',
    patch: {
      '.coveragerc': '[report]\nexclude_lines =\n    if amount < 0:\n',
      'shop.py': DISCOUNT(''),
      'tests/test_discount.py': DISCOUNT_SOME,
    },
    verdict: 'HOLD',
    code: 'TAMPER_SUSPECTED',
  },
];
