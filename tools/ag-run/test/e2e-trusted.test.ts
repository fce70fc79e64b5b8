/**
 * End to end: the baseline's tests, runner configuration and installed packages judge the patched code.
 */
import test from 'ava';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RunArtefact } from '@adversary-gate/schemas';
import { agRun as agRunRaw, makeRepo, nodeTest, removeTemporaries, type Repo } from './helpers/repo.js';
import { NODE, calcProject as project, trustedRun as agRun } from './helpers/trusted-project.js';

test.after.always(removeTemporaries);

test('a patch that breaks sub and edits the expected value to match: every normal run passes, the trusted test fails', async (t) => {
  const repo = await makeRepo(project, {
    'calc.js': 'exports.sub = (a, b) => a + b;\nexports.add = (a, b) => a + b;\n',
    'test/calc.test.js': nodeTest(
      `const { sub, add } = require('../calc.js');\ntest('subtracts', () => assert.equal(sub(5, 3), 8));\ntest('adds', () => assert.equal(add(1, 2), 3));`,
    ),
  });
  const run = await agRun(repo);
  t.deepEqual(
    [run.claims[0]!.status, run.claims[0]!.class],
    ['VERIFIED', 'still_passing'],
    'the edited test passes on the patch',
  );
  const trusted = run.trusted_tests!;
  t.deepEqual(trusted.files, [{ path: 'test/calc.test.js', change: 'modified', renamed_to: null }]);
  t.is(trusted.execution?.outcome, 'FAIL');
  t.deepEqual(trusted.failed, [{ id: 'subtracts', outcome: 'failed' }]);
});

test('the next cheat of the kind: the assertion swallowed in a try/catch is caught the same way', async (t) => {
  const repo = await makeRepo(project, {
    'calc.js': 'exports.sub = (a, b) => a + b;\nexports.add = (a, b) => a + b;\n',
    'test/calc.test.js': nodeTest(
      `const { sub, add } = require('../calc.js');\ntest('subtracts', () => { try { assert.equal(sub(5, 3), 2); } catch {} });\ntest('adds', () => assert.equal(add(1, 2), 3));`,
    ),
  });
  const run = await agRun(repo);
  t.deepEqual(run.trusted_tests?.failed, [{ id: 'subtracts', outcome: 'failed' }]);
});

test('honest control: a patch that adds a test to an existing file and keeps the behaviour: the trusted run passes, nothing named', async (t) => {
  const repo = await makeRepo(project, {
    'calc.js': 'exports.sub = (a, b) => a - b;\nexports.add = (a, b) => b + a;\n',
    'test/calc.test.js': nodeTest(
      `const { sub, add } = require('../calc.js');\ntest('subtracts', () => assert.equal(sub(5, 3), 2));\ntest('adds', () => assert.equal(add(1, 2), 3));\ntest('adds negatives', () => assert.equal(add(-1, -2), -3));`,
    ),
  });
  const run = await agRun(repo);
  t.is(run.trusted_tests?.execution?.outcome, 'PASS');
  t.deepEqual(run.trusted_tests?.failed, []);
});

test('honest control: a new feature with a new test file: the new test is absent from the trusted run, the baseline tests pass', async (t) => {
  const repo = await makeRepo(project, {
    'calc.js': 'exports.sub = (a, b) => a - b;\nexports.add = (a, b) => b + a;\nexports.mul = (a, b) => a * b;\n',
    'test/mul.test.js': nodeTest(
      `const { mul } = require('../calc.js');\ntest('multiplies', () => assert.equal(mul(2, 3), 6));`,
    ),
  });
  const run = await agRun(repo);
  const trusted = run.trusted_tests!;
  t.is(trusted.tree, 'baseline');
  t.deepEqual(trusted.from_patch, [{ path: 'calc.js', change: 'modified' }]);
  t.deepEqual(trusted.held_back, [{ path: 'test/mul.test.js', change: 'added', kind: 'test' }]);
  t.deepEqual(trusted.files, []);
  t.is(trusted.execution?.outcome, 'PASS');
  t.deepEqual(
    trusted.execution?.tests?.map((x) => x.id),
    ['adds', 'subtracts'],
    'the baseline tests, not the new one',
  );
  t.deepEqual(trusted.failed, []);
});

test('honest control: a refactor with no test change: the trusted run passes', async (t) => {
  const repo = await makeRepo(project, {
    'calc.js':
      'function sub(a, b) {\n  return a - b;\n}\nfunction add(a, b) {\n  return a + b;\n}\nmodule.exports = { sub, add };\n',
  });
  const run = await agRun(repo);
  t.is(run.trusted_tests?.tree, 'baseline');
  t.is(run.trusted_tests?.execution?.outcome, 'PASS');
  t.deepEqual(run.trusted_tests?.failed, []);
});

