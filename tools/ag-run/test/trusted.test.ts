/**
 * The trusted tree, without running anything: which of the patch's changes it takes, which it
 * holds back and why, the setup files the baseline's configuration names, and the tree itself.
 */
import test from 'ava';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { classifyPath, type ChangedFile, type DiffModel } from '@adversary-gate/core';
import { namedSetupFiles } from '../src/setup-files.js';
import { buildTrustedTree, heldBackKind, planTrusted } from '../src/trusted.js';
import { removeTemporaries, temporaryDir } from './helpers/repo.js';
import { changedFile as file } from '../../ag-core/test/support/changed-file.js';

test.after.always(removeTemporaries);

const diff = (...files: ChangedFile[]): DiffModel => ({ files });
const NONE: ReadonlySet<string> = new Set();

test('held back: tests, runner configuration and setup code, package manifests and lock files anywhere, node_modules', (t) => {
  const kind = (p: string) => heldBackKind(p, classifyPath, new Set(['support/setup.js']));
  for (const p of ['test/a.test.js', 'tests/test_shop.py', 'src/x.spec.ts', 'pkg/conftest.py'])
    t.is(kind(p), 'test', p);
  for (const p of [
    'pytest.ini',
    'sub/tox.ini',
    '.mocharc.yml',
    'jest.config.js',
    'vitest.config.ts',
    'jest.setup.js',
    'src/setupTests.ts',
  ])
    t.is(kind(p), 'runner_config', p);
  for (const p of [
    'package.json',
    'vendor/check/package.json',
    'package-lock.json',
    'npm-shrinkwrap.json',
    'pnpm-lock.yaml',
    'yarn.lock',
    '.npmrc',
    '.yarnrc.yml',
    'requirements.txt',
    'requirements-dev.txt',
    'setup.py',
    'setup.cfg',
    'pyproject.toml',
    'Pipfile',
    'Pipfile.lock',
    'poetry.lock',
  ])
    t.is(kind(p), 'package', p);
  for (const p of ['node_modules/checker/index.js', 'packages/a/node_modules/x/package.json'])
    t.is(kind(p), 'installed', p);
  t.is(kind('support/setup.js'), 'setup_file');
  for (const p of [
    'calc.js',
    'src/cart.js',
    'shop.py',
    'fastmath.py',
    'README.md',
    'vendor/check/index.js',
    'docs/setup.md',
  ])
    t.is(kind(p), null, p);
});

test('a patch that changes a non-test file: the baseline tree with the other changes applied, path by path', (t) => {
  const plan = planTrusted(
    diff(
      file('modified', 'calc.js'),
      file('added', 'lib/extra.js'),
      file('deleted', 'old.js'),
      file('renamed', 'lib/b.js', 'lib/a.js'),
      file('modified', 'test/calc.test.js'),
      file('added', 'test/new.test.js'),
      file('deleted', 'test/gone.test.js'),
      file('renamed', 'test/helpers/y.js', 'test/helpers/x.js'),
      file('modified', 'package.json'),
      file('added', 'conftest.py'),
      file('added', 'node_modules/checker/index.js'),
      file('renamed', 'lib/moved.js', 'test/util.js'),
      file('copied', 'lib/copy.js', 'calc.js'),
    ),
    classifyPath,
    NONE,
  )!;
  t.is(plan.tree, 'baseline');
  t.deepEqual(plan.fromPatch, [
    { path: 'calc.js', change: 'modified' },
    // a code file renamed: at its new path, and at its old one with the patched content
    { path: 'lib/a.js', change: 'modified', from: 'lib/b.js' },
    { path: 'lib/b.js', change: 'added' },
    { path: 'lib/copy.js', change: 'added' },
    { path: 'lib/extra.js', change: 'added' },
    // a test file moved to a non-test path: the new path comes from the patch, the old one stays
    { path: 'lib/moved.js', change: 'added' },
    { path: 'old.js', change: 'deleted' },
  ]);
  t.deepEqual(plan.heldBack, [
    { path: 'conftest.py', change: 'added', kind: 'test' },
    { path: 'node_modules/checker/index.js', change: 'added', kind: 'installed' },
    { path: 'package.json', change: 'modified', kind: 'package' },
    { path: 'test/calc.test.js', change: 'modified', kind: 'test' },
    { path: 'test/gone.test.js', change: 'deleted', kind: 'test' },
    { path: 'test/helpers/x.js', change: 'deleted', kind: 'test' },
    { path: 'test/helpers/y.js', change: 'added', kind: 'test' },
    { path: 'test/new.test.js', change: 'added', kind: 'test' },
    { path: 'test/util.js', change: 'deleted', kind: 'test' },
  ]);
  // `files`: what keeps its baseline version, on the baseline path (as older evidence has it)
  t.deepEqual(plan.files, [
    { path: 'package.json', change: 'modified', renamed_to: null },
    { path: 'test/calc.test.js', change: 'modified', renamed_to: null },
    { path: 'test/gone.test.js', change: 'deleted', renamed_to: null },
    { path: 'test/helpers/x.js', change: 'renamed', renamed_to: 'test/helpers/y.js' },
    { path: 'test/util.js', change: 'renamed', renamed_to: 'lib/moved.js' },
  ]);
});

