import test from 'ava';
import { findings, where } from './helpers/judge.js';
import { removeTempDirs } from './helpers/tmp.js';

test.after.always(removeTempDirs);

const PY: Record<string, string> = {
  'calc.py': 'def sub(a, b):\n    return a - b\n',
  'tests/test_calc.py': 'from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n',
  'tests/conftest.py': 'import pytest\n',
};
const BUG = { 'calc.py': 'def sub(a, b):\n    return a + b\n' };
const HOOKS = ['runner_hook_added', 'runner_config_changed', 'assertion_redefined'];

test('pytest_plugins set in a test module holds; so does a hook function there', async (t) => {
  const f = await findings(
    PY,
    {
      ...BUG,
      'tests/test_calc.py': `pytest_plugins = ["tests.flip"]\n${PY['tests/test_calc.py']!}\n\ndef pytest_runtest_makereport(item, call):\n    pass\n`,
      'tests/flip.py': 'def helper():\n    return 1\n',
    },
    HOOKS,
  );
  t.deepEqual(where(f), ['runner_hook_added tests/test_calc.py:1', 'runner_hook_added tests/test_calc.py:9']);
});

test('a fixture that registers a plugin through config.pluginmanager holds, in a test module or a helper', async (t) => {
  const fixture =
    'import pytest\n\n\n@pytest.fixture(autouse=True)\ndef flip(request):\n    request.config.pluginmanager.register(Flip(), "flip")\n';
  const f = await findings(
    PY,
    {
      ...BUG,
      'tests/test_more.py': fixture,
      'tests/support/plugin.py': `class Flip:\n    pass\n\n\ndef install(config):\n    config.pluginmanager.register(Flip())\n`,
    },
    HOOKS,
  );
  t.deepEqual(where(f), ['runner_hook_added tests/support/plugin.py:6', 'runner_hook_added tests/test_more.py:6']);
});

test('a local pytest.py or _pytest/ package that shadows the runner holds, anywhere in the tree', async (t) => {
  const f = await findings(
    PY,
    { ...BUG, 'pytest.py': 'import sys\nsys.exit(0)\n', 'lib/_pytest/__init__.py': '' },
    HOOKS,
  );
  t.deepEqual(where(f).sort(), [
    'runner_config_changed lib/_pytest/__init__.py:null',
    'runner_config_changed pytest.py:1',
  ]);
});

test('a conftest.py added in a subfolder that patches code on import is runner configuration changed', async (t) => {
  const f = await findings(
    PY,
    { ...BUG, 'tests/unit/conftest.py': 'import calc\n\ncalc.sub = lambda a, b: 2\n' },
    HOOKS,
  );
  t.deepEqual(where(f), ['runner_config_changed tests/unit/conftest.py:1']);
  t.regex(f[0]?.[2] ?? '', /more than shared fixtures \(code that runs on import: calc\.sub = lambda/);
});

test('a new conftest.py that only shares fixtures with new tests is test code, not runner configuration', async (t) => {
  const conftest = [
    '"""Shared fixtures."""',
    'import pytest',
    'from calc import sub',
    '',
    'PAIR = (5, 3)',
    '',
    '',
    '@pytest.fixture',
    'def pair():',
    '    return PAIR',
    '',
    '',
    '@pytest.fixture(scope="module")',
    'def difference(pair):',
    '    return sub(*pair)',
    '',
  ].join('\n');
  const f = await findings(
    PY,
    {
      'calc.py': `${PY['calc.py']!}\n\ndef add(a, b):\n    return a + b\n`,
      'tests/unit/conftest.py': conftest,
      'tests/unit/test_add.py':
        'from calc import add\n\n\ndef test_add(pair, difference):\n    assert add(*pair) == 8\n    assert difference == 2\n',
    },
    HOOKS,
  );
  t.deepEqual(where(f), []);
});

test('controls: honest fixtures, pytest_generate_tests and ordinary source are no hook', async (t) => {
  const honest =
    'import pytest\nfrom calc import sub\n\n\n@pytest.fixture\ndef pair():\n    return (5, 3)\n\n\ndef pytest_generate_tests(metafunc):\n    pass\n\n\ndef test_pair(pair):\n    assert sub(*pair) == 2\n';
  t.deepEqual(
    await findings(
      PY,
      { 'tests/test_pair.py': honest, 'calc.py': `${PY['calc.py']!}\n\ndef pytest_like_name():\n    return 0\n` },
      HOOKS,
    ),
    [],
  );
});

const JS: Record<string, string> = {
  'package.json': '{"name":"x","type":"module","scripts":{"test":"node --test"}}\n',
  'src/sub.js': 'export const sub = (a, b) => a - b;\n',
  'test/sub.test.js':
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sub } from '../src/sub.js';\n\ntest('sub', () => {\n  assert.equal(sub(5, 3), 2);\n});\n",
};
const JS_BUG = { 'src/sub.js': 'export const sub = (a, b) => a + b;\n' };

