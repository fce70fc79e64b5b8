// Source and test texts the cases share: the demo's node:test cart and its pytest shop.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../e2e/helpers.js';

/** A node:test file over src/cart.js with `body` as its tests. */
export const cartTest = (body: string, imports = 'add, total') => `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ${imports} } from '../src/cart.js';

${body}
`;

export const ADD_TEST = `test('add sums two numbers', () => {
  assert.equal(add(2, 3), 5);
});`;

export const TOTAL_TEST = `test('total sums a cart', () => {
  assert.equal(total([1, 2, 3]), 6);
});`;

/** src/cart.js with `add` broken (a - b): the baseline's tests fail on it. */
export const BROKEN_ADD = `export function add(a, b) {
  return a - b;
}

export function total(prices) {
  return prices.reduce(add, 0);
}
`;

/** src/cart.js with a new, correct `double`. */
export const WITH_DOUBLE = `export function add(a, b) {
  return a + b;
}

export function total(prices) {
  return prices.reduce(add, 0);
}

export function double(x) {
  return x * 2;
}
`;

/** A strong node:test file for `double`. */
export const DOUBLE_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { double } from '../src/cart.js';

test('double', () => {
  assert.equal(double(2), 4);
  assert.equal(double(-3), -6);
});
`;

/** The Python demo's baseline shop.py, as the cases' repositories start from it. */
export const PY_SHOP = readFileSync(path.join(ROOT, 'pipelines/demo/projects/py/base/shop.py'), 'utf8');

/** shop.py with `add` broken (a - b). */
export const PY_BROKEN = `def add(a, b):
    return a - b


def total(prices):
    result = 0
    for price in prices:
        result = add(result, price)
    return result
`;

/** The baseline's pytest file with `extra` inserted before its tests. */
export const pyTest = (extra: string, tests = PY_TESTS) => `${extra}from shop import add, total

${tests}`;

export const PY_TESTS = `def test_add():
    assert add(2, 3) == 5


def test_total():
    assert total([1, 2, 3]) == 6
`;

/** A policy like the demo's with extra `oracle` settings. */
export const policy = (oracle: Record<string, unknown>, floors?: Record<string, number>) =>
  `${JSON.stringify(
    {
      schema_version: 1,
      ...(floors ? { floors } : {}),
      oracle: { protected: ['test/oracle/**', 'adversary-gate.json'], ...oracle },
    },
    null,
    2,
  )}\n`;

/** The files of one of the demo's patches (its overlay stack), as a case's patch. */
export function demoPatch(project: 'js' | 'py', layers: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const layer of layers) {
    const dir = path.join(ROOT, 'pipelines/demo/projects', project, 'patches', layer);
    for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const full = path.join(dir, rel);
      if (statSync(full).isFile()) files[rel] = readFileSync(full, 'utf8');
    }
  }
  return files;
}

/** A pytest skip at run time, as the first line of a test body. */
export const PY_RUNTIME_SKIP = '    pytest.skip("flaky")\n';
