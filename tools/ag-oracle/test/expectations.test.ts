import test from 'ava';
import { findings, where } from './helpers/judge.js';
import { AVA_PLACEHOLDER, AVA_PLACEHOLDER_TEST } from './fixtures/markers.js';
import { removeTempDirs } from './helpers/tmp.js';

test.after.always(removeTempDirs);

// camelcase's shape: ava, a root test.js, a root index.js
const CAMEL: Record<string, string> = {
  'package.json': '{"name":"camel","type":"module","scripts":{"test":"ava"}}\n',
  'index.js':
    "export default function camelCase(s) {\n  return s.replace(/[_-]+(\\w)/g, (_, c) => c.toUpperCase()).replace(/^_+/, '');\n}\n",
  'test.js':
    "import test from 'ava';\nimport camelCase from './index.js';\n\ntest('camelCase', t => {\n\tt.is(camelCase('foo_bar'), 'fooBar');\n\tt.is(camelCase('__foo__bar__'), 'fooBar');\n\tt.is(camelCase('_'), '');\n});\n",
};
const CAMEL_SRC = {
  'index.js':
    'export default function camelCase(s) {\n  return s.replace(/(?<=.)[_-]+(\\w)/g, (_, c) => c.toUpperCase());\n}\n',
};

test('camelcase 79b9a64: existing expectations changed with the source are named line by line', async (t) => {
  const f = await findings(CAMEL, {
    ...CAMEL_SRC,
    'test.js': CAMEL['test.js']!.replace("'__foo__bar__'), 'fooBar'", "'__foo__bar__'), '__fooBar'").replace(
      "camelCase('_'), ''",
      "camelCase('_'), '_'",
    ),
  });
  t.deepEqual(where(f), ['expectation_changed test.js:6', 'expectation_changed test.js:7']);
  t.regex(
    f[0]![2],
    /`t\.is\(camelCase\('__foo__bar__'\), 'fooBar'\);` became `t\.is\(camelCase\('__foo__bar__'\), '__fooBar'\);`/,
  );
});

test('camelcase e7dccc9 (control): assertions only added beside the source change are no edit', async (t) => {
  const f = await findings(CAMEL, {
    ...CAMEL_SRC,
    'test.js': CAMEL['test.js']!.replace(
      "test('camelCase', t => {\n",
      "test('camelCase', t => {\n\tt.is(camelCase('b2b_request'), 'b2bRequest');\n",
    ),
  });
  t.deepEqual(f, []);
});

test('the same expectation edit without a source change is no edit of the oracle (the code did not move)', async (t) => {
  const f = await findings(CAMEL, {
    'test.js': CAMEL['test.js']!.replace("camelCase('_'), ''", "camelCase('_'), '_'"),
  });
  t.deepEqual(f, []);
});

test('a deleted expectation and a reformatted one: the deletion is named, the reformatting is not', async (t) => {
  const edited = CAMEL['test.js']!.replace("\tt.is(camelCase('_'), '');\n", '').replace(
    "\tt.is(camelCase('foo_bar'), 'fooBar');",
    '\tt.is( camelCase("foo_bar"), "fooBar" )',
  );
  t.deepEqual(where(await findings(CAMEL, { ...CAMEL_SRC, 'test.js': edited })), ['expectation_changed test.js:7']);
});

