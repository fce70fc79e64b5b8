import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { classGlobs, classifyPath, classifyTree, DEFAULT_TEST_GLOBS, makeClassifier } from '../src/index.js';

test('test files by JS/TS and Python conventions', (t) => {
  for (const p of [
    'test/a.js',
    'src/__tests__/x.ts',
    'pkg/foo.test.ts',
    'a/b.spec.mjs',
    'tests/test_x.py',
    'test_x.py',
    'x_test.py',
    'conftest.py',
  ]) {
    t.is(classifyPath(p), 'test', p);
  }
});

test('docs, images, lock files and data are not code', (t) => {
  for (const p of [
    'README.md',
    'docs/guide.rst',
    'logo.png',
    'package-lock.json',
    'data/x.csv',
    'LICENSE',
    '.gitignore',
    'types.pyi',
    'src/index.d.ts',
    'docs/conf.py',
    'doc/conf.py',
    '.coveragerc',
    '.nycrc',
    'pkg/.npmrc',
  ]) {
    t.is(classifyPath(p), 'not_code', p);
  }
  // Only the docs builder's settings file: code elsewhere named conf.py, or beside it, is code.
  for (const p of ['src/conf.py', 'conf.py', 'docs/ext/roles.py']) t.is(classifyPath(p), 'source', p);
});

test('anything unrecognised counts as source', (t) => {
  for (const p of ['src/a.js', 'calc.py', 'schema.sql', 'vec.cpp', 'Makefile', 'lib/x.vue', 'src/types.ts'])
    t.is(classifyPath(p), 'source', p);
});

test("root-level test files by the runners' own conventions are tests", (t) => {
  for (const p of [
    'test.js',
    'test.mjs',
    'test-parse.js',
    'lib/test.ts',
    'pkg/test-x.cjs',
    'a.test.js',
    'x_test.py',
    '__snapshots__/a.test.js.snap',
    'test.js.snap',
  ]) {
    t.is(classifyPath(p), 'test', p);
  }
  // the control beside them: names that only contain "test" stay source or data
  for (const p of ['testing.js', 'latest.js', 'src/contest.js', 'attest.py']) t.is(classifyPath(p), 'source', p);
  t.is(classifyPath('test-data.json'), 'not_code');
});

test("the policy's globs extend the defaults", (t) => {
  const classify = makeClassifier({ test: ['checks/**'] });
  t.is(classify('checks/a.js'), 'test');
  t.is(classify('test/a.js'), 'test', 'a default still applies');
  t.is(classify('src/a.js'), 'source');
  const notCode = makeClassifier({ not_code: ['**/*.sql'] });
  t.is(notCode('db/schema.sql'), 'not_code');
  t.is(notCode('README.md'), 'not_code', 'a default still applies');
});

test("a class listed in replace uses the policy's globs alone", (t) => {
  const classify = makeClassifier({ test: ['checks/**'], replace: ['test'] });
  t.is(classify('checks/a.js'), 'test');
  t.is(classify('test/a.js'), 'source');
  t.is(classify('README.md'), 'not_code', 'not_code is not replaced');
  const both = makeClassifier({ test: ['checks/**'], not_code: ['**/*.txt'], replace: ['test', 'not_code'] });
  t.is(both('README.md'), 'source');
  t.is(both('a.txt'), 'not_code');
});

test('classGlobs lists what a class is matched with', (t) => {
  t.deepEqual(classGlobs({}, 'test'), [...DEFAULT_TEST_GLOBS]);
  t.deepEqual(classGlobs({ test: ['x/**'] }, 'test'), [...DEFAULT_TEST_GLOBS, 'x/**']);
  t.deepEqual(classGlobs({ test: ['x/**'], replace: ['test'] }, 'test'), ['x/**']);
  t.deepEqual(
    classGlobs({ replace: ['test'] }, 'test'),
    [...DEFAULT_TEST_GLOBS],
    'replace without globs keeps the defaults',
  );
});

// What is a test is what the runner runs: test-named files that source imports are source.
const tmpTree = (files: Record<string, string>): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-core-imports-'));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
};
const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

test('a test-named file that source imports is source (JS relative imports, re-exports, require)', (t) => {
  const tree = tmpTree({
    'src/index.js': "import { pick } from './ab-test.js';\nexport * from '../test/helpers/shared.js';\n",
    'src/ab-test.js': "const { weight } = require('./weights-test');\nexport const pick = () => weight;\n",
    'src/weights-test.js': 'module.exports = { weight: 1 };\n',
    'test/helpers/shared.js': 'export const double = (x) => x * 2;\n',
    'test/ab.test.js': "import { pick } from '../src/ab-test.js';\nimport './helpers/only-tests.js';\n",
    'test/helpers/only-tests.js': 'export const fixture = 1;\n',
  });
  const { classify, promoted } = classifyTree(tree);
  t.deepEqual(
    promoted.map((p) => [p.path, p.imported_by]),
    [
      ['src/ab-test.js', 'src/index.js'],
      ['src/weights-test.js', 'src/ab-test.js'],
      ['test/helpers/shared.js', 'src/index.js'],
    ],
  );
  t.is(classify('src/ab-test.js'), 'source');
  t.is(classify('src/weights-test.js'), 'source', 'transitively');
  // the controls: a test that imports a helper leaves both tests; the test itself stays a test
  t.is(classify('test/helpers/only-tests.js'), 'test');
  t.is(classify('test/ab.test.js'), 'test');
});