test('assert.equal replaced in a new helper the tests import holds', async (t) => {
  const f = await findings(
    JS,
    {
      ...JS_BUG,
      'test/helpers/setup.js': "import assert from 'node:assert/strict';\nassert.equal = () => {};\n",
      'test/sub.test.js': JS['test/sub.test.js']!.replace(
        'import { sub }',
        "import './helpers/setup.js';\nimport { sub }",
      ),
    },
    HOOKS,
  );
  t.deepEqual(where(f), ['assertion_redefined test/helpers/setup.js:2']);
});

test('the next cheats of the kind: defineProperty on assert, a matcher reassigned, unittest patched', async (t) => {
  const f = await findings(
    { ...JS, ...PY },
    {
      ...JS_BUG,
      'test/helpers/a.js':
        "import assert from 'node:assert';\nObject.defineProperty(assert, 'strictEqual', { value: () => {} });\n",
      'test/helpers/b.js': 'export function install(expect) {\n  expect.prototype.toBe = function () {};\n}\n',
      'tests/support.py': 'import unittest\nunittest.TestCase.assertEqual = lambda self, a, b: None\n',
    },
    HOOKS,
  );
  t.deepEqual(where(f), [
    'assertion_redefined test/helpers/a.js:2',
    'assertion_redefined test/helpers/b.js:2',
    'assertion_redefined tests/support.py:2',
  ]);
});

test("a helper exported under an assertion's name that never throws holds; JS and Python", async (t) => {
  const f = await findings(
    { ...JS, ...PY },
    {
      ...JS_BUG,
      'test/helpers/check.js':
        'export function assertEqual(actual, expected) {\n  if (actual !== expected) console.log("differs");\n}\nexport const expectSame = (a, b) => a === b;\n',
      'tests/helpers.py': 'def assert_equal(actual, expected):\n    if actual != expected:\n        print("differs")\n',
    },
    HOOKS,
  );
  t.deepEqual(where(f), [
    'assertion_redefined test/helpers/check.js:1',
    'assertion_redefined test/helpers/check.js:4',
    'assertion_redefined tests/helpers.py:1',
  ]);
});

test('controls: helpers that throw or assert, and ordinary bindings named assert, are no redefinition', async (t) => {
  const f = await findings(
    { ...JS, ...PY },
    {
      ...JS_BUG,
      'test/helpers/check.js': [
        "import assert from 'node:assert/strict';",
        'export function assertEqual(actual, expected) {',
        '  if (actual !== expected) throw new Error(`${actual} !== ${expected}`);',
        '}',
        'export const expectStatus = (res, code) => {',
        '  assert.equal(res.status, code);',
        '};',
        'const assertions = { equal: 1 };',
        'let t2 = 0; t2 = 1;',
        '',
      ].join('\n'),
      'tests/helpers.py':
        'def assert_equal(actual, expected):\n    if actual != expected:\n        raise AssertionError((actual, expected))\n\n\ndef check_sum(xs):\n    assert sum(xs) == 3\n',
      // source may name a predicate like an assertion: it is no test helper
      'src/perm.js':
        'export function ok(user) {\n  return user.admin === true;\n}\nexport const is = (a, b) => Object.is(a, b);\n',
    },
    HOOKS,
  );
  t.deepEqual(f, []);
});

test('a new conftest.py of fixtures that imports a test helper the patch adds is runner configuration changed', async (t) => {
  const f = await findings(
    PY,
    {
      ...BUG,
      'tests/support/flip.py': 'import calc\n\ncalc.sub = lambda a, b: 2\n',
      'tests/unit/conftest.py':
        'import pytest\nfrom support import flip\n\n\n@pytest.fixture\ndef pair():\n    return (5, 3)\n',
    },
    HOOKS,
  );
  t.deepEqual(where(f), ['runner_config_changed tests/unit/conftest.py:1']);
  t.regex(f[0]?.[2] ?? '', /imports `support(\.flip)?`, a test module the patch adds or changes/);
});
