import test from 'ava';
import { beyondFixtures, moduleNamesOf } from '../src/tamper/fixture-conftest.js';

const NONE = new Set<string>();
const FIXTURES = [
  '"""Fixtures shared by the money tests."""',
  'import pytest',
  'from decimal import Decimal',
  'from shop.money import Money',
  '',
  'RATE: float = 1.1',
  'CODES = ("EUR", "USD")',
  '',
  '',
  'def cents(n):',
  '    return Money(n, "EUR")',
  '',
  '',
  '@pytest.fixture(',
  '    scope="session",',
  ')',
  'def euro():',
  '    """One euro."""',
  '    return cents(100)',
  '',
  '',
  '@pytest.fixture',
  'async def later(euro):',
  '    yield euro',
  '',
].join('\n');

test('shared fixtures, helpers, constants and imports of untouched modules are only fixtures', (t) => {
  t.is(beyondFixtures(FIXTURES, NONE), null);
  t.is(beyondFixtures('', NONE), null);
});

test('each way a conftest reaches beyond the tests that ask for its fixtures is named', (t) => {
  const cases: [string, RegExp][] = [
    ['import pytest\n\n\n@pytest.fixture(autouse=True)\ndef always():\n    pass\n', /autouse/],
    ['pytest_plugins = ["flip"]\n', /pytest_plugins/],
    ['def pytest_collection_modifyitems(items):\n    items.clear()\n', /hook function `pytest_collection_modifyitems`/],
    ['import shop\n\nshop.add = lambda a, b: 5\n', /code that runs on import: shop\.add = lambda/],
    ['import os\n\nos.environ["TZ"] = "UTC"\n', /code that runs on import/],
    ['import shop\n\nADD = shop.install_fast_path()\n', /code that runs on import: ADD = shop\.install_fast_path\(\)/],
    ['import sys\n\nif sys.platform:\n    pass\n', /code that runs on import: if sys\.platform/],
    ['class Helper:\n    VALUE = 1\n', /code that runs on import: class Helper/],
    [
      'import pytest\n\n\n@pytest.fixture\ndef monkeypatch():\n    return None\n',
      /fixture `monkeypatch` replaces pytest's own/,
    ],
    [
      'import pytest\n\n\n@pytest.fixture(name="tmp_path")\ndef mine():\n    return None\n',
      /fixture `tmp_path` replaces pytest's own/,
    ],
    ['import functools\n\n\n@functools.cache\ndef f():\n    return 1\n', /code that runs on import: @functools\.cache/],
  ];
  for (const [text, why] of cases) t.regex(beyondFixtures(text, NONE) ?? 'only fixtures', why, text);
});

test('importing a test module the patch adds or changes runs its code on import: named, with every path to it', (t) => {
  const changed = new Set(moduleNamesOf('tests/support/flip.py'));
  t.deepEqual([...changed], ['tests.support.flip', 'support.flip', 'flip']);
  for (const line of [
    'import flip',
    'import support.flip as f',
    'from support import flip',
    'from tests.support.flip import x',
  ])
    t.regex(
      beyondFixtures(`${line}\n`, changed) ?? 'only fixtures',
      /imports `[\w.]*flip`, a test module the patch adds or changes/,
      line,
    );
  t.is(beyondFixtures('import fliplib\nfrom support import other\n', changed), null);
  t.deepEqual(moduleNamesOf('pkg/sub/__init__.py'), ['pkg.sub', 'sub']);
  t.deepEqual(moduleNamesOf('README.md'), []);
});