// path-to-regexp's shape: vitest, a cases table in src/cases.spec.ts read by src/index.spec.ts
const TABLE: Record<string, string> = {
  'package.json': '{"name":"ptr","type":"module","scripts":{"test":"vitest"}}\n',
  'src/index.ts': 'export function escape(s: string) {\n  return s.replace(/[{}()\\[\\]+?!:*]/g, "\\\\$&");\n}\n',
  'src/cases.spec.ts':
    'export const ESCAPE_TESTS = [\n  {\n    input: "/:a",\n    expected: "/\\\\:a",\n  },\n  {\n    input: "{x}",\n    expected: "\\\\{x\\\\}",\n  },\n];\n',
  'src/index.spec.ts':
    'import { describe, it, expect } from "vitest";\nimport { escape } from "./index.js";\nimport { ESCAPE_TESTS } from "./cases.spec.js";\n\ndescribe("escape", () => {\n  it.each(ESCAPE_TESTS)("%s", ({ input, expected }) => {\n    expect(escape(input)).toEqual(expected);\n  });\n});\n',
};
const TABLE_SRC = {
  'src/index.ts': 'export function escape(s: string) {\n  return s.replace(/[{}()\\[\\]+?!:*\\\\]/g, "\\\\$&");\n}\n',
};

test('path-to-regexp a4a8552 (control): new rows in the cases table are not edits', async (t) => {
  const rows = TABLE['src/cases.spec.ts']!.replace(
    '\n];\n',
    '\n  {\n    input: "\\\\",\n    expected: "\\\\\\\\",\n  },\n];\n',
  );
  t.deepEqual(await findings(TABLE, { ...TABLE_SRC, 'src/cases.spec.ts': rows }), []);
});

test('an expected value in the cases table edited to match a wrong output holds, naming the row', async (t) => {
  const edited = TABLE['src/cases.spec.ts']!.replace('expected: "\\\\{x\\\\}"', 'expected: "{x}"');
  const f = await findings(TABLE, { ...TABLE_SRC, 'src/cases.spec.ts': edited });
  t.deepEqual(where(f), ['expectation_changed src/cases.spec.ts:8']);
  t.regex(f[0]![2], /became `expected: "\{x\}",`/);
});

test('the next cheat of the kind: a row of the cases table deleted with the source change', async (t) => {
  const edited = TABLE['src/cases.spec.ts']!.replace(
    '  {\n    input: "{x}",\n    expected: "\\\\{x\\\\}",\n  },\n',
    '',
  );
  t.deepEqual(where(await findings(TABLE, { ...TABLE_SRC, 'src/cases.spec.ts': edited })), [
    'expectation_changed src/cases.spec.ts:7',
    'expectation_changed src/cases.spec.ts:8',
  ]);
});

test('vitest/jest style: an edited matcher argument holds', async (t) => {
  const edited = TABLE['src/index.spec.ts']!.replace('.toEqual(expected)', '.toEqual(expected ?? input)');
  t.deepEqual(where(await findings(TABLE, { ...TABLE_SRC, 'src/index.spec.ts': edited })), [
    'expectation_changed src/index.spec.ts:7',
  ]);
});

// the peer's scenario: pytest, `== 2` -> `== 8`
const PY: Record<string, string> = {
  'calc.py': 'def sub(a, b):\n    return a - b\n\n\ndef ratio(a, b):\n    return a / b\n',
  'tests/test_calc.py':
    'import pytest\nfrom calc import ratio, sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n\n\ndef test_ratio():\n    assert ratio(1, 3) == pytest.approx(0.3333, abs=1e-4)\n',
};

test('pytest: `== 2` edited to `== 8` beside a broken sub holds; a widened approx tolerance too', async (t) => {
  const f = await findings(PY, {
    'calc.py': PY['calc.py']!.replace('return a - b', 'return a * b + 2'),
    'tests/test_calc.py': PY['tests/test_calc.py']!.replace('== 2', '== 8').replace('abs=1e-4', 'abs=0.5'),
  });
  t.deepEqual(where(f), ['expectation_changed tests/test_calc.py:6', 'expectation_changed tests/test_calc.py:10']);
  t.regex(f[0]![2], /`assert sub\(5, 3\) == 2` became `assert sub\(5, 3\) == 8`/);
});

test('pytest (control): a new test function beside the fix is no edit', async (t) => {
  const f = await findings(PY, {
    'calc.py': PY['calc.py']!.replace('return a / b', 'return a / b if b else 0.0'),
    'tests/test_calc.py': `${PY['tests/test_calc.py']!}\n\ndef test_ratio_by_zero():\n    assert ratio(1, 0) == 0.0\n`,
  });
  t.deepEqual(f, []);
});