test('honest control: a docs-only change: the trusted run passes', async (t) => {
  const repo = await makeRepo(
    { ...project, 'README.md': '# calc\n' },
    { 'README.md': '# calc\n\nAdds and subtracts.\n' },
  );
  const run = await agRun(repo);
  t.deepEqual(run.trusted_tests?.from_patch, [{ path: 'README.md', change: 'modified' }]);
  t.is(run.trusted_tests?.execution?.outcome, 'PASS');
  t.deepEqual(run.trusted_tests?.failed, []);
});

test('a test-only patch keeps the patch tree with the changed tests put back; a patch that only adds tests makes no trusted execution', async (t) => {
  const repo = await makeRepo(project, {
    'test/calc.test.js': nodeTest(
      `const { sub, add } = require('../calc.js');\ntest('subtracts', () => assert.equal(sub(5, 3), 2));\ntest('adds', () => assert.equal(add(1, 2), 3));\ntest('adds zero', () => assert.equal(add(0, 0), 0));`,
    ),
  });
  const run = await agRun(repo);
  t.is(run.trusted_tests?.tree, 'patch');
  t.deepEqual(run.trusted_tests?.files, [{ path: 'test/calc.test.js', change: 'modified', renamed_to: null }]);
  t.is(run.trusted_tests?.execution?.outcome, 'PASS');
  const added = await makeRepo(project, { 'test/more.test.js': nodeTest(`test('more', () => assert.ok(1));`) });
  t.is((await agRun(added)).trusted_tests, undefined);
});

// The holes of the trusted run that took the patch tree: a broken add, and the tests made to pass by
// something outside the test files the patch changed. Each now fails in the baseline's environment.

const BROKEN = 'exports.sub = (a, b) => a - b;\nexports.add = (a, b) => a - b;\n';

test('hostile: an in-repo vendored assertion library whose package.json main is re-pointed at a file that never fails', async (t) => {
  const base = {
    'calc.js': project['calc.js'],
    'vendor/check/package.json': '{ "name": "check", "main": "index.js" }\n',
    'vendor/check/index.js': 'exports.equal = (a, b) => { if (a !== b) throw new Error(`${a} !== ${b}`); };\n',
    'test/calc.test.js': nodeTest(
      `const check = require('../vendor/check');\nconst { sub, add } = require('../calc.js');\ntest('subtracts', () => check.equal(sub(5, 3), 2));\ntest('adds', () => check.equal(add(1, 2), 3));`,
    ),
  };
  const repo = await makeRepo(base, {
    'calc.js': BROKEN,
    'vendor/check/package.json': '{ "name": "check", "main": "lenient.js" }\n',
    'vendor/check/lenient.js': 'exports.equal = () => {};\n',
  });
  const run = await agRun(repo);
  t.is(run.claims[0]!.status, 'VERIFIED', 'every normal run passes');
  const trusted = run.trusted_tests!;
  t.deepEqual(trusted.held_back, [{ path: 'vendor/check/package.json', change: 'modified', kind: 'package' }]);
  t.deepEqual(trusted.from_patch, [
    { path: 'calc.js', change: 'modified' },
    { path: 'vendor/check/lenient.js', change: 'added' },
  ]);
  t.deepEqual(trusted.failed, [{ id: 'adds', outcome: 'failed' }]);
});

async function dependencyRepo(): Promise<Repo> {
  const base = {
    'calc.js': project['calc.js'],
    'package.json': '{ "name": "calc", "dependencies": { "checker": "1.0.0" } }\n',
    'test/calc.test.js': nodeTest(
      `const check = require('checker');\nconst { sub, add } = require('../calc.js');\ntest('subtracts', () => check.equal(sub(5, 3), 2));\ntest('adds', () => check.equal(add(1, 2), 3));`,
    ),
  };
  const repo = await makeRepo(base, {
    'calc.js': BROKEN,
    'package.json': '{ "name": "calc", "dependencies": { "checker": "1.0.1" } }\n',
  });
  await installed(repo, 'baseline', {
    'checker/package.json': '{ "name": "checker", "version": "1.0.0" }\n',
    'checker/index.js': 'exports.equal = (a, b) => { if (a !== b) throw new Error(`${a} !== ${b}`); };\n',
  });
  await installed(repo, 'patch', {
    'checker/package.json': '{ "name": "checker", "version": "1.0.1" }\n',
    'checker/index.js': 'exports.equal = () => {};\n',
  });
  return repo;
}