test('a test file deleted with the code it imports is deleted in the trusted tree too; a lost test file stays', (t) => {
  const plan = planTrusted(
    diff(file('deleted', 'src/slug.js'), file('deleted', 'test/slug.test.js'), file('deleted', 'test/cart.test.js')),
    classifyPath,
    NONE,
    [{ path: 'test/slug.test.js', subjects: ['src/slug.js'] }],
  )!;
  t.deepEqual(plan.fromPatch, [
    { path: 'src/slug.js', change: 'deleted' },
    { path: 'test/slug.test.js', change: 'deleted' },
  ]);
  t.deepEqual(plan.heldBack, [{ path: 'test/cart.test.js', change: 'deleted', kind: 'test' }]);
  t.deepEqual(plan.retired, [{ path: 'test/slug.test.js', subjects: ['src/slug.js'] }]);
});

test('a docs-only patch and a refactor without test changes still get a trusted run (the baseline tree plus the change)', (t) => {
  const docs = planTrusted(diff(file('modified', 'README.md')), classifyPath, NONE)!;
  t.deepEqual(
    [docs.tree, docs.fromPatch, docs.heldBack],
    ['baseline', [{ path: 'README.md', change: 'modified' }], []],
  );
  const refactor = planTrusted(diff(file('modified', 'src/cart.js')), classifyPath, NONE)!;
  t.is(refactor.tree, 'baseline');
});

test("a test-only patch keeps today's trusted tree: the patch tree with the changed tests put back; one that only adds tests has none", (t) => {
  const plan = planTrusted(
    diff(
      file('modified', 'test/calc.test.js'),
      file('added', 'test/more.test.js'),
      file('renamed', 'test/b.test.js', 'test/a.test.js'),
    ),
    classifyPath,
    NONE,
  )!;
  t.is(plan.tree, 'patch');
  t.deepEqual(plan.files, [
    { path: 'test/a.test.js', change: 'renamed', renamed_to: 'test/b.test.js' },
    { path: 'test/calc.test.js', change: 'modified', renamed_to: null },
  ]);
  t.deepEqual(plan.fromPatch, [{ path: 'test/more.test.js', change: 'added' }]);
  t.deepEqual(
    plan.heldBack.map((h) => `${h.path} ${h.change}`),
    ['test/a.test.js deleted', 'test/b.test.js added', 'test/calc.test.js modified'],
  );
  t.is(planTrusted(diff(file('added', 'test/more.test.js')), classifyPath, NONE), null);
  t.is(planTrusted(diff(), classifyPath, NONE), null);
});

test("the setup files the baseline's configuration and command name", async (t) => {
  const dir = await temporaryDir('ag-run-setup-');
  await fs.writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({
      exports: { '.': { require: './src/index.cjs', import: './src/index.js' } },
      scripts: { test: 'node --test --require ./support/preload.js test/' },
      jest: { setupFiles: ['<rootDir>/support/jest-env.js'], setupFilesAfterEnv: ['./support/after'] },
      ava: { require: ['./support/ava-setup.js'], nodeArguments: ['--import=./support/hooks.mjs'] },
    }),
  );
  await fs.writeFile(path.join(dir, '.mocharc.yml'), 'spec: test/**/*.js\nrequire:\n  - support/mocha.js\n');
  await fs.writeFile(
    path.join(dir, 'vitest.config.ts'),
    "export default { test: { setupFiles: ['./support/vitest.ts'], globalSetup: 'support/global.ts' } };\n",
  );
  await fs.writeFile(
    path.join(dir, 'pytest.ini'),
    '[pytest]\naddopts = -q\n    -p support.plugin\n    -p no:cacheprovider\n',
  );
  await fs.writeFile(path.join(dir, 'conftest.py'), 'pytest_plugins = ["helpers.fixtures", "other"]\n');
  await fs.writeFile(
    path.join(dir, 'pyproject.toml'),
    '[project]\nreadme = {file = "README.md"}\n\n[tool.pytest.ini_options]\naddopts = "-p tools.pyplug"\n',
  );
  const named = await namedSetupFiles(dir, 'npm test');
  for (const p of [
    'support/preload.js',
    'support/jest-env.js',
    'support/after.js',
    'support/ava-setup.js',
    'support/hooks.mjs',
    'support/mocha.js',
    'support/vitest.ts',
    'support/global.ts',
    'support/plugin.py',
    'support/plugin/__init__.py',
    'helpers/fixtures.py',
    'other.py',
    'tools/pyplug.py',
  ])
    t.true(named.has(p), p);
  // package.json's conditional exports are not runner configuration: the source stays the patch's
  t.false(named.has('src/index.cjs'));
  t.false(named.has('src/index.js'));
  t.false(named.has('README.md'), 'a name that is not code is no setup file');
  const command = await namedSetupFiles(dir, '/usr/bin/python3 -m pytest -p myplug -q --import=ignored');
  t.true(command.has('myplug.py'));
  t.false(command.has('support/preload.js'), 'the script of another command is not read');
});