test('the files tests import are listed, so a table both source and tests import can be told apart', (t) => {
  const tree = tmpTree({
    'scripts/redos.ts': "import { CASES } from '../src/cases.spec.js';\n",
    'src/cases.spec.ts': 'export const CASES = [];\n',
    'src/index.spec.ts': "import { CASES } from './cases.spec.js';\nimport { parse } from './index.js';\n",
    'src/index.ts': 'export const parse = () => 1;\n',
  });
  const r = classifyTree(tree);
  t.deepEqual(
    r.promoted.map((p) => p.path),
    ['src/cases.spec.ts'],
  );
  t.deepEqual(r.imported_by_tests, ['src/cases.spec.ts', 'src/index.ts']);
});

test('TypeScript specifiers written with .js resolve to the .ts file; index files resolve', (t) => {
  const tree = tmpTree({
    'src/index.ts': "import { a } from './util-test.js';\nimport { b } from './fixtures';\n",
    'src/util-test.ts': 'export const a = 1;\n',
    'src/fixtures/index.ts': 'export const b = 1;\n',
    'src/__tests__/index.ts': '',
  });
  const { promoted } = classifyTree(tree, { test: ['src/fixtures/**'] });
  t.deepEqual(
    promoted.map((p) => p.path),
    ['src/fixtures/index.ts', 'src/util-test.ts'],
  );
});

test('Python: relative and package imports of a test-named module from source make it source', (t) => {
  const tree = tmpTree({
    'pkg/__init__.py': '',
    'pkg/core.py': 'from .test_data import TABLE\nfrom tests import helpers\nimport tests.golden_test\n',
    'pkg/test_data.py': 'TABLE = {}\n',
    'tests/__init__.py': '',
    'tests/helpers.py': 'def h():\n    return 1\n',
    'tests/golden_test.py': 'X = 1\n',
    'tests/test_core.py': 'from pkg.core import TABLE\nfrom .conftest_helpers import y\n',
    'tests/conftest_helpers.py': 'y = 1\n',
  });
  const { promoted } = classifyTree(tree);
  // importing a package runs its __init__.py too: that is source's code now
  t.deepEqual(
    promoted.map((p) => p.path),
    ['pkg/test_data.py', 'tests/__init__.py', 'tests/golden_test.py', 'tests/helpers.py'],
  );
});

test('imports that leave the tree, bare package names and commented-out text promote nothing', (t) => {
  const tree = tmpTree({
    'src/a.js': "import x from 'ava';\nimport y from '../../outside-test.js';\n",
    'src/b.py': 'import pytest\n',
    'test.js': '',
  });
  t.deepEqual(classifyTree(tree).promoted, []);
});

test('with a manifest, only product code makes a test-named file source: a script beside it does not', (t) => {
  const files = {
    'scripts/redos.ts': "import { CASES } from '../src/cases.spec.js';\n",
    'src/cases.spec.ts': 'export const CASES = [];\n',
    'src/index.spec.ts': "import { CASES } from './cases.spec.js';\nimport { parse } from './index.js';\n",
    'src/index.ts': 'export const parse = () => 1;\n',
    'package.json': JSON.stringify({ exports: './dist/index.js', main: 'dist/index.js', typings: 'dist/index.d.ts' }),
    'tsconfig.json': '{\n  // compiled\n  "compilerOptions": { "rootDir": "src", "outDir": "dist", },\n}\n',
  };
  t.deepEqual(classifyTree(tmpTree(files)).promoted, []);
  // The next one of the kind: the shipped entry imports a test-named file, directly or through a module the tests import.
  const direct = classifyTree(tmpTree({ ...files, 'src/index.ts': "import { CASES } from './cases.spec.js';\n" }));
  t.deepEqual(
    direct.promoted.map((p) => [p.path, p.imported_by]),
    [['src/cases.spec.ts', 'src/index.ts']],
  );
  const viaTested = classifyTree(
    tmpTree({
      ...files,
      'src/util.ts': "export { CASES } from './cases.spec.js';\n",
      'test/util.test.ts': "import { CASES } from '../src/util.js';\n",
    }),
  );
  t.deepEqual(
    viaTested.promoted.map((p) => [p.path, p.imported_by]),
    [['src/cases.spec.ts', 'src/util.ts']],
  );
  // A bin, and an entry reached through a module it imports.
  const bin = classifyTree(
    tmpTree({
      ...files,
      'package.json': JSON.stringify({ main: 'dist/index.js', bin: { tool: './cli.js' } }),
      'cli.js': "require('./lib/run.js');\n",
      'lib/run.js': "module.exports = require('./table-test.js');\n",
      'lib/table-test.js': 'module.exports = [];\n',
    }),
  );
  t.deepEqual(
    bin.promoted.map((p) => p.path),
    ['lib/table-test.js'],
  );
});

test('a manifest whose entry is not in the tree, or a pattern, says nothing: every source file is product code', (t) => {
  const files = {
    'scripts/redos.ts': "import { CASES } from '../src/cases.spec.js';\n",
    'src/cases.spec.ts': 'export const CASES = [];\n',
    'src/index.ts': 'export const parse = () => 1;\n',
  };
  for (const pkg of [{ main: 'build/index.js' }, { exports: { './*': './src/*.js' } }, {}, '{ not json']) {
    const tree = tmpTree({ ...files, 'package.json': typeof pkg === 'string' ? pkg : JSON.stringify(pkg) });
    t.deepEqual(
      classifyTree(tree).promoted.map((p) => p.path),
      ['src/cases.spec.ts'],
      JSON.stringify(pkg),
    );
  }
});