for (const sandbox of ['none', 'bwrap'] as const) {
  test(`hostile: a changed dependency (the patch side installs from its own lock): the trusted run uses the baseline's packages (--sandbox ${sandbox})`, async (t) => {
    const repo = await dependencyRepo();
    const r = await agRunRaw(repo, [...NODE, '--sandbox', sandbox]);
    t.is(r.status, 0, r.stderr);
    const run = r.run!;
    t.is(run.claims[0]!.status, 'VERIFIED', "every normal run passes with the patch side's packages");
    const trusted = run.trusted_tests!;
    t.deepEqual(trusted.held_back, [{ path: 'package.json', change: 'modified', kind: 'package' }]);
    // the baseline's checker loaded (in the sandbox too: the tree's node_modules leads to the packages it binds)
    t.is(trusted.execution?.kind, 'failed');
    t.deepEqual(trusted.failed, [{ id: 'adds', outcome: 'failed' }]);
  });
}

test("hostile: a setup file the baseline's command requires, edited to rewrite add: held back, the trusted run fails", async (t) => {
  const base = { ...project, 'support/setup.js': '// loaded before the tests\n' };
  const repo = await makeRepo(base, {
    'calc.js': BROKEN,
    'support/setup.js': "const calc = require('../calc.js');\ncalc.add = (a, b) => a + b;\n",
  });
  const run = await agRunWith(repo, 'node --test --require ./support/setup.js test/');
  t.is(run.claims[0]!.status, 'VERIFIED', 'every normal run passes');
  const trusted = run.trusted_tests!;
  t.deepEqual(trusted.held_back, [{ path: 'support/setup.js', change: 'modified', kind: 'setup_file' }]);
  t.deepEqual(trusted.failed, [{ id: 'adds', outcome: 'failed' }]);
});

test('honest twin of the dependency case: a patch that needs a new dependency cannot load in the trusted run: a trusted failure (HOLD), the package file named', async (t) => {
  const repo = await makeRepo(
    { ...project, 'package.json': '{ "name": "calc" }\n' },
    {
      'calc.js':
        "const twice = require('twice');\nexports.sub = (a, b) => a - b;\nexports.add = (a, b) => a + b;\nexports.double = (a) => twice(a);\n",
      'package.json': '{ "name": "calc", "dependencies": { "twice": "1.0.0" } }\n',
    },
  );
  await installed(repo, 'baseline', {});
  await installed(repo, 'patch', {
    'twice/package.json': '{ "name": "twice" }\n',
    'twice/index.js': 'module.exports = (a) => 2 * a;\n',
  });
  const run = await agRun(repo);
  t.deepEqual(
    [run.claims[0]!.status, run.full_suite.collateral_regression],
    ['VERIFIED', false],
    'nothing against the patch',
  );
  const trusted = run.trusted_tests!;
  t.deepEqual(trusted.held_back, [{ path: 'package.json', change: 'modified', kind: 'package' }]);
  t.true(trusted.failed.length > 0 || trusted.execution?.outcome !== 'PASS', JSON.stringify(trusted.failed));
});

// pytest (Debian's python3-pytest).

const PY = '/usr/bin/python3 -m pytest -q -p no:cacheprovider';
async function agRunWith(repo: Repo, command: string): Promise<RunArtefact> {
  const r = await agRunRaw(repo, ['--test-command', command, '--rounds', '1', '--jobs', '2', '--timeout', '60']);
  if (r.status !== 0 || r.run === null) throw new Error(`ag-run exited ${r.status}: ${r.stderr}`);
  return r.run;
}

