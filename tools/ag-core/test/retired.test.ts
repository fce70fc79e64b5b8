import test from 'ava';
import { classifyPath, retiredTests, type DiffModel } from '../src/index.js';
import { changedFile as file } from './support/changed-file.js';

/** The baseline tree as a map of path to text. */
function rulesFor(baseline: Record<string, string>) {
  const isTest = (p: string) => classifyPath(p) === 'test';
  return {
    isRunnableTest: isTest,
    isTestFile: isTest,
    readBaseline: async (p: string) => baseline[p] ?? null,
    existsOnBaseline: async (p: string) => p in baseline,
  };
}

const BASE = {
  'src/slug.js': 'export const slug = (s) => s;\n',
  'src/cart.js': 'export const add = (a, b) => a + b;\n',
  'test/helpers.js': 'export const same = (a, b) => a === b;\n',
  'test/slug.test.js': "import { slug } from '../src/slug.js';\nimport { same } from './helpers.js';\n",
  'test/cart.test.js': "import { add } from '../src/cart.js';\n",
  'shop/__init__.py': '',
  'shop/money.py': 'def cents(x):\n    return x\n',
  'tests/test_money.py': 'from shop.money import cents\n',
};

test('a test file deleted with a code file it imports is retired, naming that file', async (t) => {
  const diff: DiffModel = {
    files: [
      file('deleted', 'src/slug.js'),
      file('deleted', 'test/slug.test.js'),
      file('deleted', 'shop/money.py'),
      file('deleted', 'tests/test_money.py'),
    ],
  };
  t.deepEqual(await retiredTests(diff, rulesFor(BASE)), [
    { path: 'test/slug.test.js', subjects: ['src/slug.js'] },
    { path: 'tests/test_money.py', subjects: ['shop/money.py'] },
  ]);
});

test('not retired: its subject stays or is renamed, or only a test helper it imports is deleted', async (t) => {
  const rules = rulesFor(BASE);
  // the subject stays
  t.deepEqual(await retiredTests({ files: [file('deleted', 'test/cart.test.js')] }, rules), []);
  // the subject renamed: its code still exists, its tests are lost
  t.deepEqual(
    await retiredTests(
      { files: [file('renamed', 'src/slugify.js', 'src/slug.js'), file('deleted', 'test/slug.test.js')] },
      rules,
    ),
    [],
  );
  // a deleted helper is test code, not what the test tests
  t.deepEqual(
    await retiredTests({ files: [file('deleted', 'test/helpers.js'), file('deleted', 'test/slug.test.js')] }, rules),
    [],
  );
  // another code file deleted, which the test does not import
  t.deepEqual(
    await retiredTests({ files: [file('deleted', 'src/slug.js'), file('deleted', 'test/cart.test.js')] }, rules),
    [],
  );
});