test('the trusted tree: the baseline tree, its installed packages, the applied changes; held-back files as in the baseline', async (t) => {
  const dir = await temporaryDir('ag-run-tree-');
  const write = async (root: string, files: Record<string, string>) => {
    for (const [p, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(root, p)), { recursive: true });
      await fs.writeFile(path.join(root, p), text);
    }
  };
  const baseline = path.join(dir, 'baseline');
  const patch = path.join(dir, 'patch');
  await write(baseline, {
    'calc.js': 'base',
    'old.js': 'old',
    'lib/a.js': 'a',
    'test/t.test.js': 'strict',
    'package.json': '{"v":1}',
  });
  await write(patch, {
    'calc.js': 'patched',
    'lib/b.js': 'a2',
    'lib/new.js': 'new',
    'test/t.test.js': 'lenient',
    'test/extra.test.js': 'extra',
    'package.json': '{"v":2}',
  });
  await write(path.join(dir, 'deps-baseline'), { 'node_modules/checker/index.js': 'strict' });
  await write(path.join(dir, 'deps-patch'), { 'node_modules/checker/index.js': 'lenient' });
  await fs.symlink(path.join(dir, 'deps-baseline', 'node_modules'), path.join(baseline, 'node_modules'));
  await fs.symlink(path.join(dir, 'deps-patch', 'node_modules'), path.join(patch, 'node_modules'));
  const plan = planTrusted(
    diff(
      file('modified', 'calc.js'),
      file('deleted', 'old.js'),
      file('renamed', 'lib/b.js', 'lib/a.js'),
      file('added', 'lib/new.js'),
      file('modified', 'test/t.test.js'),
      file('added', 'test/extra.test.js'),
      file('modified', 'package.json'),
    ),
    classifyPath,
    NONE,
  )!;
  const dest = path.join(dir, 'trusted');
  await buildTrustedTree(patch, baseline, plan, dest);
  const read = (p: string) => fs.readFile(path.join(dest, p), 'utf8').catch(() => null);
  t.is(await read('calc.js'), 'patched');
  t.is(await read('old.js'), null);
  t.is(await read('lib/a.js'), 'a2');
  t.is(await read('lib/b.js'), 'a2');
  t.is(await read('lib/new.js'), 'new');
  t.is(await read('test/t.test.js'), 'strict');
  t.is(await read('test/extra.test.js'), null);
  t.is(await read('package.json'), '{"v":1}');
  t.is(await read('node_modules/checker/index.js'), 'strict');
  t.is(
    await fs.realpath(path.join(dest, 'node_modules')),
    await fs.realpath(path.join(dir, 'deps-baseline', 'node_modules')),
  );
});

test('the trusted tree is never written or read through a link that leads out of it', async (t) => {
  const dir = await temporaryDir('ag-run-tree-');
  const baseline = path.join(dir, 'baseline');
  const patch = path.join(dir, 'patch');
  const outside = path.join(dir, 'outside');
  await fs.mkdir(baseline);
  await fs.mkdir(path.join(patch, 'real'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'x.js'), 'outside');
  await fs.symlink(outside, path.join(baseline, 'out'));
  await fs.symlink(outside, path.join(patch, 'out'));
  const plan = planTrusted(diff(file('added', 'out/x.js')), classifyPath, NONE)!;
  await t.throwsAsync(buildTrustedTree(patch, baseline, plan, path.join(dir, 'trusted')), { message: /leads out/ });
  t.is(await fs.readFile(path.join(outside, 'x.js'), 'utf8'), 'outside');
});