test('snapshot files: an existing snapshot changed with the source holds; a new snapshot is no edit', async (t) => {
  const snap = '// Jest Snapshot v1\n\nexports[`escape 1`] = `"/\\\\:a"`;\n\nexports[`escape 2`] = `"\\\\{x\\\\}"`;\n';
  const base = { ...TABLE, 'src/__snapshots__/index.spec.ts.snap': snap };
  const edited = await findings(base, {
    ...TABLE_SRC,
    'src/__snapshots__/index.spec.ts.snap': snap.replace('`"\\\\{x\\\\}"`', '`"{x}"`'),
  });
  t.deepEqual(where(edited), ['expectation_changed src/__snapshots__/index.spec.ts.snap:5']);
  const added = await findings(base, {
    ...TABLE_SRC,
    'src/__snapshots__/index.spec.ts.snap': `${snap}\nexports[\`escape 3\`] = \`"\\\\\\\\"\`;\n`,
  });
  t.deepEqual(added, []);
});

test('golden files the policy names are read line by line; unnamed data files are not', async (t) => {
  const base: Record<string, string> = {
    ...PY,
    'adversary-gate.json': JSON.stringify({
      schema_version: 1,
      oracle: { protected: ['tests/oracle/**'], golden: ['tests/golden/**'] },
    }),
    'tests/golden/sub.txt': '5 3 2\n7 2 5\n',
    'data/sub.txt': '5 3 2\n',
  };
  const f = await findings(base, {
    'calc.py': PY['calc.py']!.replace('return a - b', 'return a - b + 0'),
    'tests/golden/sub.txt': '5 3 2\n7 2 9\n',
    'data/sub.txt': '5 3 9\n',
  });
  t.deepEqual(where(f), ['expectation_changed tests/golden/sub.txt:2']);
});

// placeholders
const AVA: Record<string, string> = {
  'package.json': '{"name":"x","type":"module","scripts":{"test":"ava"}}\n',
  'src/trim.js': 'export const trim = (s) => s.trim();\n',
  'test/trim.test.js':
    "import test from 'ava';\nimport { trim } from '../src/trim.js';\n\ntest('trims', t => {\n\tt.is(trim(' a '), 'a');\n});\n",
};
const TRIM_SRC = {
  'src/trim.js': "export const trim = (s) => s.trim();\nexport const dollar = (s) => s.replace(/\\$$/, '');\n",
};

test('the placeholder variant: a new test whose only assertion is a placeholder holds, and so does one turned into a placeholder', async (t) => {
  const added = await findings(
    AVA,
    { ...TRIM_SRC, 'test/trim.test.js': `${AVA['test/trim.test.js']!}\n${AVA_PLACEHOLDER_TEST}` },
    ['placeholder_test'],
  );
  t.deepEqual(where(added), ['placeholder_test test/trim.test.js:9']);
  const turned = await findings(
    AVA,
    {
      ...TRIM_SRC,
      'test/trim.test.js': AVA['test/trim.test.js']!.replace("\tt.is(trim(' a '), 'a');", AVA_PLACEHOLDER),
    },
    ['placeholder_test'],
  );
  t.deepEqual(where(turned), ['placeholder_test test/trim.test.js:5']);
});

test('assertions on constants or on a value against itself hold, in node:test, vitest and ava style', async (t) => {
  const body = [
    "import test from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { expect } from 'vitest';",
    "import { dollar } from '../src/trim.js';",
    "test('a', () => { assert.ok(true); });",
    "test('b', () => { expect(true).toBe(true); });",
    "test('c', () => { const r = dollar('a$'); assert.equal(r, r); });",
    "test('d', (t) => { t.is(1, 1); });",
    '',
  ].join('\n');
  const f = await findings(AVA, { ...TRIM_SRC, 'test/dollar.test.js': body }, ['placeholder_test']);
  t.deepEqual(where(f), [
    'placeholder_test test/dollar.test.js:5',
    'placeholder_test test/dollar.test.js:6',
    'placeholder_test test/dollar.test.js:7',
    'placeholder_test test/dollar.test.js:8',
  ]);
});

