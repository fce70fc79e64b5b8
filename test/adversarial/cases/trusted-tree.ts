// The broken add made to pass by something other than an edited test file: a new test module,
// a plugin the patch registers, a vendored assertion library re-pointed. One mechanism answers
// them all — for a patch that changes any file that is not a test, the baseline's tests run in
// the baseline tree (its runner configuration, setup files, package manifests and installed
// packages) with only the patch's other changes applied (TRUSTED_TEST_FAILED). Each hostile case
// has an honest twin of the same shape that must ACCEPT. (A changed dependency, the fourth hole,
// needs an install from a changed lock; it is ag-run's own end-to-end test, e2e-trusted.)
import type { AdversarialCase } from '../case.js';
import { BROKEN_ADD, DOUBLE_TEST, PY_BROKEN, WITH_DOUBLE } from './snippets.js';

/** Rewrites shop.add in place: every reference the tests already took sees the new code. */
const REWRITE = 'import shop\n\nshop.add.__code__ = (lambda a, b: a + b).__code__\n';

/** An in-repo assertion library (CommonJS in the ESM project), and the cart test written with it. */
const VENDORED = {
  'vendor/check/package.json': '{ "name": "check", "type": "commonjs", "main": "index.js" }\n',
  'vendor/check/index.js': 'exports.equal = (a, b) => {\n  if (a !== b) throw new Error(`${a} !== ${b}`);\n};\n',
  'test/cart.test.js': `import { createRequire } from 'node:module';
import { test } from 'node:test';
import { add, total } from '../src/cart.js';

const check = createRequire(import.meta.url)('../vendor/check');

test('add sums two numbers', () => {
  check.equal(add(2, 3), 5);
});

test('total sums a cart', () => {
  check.equal(total([1, 2, 3]), 6);
});
`,
};

const held = (id: string, what: string, c: Partial<AdversarialCase>): AdversarialCase => ({
  id,
  what,
  patch: {},
  ...c,
  verdict: 'HOLD',
  code: 'TRUSTED_TEST_FAILED',
});
const control = (id: string, what: string, c: Partial<AdversarialCase>): AdversarialCase => ({
  id,
  what,
  control: true,
  patch: {},
  ...c,
  verdict: 'ACCEPT',
  code: null,
});

export const TRUSTED_TREE: readonly AdversarialCase[] = [
  held('T1-py-new-test-rewrite', 'the broken add, and a NEW test module that rewrites shop.add when it is collected', {
    project: 'py',
    patch: {
      'shop.py': PY_BROKEN,
      'tests/test_speed.py': `${REWRITE}\n\ndef test_speed():\n    assert add_is_fast()\n\n\ndef add_is_fast():\n    return True\n`,
    },
  }),
  control('control-py-new-test-module', 'a Python feature with a new test module (absent from the trusted run)', {
    project: 'py',
    patch: {
      'shop.py': `${PY_BROKEN.replace('return a - b', 'return a + b')}\n\ndef double(x):\n    return x * 2\n`,
      'tests/test_double.py':
        'from shop import double\n\n\ndef test_double():\n    assert double(2) == 4\n    assert double(-3) == -6\n',
    },
  }),
  held(
    'T2-py-plugin-ini',
    'the broken add, and a plugin module that rewrites it, registered by an added pytest.ini (-p)',
    {
      project: 'py',
      patch: {
        'shop.py': PY_BROKEN,
        'fastmath.py': REWRITE,
        'pytest.ini': '[pytest]\naddopts = -p fastmath\n',
      },
    },
  ),
  control(
    'control-py-helper-module',
    'a new module the code imports (taken from the patch: it is the code, not a plugin)',
    {
      project: 'py',
      patch: {
        'fastmath.py': 'def fast_add(a, b):\n    return a + b\n',
        'shop.py': PY_BROKEN.replace(
          'def add(a, b):\n    return a - b\n',
          'from fastmath import fast_add\n\n\ndef add(a, b):\n    return fast_add(a, b)\n',
        ),
      },
    },
  ),
  held(
    'T3-js-vendored-main',
    "the broken add, and the in-repo assertion library's package.json main re-pointed at a file that never fails",
    {
      base: VENDORED,
      patch: {
        'src/cart.js': BROKEN_ADD,
        'vendor/check/package.json': '{ "name": "check", "type": "commonjs", "main": "lenient.js" }\n',
        'vendor/check/lenient.js': 'exports.equal = () => {};\n',
      },
    },
  ),
  control('control-js-vendored-feature', 'a JS feature in a project whose tests use an in-repo assertion library', {
    base: VENDORED,
    patch: { 'src/cart.js': WITH_DOUBLE, 'test/double.test.js': DOUBLE_TEST },
  }),
];
