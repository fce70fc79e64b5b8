// An npm-workspaces repository whose root has no runner of its own (its test script is
// `npm test --workspaces`): the gate judges the one workspace the patch changes with that
// workspace's own runner, run from the tree's root, through the real binary.
import test from 'ava';
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { commitPair, tempDir, type Files } from '../../ag-core/test/support/git-repo.js';
import { gate } from './project.js';

const RANGE = ['--base', 'main~1', '--head', 'main'];

const nodeTest = (name: string, from: string, body: string) =>
  `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { ${name} } from '${from}';\n${body}\n`;

/** Two packages with node:test and no dependencies at all: the root installs nothing. */
const BASE: Files = {
  'package.json': JSON.stringify({
    name: 'mono',
    private: true,
    workspaces: ['packages/*'],
    scripts: { test: 'npm test --workspaces' },
  }),
  'packages/foo/package.json': JSON.stringify({ name: 'foo', type: 'module', scripts: { test: 'node --test' } }),
  'packages/foo/src/add.js': 'export const add = (a, b) => a + b;\n',
  'packages/foo/test/add.test.js': nodeTest('add', '../src/add.js', "test('add', () => assert.equal(add(2, 3), 5));"),
  'packages/bar/package.json': JSON.stringify({ name: 'bar', type: 'module', scripts: { test: 'node --test' } }),
  'packages/bar/src/sub.js': 'export const sub = (a, b) => a - b;\n',
  'packages/bar/test/sub.test.js': nodeTest('sub', '../src/sub.js', "test('sub', () => assert.equal(sub(5, 3), 2));"),
};

/** The honest patch in packages/foo: a new function and the tests that pin it. */
const HONEST: Files = {
  'packages/foo/src/mul.js': 'export const mul = (a, b) => a * b;\n',
  'packages/foo/test/mul.test.js': nodeTest(
    'mul',
    '../src/mul.js',
    "test('mul', () => {\n  assert.equal(mul(2, 3), 6);\n  assert.equal(mul(-2, 3), -6);\n  assert.equal(mul(0, 5), 0);\n});",
  ),
};

function repository(patch: Files, base: Files = {}): string {
  const dir = path.join(tempDir('ag-gate-ws'), 'repo');
  commitPair(dir, { ...BASE, ...base }, patch);
  chmodSync(path.dirname(dir), 0o755);
  return dir;
}

const read = (out: string, file: string) => readFileSync(path.join(out, file), 'utf8');
const verdictOf = (out: string) =>
  JSON.parse(read(out, 'verdict.json')) as { verdict: string; reasons: { code: string; message: string }[] };

test('an honest patch in one workspace: its own node:test from its folder, coverage matched to its files: ACCEPT', async (t) => {
  const repo = repository(HONEST);
  const r = await gate(repo, [...RANGE, '--out', 'ev']);
  const out = path.join(repo, 'ev');
  const v = verdictOf(out);
  t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
  t.is(r.code, 0);
  const detected = read(out, 'detected.txt');
  t.regex(detected, /workspaces: packages\/bar, packages\/foo \(package\.json workspaces: packages\/\*\)/);
  t.regex(detected, /workspace packages\/foo: the one the patch changes/);
  t.regex(detected, /tests: cd packages\/foo && node --test /);
  t.regex(detected, /per-test report: JUnit packages\/foo\/\.ag-junit\.xml/);
  // The per-test ids carry the file from the tree's root, the same on both sides.
  const run = read(out, 'run.json');
  t.true(run.includes('packages/foo/test/mul.test.js'), 'the new test is named by its file from the root');
  t.true(run.includes('packages/foo/test/add.test.js'), 'the old test too');
  t.false(run.includes('packages/bar/'), 'the other workspace is not run');
  // The workspace's lcov (paths relative to packages/foo) matches the changed file exactly.
  t.regex(read(out, 'coverage/lcov.info'), /^SF:packages\/foo\/src\/mul\.js$/m);
  const diffcov = JSON.parse(read(out, 'diffcov.json')) as {
    files: { path: string; status?: string; executable_lines?: number; covered_lines?: number }[];
  };
  const mul = diffcov.files.find((f) => f.path === 'packages/foo/src/mul.js');
  t.truthy(mul, read(out, 'diffcov.json'));
  t.notRegex(read(out, 'diffcov.json'), /ambiguous/);
});

test('a broken patch in one workspace (a test of that package now fails): REJECT', async (t) => {
  const repo = repository({ ...HONEST, 'packages/foo/src/add.js': 'export const add = (a, b) => a - b;\n' });
  const r = await gate(repo, [...RANGE, '--out', 'ev', '--mutate-max', '4']);
  const v = verdictOf(path.join(repo, 'ev'));
  t.is(v.verdict, 'REJECT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
  t.is(r.code, 1);
  t.true(
    v.reasons.some(
      (x) => x.code === 'COLLATERAL_REGRESSION' && x.message.includes('packages/foo/test/add.test.js::add'),
    ),
    JSON.stringify(v.reasons),
  );
});

test('a patch in two workspaces: a HOLD that names both (one workspace’s runner at a time)', async (t) => {
  const repo = repository({
    ...HONEST,
    'packages/bar/src/neg.js': 'export const neg = (a) => -a;\n',
  });
  const r = await gate(repo, [...RANGE, '--out', 'ev']);
  const v = verdictOf(path.join(repo, 'ev'));
  t.is(v.verdict, 'HOLD', r.stderr);
  t.is(r.code, 2);
  t.true(
    v.reasons.some((x) => /the patch changes 2 workspaces \(packages\/bar, packages\/foo\)/.test(x.message)),
    JSON.stringify(v.reasons),
  );
});

test('a package npm could not hoist, in the workspace’s own node_modules, reaches its tests: ACCEPT', async (t) => {
  // Two versions of one local package: npm hoists bar's to the root and nests foo's in
  // packages/foo/node_modules, which the root's install makes in its own copy.
  const helper = (which: string) => ({
    [`vendor/helper-${which}/package.json`]: JSON.stringify({
      name: 'helper',
      version: which === 'a' ? '1.0.0' : '2.0.0',
      type: 'module',
      main: 'index.js',
    }),
    [`vendor/helper-${which}/index.js`]: `export const which = '${which}';\n`,
  });
  const base: Files = {
    ...helper('a'),
    ...helper('b'),
    'packages/foo/package.json': JSON.stringify({
      name: 'foo',
      type: 'module',
      scripts: { test: 'node --test' },
      dependencies: { helper: 'file:../../vendor/helper-a' },
    }),
    'packages/bar/package.json': JSON.stringify({
      name: 'bar',
      type: 'module',
      scripts: { test: 'node --test' },
      dependencies: { helper: 'file:../../vendor/helper-b' },
    }),
  };
  const patch: Files = {
    'packages/foo/src/tag.js': "import { which } from 'helper';\nexport const tag = (s) => `${s}-${which}`;\n",
    'packages/foo/test/tag.test.js': nodeTest(
      'tag',
      '../src/tag.js',
      "test('tag', () => {\n  assert.equal(tag('x'), 'x-a');\n  assert.equal(tag(''), '-a');\n});",
    ),
  };
  const repo = repository(patch, base);
  const r = await gate(repo, [...RANGE, '--out', 'ev']);
  const out = path.join(repo, 'ev');
  const v = verdictOf(out);
  t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
  t.regex(read(out, 'detected.txt'), /install: npm install /);
  t.regex(r.stderr, /\[4\/9\] install: npm install .* \(the patch shares it\)/);
});
