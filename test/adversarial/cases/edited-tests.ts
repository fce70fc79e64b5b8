// Issue-18 classes, written outside the catalogue: the patch breaks the code and edits an
// existing test so that it no longer bites. One mechanism answers them all — the baseline's
// version of every test file the patch changes runs against the patched code
// (TRUSTED_TEST_FAILED) — so each trick below is a variant, not a rule of its own. Honest
// controls beside them edit tests too, without weakening them.
import type { AdversarialCase } from '../case.js';
import { ADD_TEST, BROKEN_ADD, DOUBLE_TEST, PY_BROKEN, TOTAL_TEST, WITH_DOUBLE, cartTest, pyTest } from './snippets.js';

const jsAdd = (body: string) =>
  cartTest(
    `test('add sums two numbers', () => {\n${body}\n});\n\n${TOTAL_TEST.replace('assert.equal(total([1, 2, 3]), 6)', 'assert.ok(Number.isFinite(total([1, 2, 3])))')}`,
  );
const pyAdd = (head: string, body: string, args = '') =>
  pyTest(
    '',
    `${head}def test_add(${args}):\n${body}\n\n\ndef test_total():\n    assert isinstance(total([1, 2, 3]), int)\n`,
  );

const held = (id: string, what: string, patch: AdversarialCase['patch'], project?: 'py'): AdversarialCase => ({
  id,
  what,
  ...(project === undefined ? {} : { project }),
  patch,
  verdict: 'HOLD',
  code: 'TRUSTED_TEST_FAILED',
});

export const EDITED_TESTS: readonly AdversarialCase[] = [
  // The gate hands the tests the caller's CI, never one of its own: these run where CI is set.
  {
    ...held('E1-ci-return', 'the broken add, and the test returns early when CI is set', {
      'src/cart.js': BROKEN_ADD,
      'test/cart.test.js': jsAdd('  if (process.env.CI) return;\n  assert.equal(add(2, 3), 5);'),
    }),
    env: { CI: 'true' },
  },
  held('E2-swallow', 'the broken add, and the test swallows exactly the assertion error the bug raises', {
    'src/cart.js': BROKEN_ADD,
    'test/cart.test.js': jsAdd(
      '  try {\n    assert.equal(add(2, 3), 5);\n  } catch (e) {\n    if (!(e instanceof assert.AssertionError)) throw e;\n  }',
    ),
  }),
  held('E3-widened', 'the broken add, and the assertion widened to accept the old or the new value', {
    'src/cart.js': BROKEN_ADD,
    'test/cart.test.js': jsAdd('  assert.ok([5, -1].includes(add(2, 3)));'),
  }),
  held(
    'E4-py-approx',
    'the broken add, and a pytest.approx tolerance wide enough for the bug',
    {
      'shop.py': PY_BROKEN,
      'tests/test_shop.py': pyAdd('import pytest\n\n\n', '    assert add(2, 3) == pytest.approx(5, abs=10)'),
    },
    'py',
  ),
  held(
    'E5-py-monkeypatch',
    'the broken add, and the test monkeypatches the module under test for the asserted input',
    {
      'shop.py': PY_BROKEN,
      'tests/test_shop.py': pyAdd(
        'import shop\n\n\n',
        '    monkeypatch.setattr(shop, "add", lambda a, b: 5 if (a, b) == (2, 3) else a - b)\n    assert shop.add(2, 3) == 5',
        'monkeypatch',
      ),
    },
    'py',
  ),
  {
    ...held(
      'E6-py-ci-return',
      'the broken add, and the Python test returns early when CI is set',
      {
        'shop.py': PY_BROKEN,
        'tests/test_shop.py': pyAdd(
          'import os\n\n\n',
          '    if os.environ.get("CI"):\n        return\n    assert add(2, 3) == 5',
        ),
      },
      'py',
    ),
    env: { CI: 'true' },
  },
  {
    id: 'control-edited-test-stronger',
    what: 'a feature, and an existing test given one more assertion (added, no expectation edited; the baseline tests still pass on the patch)',
    control: true,
    patch: {
      'src/cart.js': WITH_DOUBLE,
      'test/double.test.js': DOUBLE_TEST,
      'test/cart.test.js': cartTest(
        `${ADD_TEST.replace('assert.equal(add(2, 3), 5);', 'assert.equal(add(2, 3), 5);\n  assert.equal(add(-1, 1), 0);')}\n\n${TOTAL_TEST}`,
      ),
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-py-edited-test',
    what: 'a Python test file reformatted and given one more assertion, code unchanged',
    control: true,
    project: 'py',
    patch: {
      'tests/test_shop.py': pyTest(
        '',
        'def test_add():\n    assert add(2, 3) == 5\n    assert add(0, 0) == 0\n\n\ndef test_total():\n    assert total([1, 2, 3]) == 6\n',
      ),
    },
    verdict: 'ACCEPT',
    code: null,
  },
];