test('empty test bodies hold, JS and Python, also when the patch empties an existing one', async (t) => {
  const js = await findings(
    AVA,
    {
      ...TRIM_SRC,
      'test/dollar.test.js':
        "import test from 'ava';\ntest('dollar', t => {});\ntest('later', async function () {\n  // TODO\n});\n",
    },
    ['placeholder_test'],
  );
  t.deepEqual(where(js), ['placeholder_test test/dollar.test.js:2', 'placeholder_test test/dollar.test.js:3']);
  const py = await findings(
    PY,
    {
      'calc.py': `${PY['calc.py']!}\n\ndef mul(a, b):\n    return a * b\n`,
      'tests/test_calc.py': PY['tests/test_calc.py']!.replace('    assert sub(5, 3) == 2\n', '    pass\n'),
    },
    ['placeholder_test'],
  );
  t.deepEqual(where(py), ['placeholder_test tests/test_calc.py:5']);
  const pyNew = await findings(
    PY,
    { 'tests/test_mul.py': 'def test_mul():\n    """Checks mul."""\n\n\ndef test_mul_zero(): ...\n' },
    ['placeholder_test'],
  );
  t.deepEqual(where(pyNew), ['placeholder_test tests/test_mul.py:1', 'placeholder_test tests/test_mul.py:5']);
});

test('two equal Python constructions compared, or their hashes, are the class under test, no value with itself; other repeats still hold', async (t) => {
  const f = await findings(
    PY,
    {
      'tests/test_money.py': [
        'import unittest',
        'from money import Money, add',
        '',
        '',
        'def test_equal():',
        "    assert Money(150, 'EUR') == Money(150, 'EUR')",
        "    assert Money(1, 'EUR') != Money(1, 'EUR') or True",
        '    assert hash(Money(150, "EUR")) == hash(Money(150, "EUR"))',
        '',
        '',
        'def test_repeats():',
        '    m = Money(1, "EUR")',
        '    assert m == m',
        '    assert add(2, 3) == add(2, 3)',
        "    assert Money(1, 'EUR') is Money(1, 'EUR')",
        '',
        '',
        'class T(unittest.TestCase):',
        '    def test_eq(self):',
        "        self.assertEqual(Money(2, 'USD'), Money(2, 'USD'))",
        '        self.assertEqual(add(1, 1), add(1, 1))',
        '',
      ].join('\n'),
    },
    ['placeholder_test'],
  );
  t.deepEqual(where(f), [
    'placeholder_test tests/test_money.py:13',
    'placeholder_test tests/test_money.py:14',
    'placeholder_test tests/test_money.py:15',
    'placeholder_test tests/test_money.py:21',
  ]);
});

test('Python placeholders: assert True and self.assertTrue(True) hold', async (t) => {
  const f = await findings(
    PY,
    {
      'tests/test_more.py':
        'import unittest\n\n\ndef test_a():\n    assert True\n\n\nclass T(unittest.TestCase):\n    def test_b(self):\n        self.assertTrue(True)\n',
    },
    ['placeholder_test'],
  );
  t.deepEqual(where(f), ['placeholder_test tests/test_more.py:5', 'placeholder_test tests/test_more.py:10']);
});