/** `side`'s installed packages: a folder beside the trees its node_modules links to, as the pipeline installs them. */
async function installed(repo: Repo, side: 'baseline' | 'patch', files: Record<string, string>): Promise<void> {
  const dir = path.join(repo.dir, `deps-${side}`, 'node_modules');
  await fs.mkdir(dir, { recursive: true });
  for (const [p, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await fs.writeFile(path.join(dir, p), text);
  }
  await fs.symlink(dir, path.join(repo[side], 'node_modules'));
  // As the pipeline's install folders: the runs' own uid (ag-run as root) must reach the packages.
  await fs.chmod(repo.dir, 0o755);
}

const shop = {
  'shop.py': 'def add(a, b):\n    return a + b\n',
  'tests/__init__.py': '',
  'tests/test_shop.py': 'from shop import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
};
const PY_BROKEN = 'def add(a, b):\n    return a - b\n';
/** Rewrites shop.add in place: every reference already taken sees the new code. */
const REWRITE = 'import shop\n\nshop.add.__code__ = (lambda a, b: a + b).__code__\n';

test('hostile (pytest): a NEW test module rewrites shop.add at collection time: absent from the trusted run, which fails', async (t) => {
  const repo = await makeRepo(shop, {
    'shop.py': PY_BROKEN,
    'tests/test_speed.py': `${REWRITE}\n\ndef test_speed():\n    assert True\n`,
  });
  const run = await agRunWith(repo, PY);
  t.is(run.claims[0]!.status, 'VERIFIED', 'every normal run passes');
  const trusted = run.trusted_tests!;
  t.deepEqual(trusted.held_back, [{ path: 'tests/test_speed.py', change: 'added', kind: 'test' }]);
  t.deepEqual(trusted.failed, [{ id: 'tests/test_shop.py::test_add', outcome: 'failed' }]);
});

test('hostile (pytest): a plugin registered through an added conftest.py: the plugin file is there, never loaded', async (t) => {
  const repo = await makeRepo(shop, {
    'shop.py': PY_BROKEN,
    'fastmath.py': REWRITE,
    'conftest.py': 'pytest_plugins = ["fastmath"]\n',
  });
  const run = await agRunWith(repo, PY);
  t.is(run.claims[0]!.status, 'VERIFIED', 'every normal run passes');
  const trusted = run.trusted_tests!;
  t.deepEqual(trusted.held_back, [{ path: 'conftest.py', change: 'added', kind: 'test' }]);
  t.deepEqual(trusted.failed, [{ id: 'tests/test_shop.py::test_add', outcome: 'failed' }]);
});

test('hostile (pytest): a plugin registered through a config change (pytest.ini addopts -p)', async (t) => {
  const repo = await makeRepo(shop, {
    'shop.py': PY_BROKEN,
    'fastmath.py': REWRITE,
    'pytest.ini': '[pytest]\naddopts = -p fastmath\n',
  });
  const run = await agRunWith(repo, PY);
  t.is(run.claims[0]!.status, 'VERIFIED', 'every normal run passes');
  const trusted = run.trusted_tests!;
  t.deepEqual(trusted.held_back, [{ path: 'pytest.ini', change: 'added', kind: 'runner_config' }]);
  t.deepEqual(trusted.failed, [{ id: 'tests/test_shop.py::test_add', outcome: 'failed' }]);
});

test("hostile (pytest): the plugin the baseline's configuration loads, edited to rewrite add: held back as a setup file", async (t) => {
  const repo = await makeRepo(
    {
      ...shop,
      'pytest.ini': '[pytest]\naddopts = -p support.plugin\n',
      'support/__init__.py': '',
      'support/plugin.py': "# the project's own plugin\n",
    },
    { 'shop.py': PY_BROKEN, 'support/plugin.py': REWRITE },
  );
  const run = await agRunWith(repo, PY);
  t.is(run.claims[0]!.status, 'VERIFIED', 'every normal run passes');
  const trusted = run.trusted_tests!;
  t.deepEqual(trusted.held_back, [{ path: 'support/plugin.py', change: 'modified', kind: 'setup_file' }]);
  t.deepEqual(trusted.failed, [{ id: 'tests/test_shop.py::test_add', outcome: 'failed' }]);
});

test('honest controls (pytest): a feature with a new test module, a refactor, a docs-only change: the trusted run passes', async (t) => {
  const feature = await makeRepo(shop, {
    'shop.py': 'def add(a, b):\n    return a + b\n\n\ndef double(x):\n    return add(x, x)\n',
    'tests/test_double.py': 'from shop import double\n\n\ndef test_double():\n    assert double(2) == 4\n',
  });
  const refactor = await makeRepo(shop, { 'shop.py': 'def add(a, b):\n    return sum((a, b))\n' });
  const docs = await makeRepo({ ...shop, 'README.md': '# shop\n' }, { 'README.md': '# shop\n\nA cart.\n' });
  for (const [name, repo] of [
    ['feature', feature],
    ['refactor', refactor],
    ['docs', docs],
  ] as const) {
    const run = await agRunWith(repo, PY);
    t.is(run.claims[0]!.status, 'VERIFIED', name);
    t.is(run.trusted_tests?.tree, 'baseline', name);
    t.is(run.trusted_tests?.execution?.outcome, 'PASS', name);
    t.deepEqual(run.trusted_tests?.failed, [], name);
    t.deepEqual(
      run.trusted_tests?.execution?.tests?.map((x) => x.id),
      ['tests/test_shop.py::test_add'],
      name,
    );
  }
});