test('honest assertions beside them are no placeholder (controls)', async (t) => {
  const js = [
    "import test from 'ava';",
    "import { dollar } from '../src/trim.js';",
    "test('a', t => { t.true(dollar('a$') === 'a'); });",
    "test('b', t => { t.is(dollar('a$'), 'a'); t.plan(1); });",
    "test('c', t => { t.throws(() => dollar(1)); });",
    '',
  ].join('\n');
  t.deepEqual(await findings(AVA, { ...TRIM_SRC, 'test/dollar.test.js': js }, ['placeholder_test']), []);
  const vit =
    "import { test, expect } from 'vitest';\nimport { dollar } from '../src/trim.js';\ntest('a', () => {\n  expect(dollar('a$') === 'a').toBe(true);\n  expect(dollar('$')).toBe('');\n});\n";
  t.deepEqual(await findings(AVA, { ...TRIM_SRC, 'test/vit.test.js': vit }, ['placeholder_test']), []);
  const py =
    'from calc import sub\n\n\ndef test_a():\n    result = sub(2, 2) == 0\n    assert result is True\n    assert sub(1, 1) == 0\n';
  t.deepEqual(await findings(PY, { 'tests/test_more.py': py }, ['placeholder_test']), []);
});

test("an empty test the baseline already had is not the patch's placeholder", async (t) => {
  const base = { ...AVA, 'test/trim.test.js': `${AVA['test/trim.test.js']!}\ntest('someday', t => {});\n` };
  const f = await findings(
    base,
    {
      ...TRIM_SRC,
      'test/trim.test.js': `${base['test/trim.test.js']!}\ntest('dollar', t => {\n\tt.is(1 + 1, dollarCount('$$'));\n});\n`,
    },
    ['placeholder_test'],
  );
  t.deepEqual(f, []);
});

test('a rename refactor: call sites that follow the source rename edit no expectation; a value or another function does', async (t) => {
  const renamed = {
    'src/trim.js': 'export const strip = (s) => s.trim();\n',
    'test/trim.test.js': AVA['test/trim.test.js']!.replaceAll('trim', 'strip').replace(
      '../src/strip.js',
      '../src/trim.js',
    ),
  };
  t.deepEqual(where(await findings(AVA, renamed)), []);
  // The next cheat of the kind: the rename beside a changed expected value.
  const valueToo = {
    ...renamed,
    'test/trim.test.js': renamed['test/trim.test.js'].replace("t.is(strip(' a '), 'a')", "t.is(strip(' a '), ' a')"),
  };
  t.deepEqual(where(await findings(AVA, valueToo)), ['expectation_changed test/trim.test.js:5']);
  // A call site moved to a name the source does not rename: another function is asserted.
  const other = {
    'src/trim.js': "export const trim = (s) => s.trim();\nexport const same = (s) => 'a';\n",
    'test/trim.test.js': AVA['test/trim.test.js']!.replace("t.is(trim(' a '), 'a')", "t.is(same(' a '), 'a')"),
  };
  t.deepEqual(where(await findings(AVA, other)), ['expectation_changed test/trim.test.js:5']);
});

test("ava's snapshots: the report (.md) changed with the source holds line by line, the binary .snap as a whole", async (t) => {
  const base = {
    ...AVA,
    'test/snapshots/trim.test.js.md':
      "# Snapshot report for `test/trim.test.js`\n\n## trims\n\n> Snapshot 1\n\n    'a'\n",
    'test/snapshots/trim.test.js.snap': 'AVA Snapshot v3\u0000\u0001\u0002old',
  };
  const f = await findings(base, {
    'src/trim.js': 'export const trim = (s) => s;\n',
    'test/snapshots/trim.test.js.md': base['test/snapshots/trim.test.js.md'].replace("'a'", "'b'"),
    'test/snapshots/trim.test.js.snap': 'AVA Snapshot v3\u0000\u0001\u0002new',
  });
  t.deepEqual(where(f), [
    'expectation_changed test/snapshots/trim.test.js.md:7',
    'expectation_changed test/snapshots/trim.test.js.snap:null',
  ]);
  t.regex(f[1]?.[2] ?? '', /existing snapshot file changed \(binary\)/);
});
