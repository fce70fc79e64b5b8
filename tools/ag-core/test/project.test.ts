import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { detectProject, keptArgs, scriptInvocation, shellWords, wirePytest } from '../src/project/index.js';

const dirs: string[] = [];
test.after.always(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A tree with these files (`name` → contents; objects become JSON). */
function tree(files: Record<string, string | object>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ag-project-'));
  dirs.push(root);
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), typeof body === 'string' ? body : JSON.stringify(body));
  }
  return root;
}

test('shell words keep quoted spaces and drop the quotes', (t) => {
  t.deepEqual(shellWords(`mocha --grep "a b" 'c d' e\\ f ""`), ['mocha', '--grep', 'a b', 'c d', 'e f', '']);
});

test('the runner is found past linters, env assignments and wrappers in the test script', (t) => {
  t.deepEqual(scriptInvocation('xo && ava && tsd'), { runner: 'ava', args: [], globbed: [] });
  t.deepEqual(scriptInvocation('NODE_ENV=test nyc --reporter=lcov mocha -R dot test/'), {
    runner: 'mocha',
    args: ['-R', 'dot', 'test/'],
    globbed: [],
  });
  t.deepEqual(scriptInvocation('npx --no-install vitest run src'), {
    runner: 'vitest',
    args: ['run', 'src'],
    globbed: [],
  });
  t.deepEqual(scriptInvocation('node --test test/'), { runner: 'node', args: ['--test', 'test/'], globbed: [] });
  t.is(scriptInvocation('node scripts/check.js; ts-scripts test'), null, 'node without --test is not a runner');
});

test('a glob the script leaves to the shell stays bare in the wired command; a quoted one stays quoted', (t) => {
  const bare = new Set<string>();
  t.deepEqual(shellWords(`mocha 'test/**/*.js' test/*.spec.js "a?"`, bare), [
    'mocha',
    'test/**/*.js',
    'test/*.spec.js',
    'a?',
  ]);
  t.deepEqual([...bare], ['test/*.spec.js']);
  const node = detectProject(tree({ 'package.json': { scripts: { test: 'node --test test/*.test.js' } } }));
  t.regex(node.wiring?.test_command ?? '', / test\/\*\.test\.js$/, node.wiring?.test_command ?? '');
  const mocha = detectProject(
    tree({ 'package.json': { scripts: { test: "mocha 'test/**/*.js'" }, devDependencies: { mocha: '10.0.0' } } }),
  );
  t.regex(mocha.wiring?.test_command ?? '', / 'test\/\*\*\/\*\.js'/, 'mocha expands a quoted ** itself');
});

test('the flags the gate sets itself are dropped; the project’s files and options stay', (t) => {
  t.deepEqual(keptArgs('mocha', ['--reporter', 'spec', '--check-leaks', '--bail', 'test/']), [
    '--check-leaks',
    'test/',
  ]);
  t.deepEqual(keptArgs('vitest', ['run', '--coverage.enabled', '--reporter=dot', '-c', 'vitest.ci.ts']), [
    '-c',
    'vitest.ci.ts',
  ]);
  t.deepEqual(keptArgs('node', ['--test', '--test-reporter', 'tap', 'test/']), ['test/']);
});

test('fresh-like: mocha from scripts.test, bail and reporter dropped, nyc for coverage, npm install without a lock', (t) => {
  const root = tree({
    'package.json': {
      scripts: { test: 'mocha --reporter spec --check-leaks --bail test/' },
      devDependencies: { mocha: '9.2.0', nyc: '15.1.0' },
    },
  });
  const plan = detectProject(root);
  t.is(plan.runner, 'mocha');
  t.is(plan.install_command, 'npm install --no-audit --no-fund --no-package-lock --ignore-scripts');
  t.is(
    plan.wiring?.test_command,
    'npx --no-install mocha --check-leaks test/ --reporter=xunit --reporter-option=output=.ag-junit.xml',
  );
  t.regex(plan.wiring?.coverage_command ?? '', /^npx --no-install nyc --reporter=lcov /);
  t.deepEqual(plan.problems, []);
});

test('path-to-regexp-like: an unknown wrapper in scripts.test, vitest found from its config file', (t) => {
  const root = tree({
    'package.json': {
      scripts: { test: 'ts-scripts test && npm run size' },
      devDependencies: { vitest: '^3', '@vitest/coverage-v8': '^3' },
    },
    'package-lock.json': '{}',
    'vitest.config.mts': 'export default {}',
  });
  const plan = detectProject(root);
  t.is(plan.runner, 'vitest');
  t.is(plan.install_command, 'npm ci --no-audit --no-fund --ignore-scripts');
  t.deepEqual(plan.wiring?.report, { kind: 'junit', path: '.ag-junit.xml' });
  t.regex(plan.wiring?.coverage_command ?? '', /--coverage\.provider=v8 --coverage\.reporter=lcov/);
  t.true(plan.found.some((f) => f.includes('vitest.config.mts')));
});

test('camelcase-like: ava without a coverage tool is wired for TAP, and the missing coverage is a named problem', (t) => {
  const plan = detectProject(
    tree({ 'package.json': { type: 'module', scripts: { test: 'xo && ava && tsd' }, devDependencies: { ava: '^6' } } }),
  );
  t.is(plan.wiring?.test_command, 'npx --no-install ava --tap');
  t.is(plan.wiring?.coverage_command, null);
  t.deepEqual(plan.problems, ['no coverage tool for ava: the project has no c8 or nyc (coverage is not measured)']);
});

test('the lock file names the package manager; lifecycle scripts run only when allowed', (t) => {
  const pkg = { scripts: { test: 'jest' }, devDependencies: { jest: '^29', 'jest-junit': '^16' } };
  t.is(
    detectProject(tree({ 'package.json': pkg, 'pnpm-lock.yaml': '' })).install_command,
    'pnpm install --frozen-lockfile --ignore-scripts',
  );
  t.is(
    detectProject(tree({ 'package.json': pkg, 'yarn.lock': '' })).install_command,
    'yarn install --frozen-lockfile --ignore-scripts',
  );
  t.is(
    detectProject(tree({ 'package.json': pkg, 'yarn.lock': '', '.yarnrc.yml': '' })).install_command,
    'yarn install --immutable --mode=skip-build',
  );
  t.is(
    detectProject(tree({ 'package.json': pkg, 'package-lock.json': '{}' }), { allowScripts: true }).install_command,
    'npm ci --no-audit --no-fund',
  );
});

test('jest without jest-junit cannot give a per-test report: a named problem', (t) => {
  const plan = detectProject(
    tree({ 'package.json': { scripts: { test: 'jest --coverage' }, devDependencies: { jest: '^29' } } }),
  );
  t.is(plan.runner, 'jest');
  t.true(plan.problems.some((p) => p.includes('jest-junit')));
});

test('no runner in package.json, and no project at all, are named problems', (t) => {
  const none = detectProject(tree({ 'package.json': { scripts: { test: 'echo no tests' } } }));
  t.is(none.runner, null);
  t.regex(none.problems[0] ?? '', /no test runner found/);
  t.is(none.install_command, null, 'nothing to install without dependencies');
  const empty = detectProject(tree({ 'README.md': 'hello' }));
  t.is(empty.language, null);
  t.regex(empty.problems[0] ?? '', /could not be found out/);
});

test('pytest is found from its config or from test files, unittest suites included', (t) => {
  t.is(detectProject(tree({ 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "-q"\n' })).runner, 'pytest');
  t.is(detectProject(tree({ 'tests/test_more.py': 'import unittest\n' })).runner, 'pytest');
  t.is(detectProject(tree({ 'pyproject.toml': '[project]\nname = "x"\n' })).runner, null);
});

const PYTHON = process.env['AG_DEMO_PYTHON'] ?? '/usr/bin/python3';
const hasPytest = spawnSync(PYTHON, ['-c', 'import pytest, coverage'], { stdio: 'ignore' }).status === 0;

/** False, with the test failed and the packages named, when the interpreter lacks pytest or coverage. */
function pytestThere(t: ExecutionContext): boolean {
  if (!hasPytest)
    t.fail(`${PYTHON} lacks pytest or coverage (install python3-pytest and python3-coverage, or set AG_DEMO_PYTHON)`);
  return hasPytest;
}

/** An installed package `agshadow` on a site directory of its own (for PYTHONPATH). */
const installedShadow = () => tree({ 'agshadow/__init__.py': 'WHERE = "site"\n' });

test('pytest as wired: a pytest.py in the tree does not replace the runner, and coverage stays in the tree', (t) => {
  if (!pytestThere(t)) return;
  const root = tree({
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_calc.py': 'from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
    // A shadow runner that would report every test as passed.
    'pytest.py': 'import sys\ndef main():\n    return 0\n',
  });
  const wiring = wirePytest(PYTHON);
  const run = spawnSync('/bin/sh', ['-c', wiring.test_command], { cwd: root, encoding: 'utf8' });
  t.is(run.status, 1, 'the real pytest ran and the bug fails');
  t.regex(
    readFileSync(path.join(root, '.ag-junit.xml'), 'utf8'),
    /<testcase classname="tests\.test_calc" name="test_add"[^>]*>\s*<failure/,
  );
  const cov = spawnSync('/bin/sh', ['-c', wiring.coverage_command ?? 'false'], { cwd: root, encoding: 'utf8' });
  t.is(cov.status, 1);
  const xml = readFileSync(path.join(root, wiring.coverage_report ?? ''), 'utf8');
  t.regex(xml, /filename="calc\.py"/);
  t.notRegex(xml, /filename="\//, 'no file outside the tree is measured');
});

/** Run a wired command in `root` with `env` added to ours. */
const wired = (command: string, root: string, env: Record<string, string> = {}) =>
  spawnSync('/bin/sh', ['-c', command], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });

/** A tree whose test asserts that the package `name` it imports is the tree's own. */
const shadowing = (name: string) =>
  tree({
    [`${name}/__init__.py`]: 'WHERE = "tree"\n',
    'tests/test_where.py': `import ${name}\n\ndef test_where():\n    assert getattr(${name}, "WHERE", None) == "tree", ${name}.__file__\n`,
    // A shadow runner and a shadow of its package, that would report every test as passed.
    'pytest.py': 'def main():\n    return 0\n',
    '_pytest/__init__.py': 'raise SystemExit(0)\n',
  });

test('pytest as wired: the tree comes first on sys.path, before an installed package of the same name, yet cannot replace pytest', (t) => {
  if (!pytestThere(t)) return;
  // An installed package of the same name, on a site directory of its own (PYTHONPATH lies
  // after the script's directory and before the interpreter's own packages, as a site does).
  const site = installedShadow();
  const wiring = wirePytest(PYTHON);
  const control = wired(`${PYTHON} -c 'import agshadow; print(agshadow.WHERE)'`, tree({}), { PYTHONPATH: site });
  t.is(control.stdout.trim(), 'site', 'the site directory is seen where the tree has no such package');
  const root = shadowing('agshadow');
  for (const command of [wiring.test_command, wiring.coverage_command ?? 'false']) {
    const run = wired(command, root, { PYTHONPATH: site });
    t.is(run.status, 0, `${command}\n${run.stdout}${run.stderr}`);
    const junit = readFileSync(path.join(root, '.ag-junit.xml'), 'utf8');
    t.regex(junit, /<testcase classname="tests\.test_where" name="test_where"/, 'the real pytest ran and reported');
    t.notRegex(junit, /<failure/);
  }
  // And a hostile runner in the tree still cannot make a failing test pass.
  const failing = shadowing('agshadow');
  writeFileSync(path.join(failing, 'agshadow/__init__.py'), 'WHERE = "elsewhere"\n');
  t.is(wired(wiring.test_command, failing, { PYTHONPATH: site }).status, 1);
});

test('pytest as wired: a src/ layout’s package is the tree’s own, before an installed copy; a src package is not a layout', (t) => {
  if (!pytestThere(t)) return;
  const site = installedShadow();
  const wiring = wirePytest(PYTHON);
  const root = tree({
    'src/agshadow/__init__.py': 'WHERE = "tree"\n',
    'tests/test_where.py':
      'import agshadow\n\ndef test_where():\n    assert agshadow.WHERE == "tree", agshadow.__file__\n',
  });
  for (const command of [wiring.test_command, wiring.coverage_command ?? 'false']) {
    const run = wired(command, root, { PYTHONPATH: site });
    t.is(run.status, 0, `${command}\n${run.stdout}${run.stderr}`);
  }
  t.regex(
    readFileSync(path.join(root, wiring.coverage_report ?? ''), 'utf8'),
    /filename="src\/agshadow\/__init__\.py"/,
  );
  // A package named src (src/__init__.py) is imported as `src`: its folder is not put on the path.
  const pkg = tree({
    'src/__init__.py': '',
    'src/agshadow/__init__.py': 'WHERE = "tree"\n',
    'tests/test_where.py': 'import agshadow\n\ndef test_where():\n    assert agshadow.WHERE == "site"\n',
  });
  t.is(wired(wiring.test_command, pkg, { PYTHONPATH: site }).status, 0);
});

const TOOLBOX = { dir: '/gate/tools', nodeReporter: '/gate/lib/node-test-junit.mjs' };

test('with a toolbox, the c8 ava lacks is the gate’s own, pinned, and its source is named', (t) => {
  const plan = detectProject(
    tree({ 'package.json': { type: 'module', scripts: { test: 'xo && ava' }, devDependencies: { ava: '6.4.1' } } }),
    { toolbox: TOOLBOX },
  );
  t.deepEqual(plan.problems, []);
  t.deepEqual(plan.wiring?.tools, [{ name: 'c8', version: '10.1.3', purpose: 'coverage', link: false }]);
  t.is(
    plan.wiring?.coverage_command,
    '/gate/tools/node_modules/.bin/c8 --reporter=lcov --reports-dir=.ag-coverage npx --no-install ava --tap',
  );
  t.true(plan.found.includes('coverage: c8 10.1.3, installed by the gate into /gate/tools (the project has none)'));
});

test('with a toolbox, a project’s own c8 or nyc is used and nothing is installed', (t) => {
  for (const dep of ['c8', 'nyc']) {
    const plan = detectProject(
      tree({ 'package.json': { scripts: { test: 'mocha' }, devDependencies: { mocha: '11.7.1', [dep]: '1.0.0' } } }),
      { toolbox: TOOLBOX },
    );
    t.deepEqual(plan.wiring?.tools, []);
    t.regex(plan.wiring?.coverage_command ?? '', new RegExp(`^npx --no-install ${dep} `));
    t.true(plan.found.includes(`coverage: ${dep}, the project's own`));
  }
});

test('with a toolbox, jest gets the gate’s jest-junit by its folder, vitest a coverage-v8 of its own version', (t) => {
  const jest = detectProject(
    tree({ 'package.json': { scripts: { test: 'jest' }, devDependencies: { jest: '29.7.0' } } }),
    {
      toolbox: TOOLBOX,
    },
  );
  t.deepEqual(jest.problems, []);
  t.regex(jest.wiring?.test_command ?? '', / --reporters=default --reporters=\/gate\/tools\/node_modules\/jest-junit$/);
  t.deepEqual(jest.wiring?.tools, [{ name: 'jest-junit', version: '16.0.0', purpose: 'per-test report', link: false }]);
  const vitest = detectProject(
    tree({ 'package.json': { scripts: { test: 'vitest run' }, devDependencies: { vitest: '3.2.4' } } }),
    { toolbox: TOOLBOX },
  );
  t.deepEqual(vitest.problems, []);
  t.deepEqual(vitest.wiring?.tools, [
    { name: '@vitest/coverage-v8', version: '=vitest', purpose: 'coverage', link: true },
  ]);
  t.regex(vitest.wiring?.coverage_command ?? '', /--coverage\.provider=v8 /);
});

test('node:test runs with the gate’s reporter when there is one (its cases carry the file), else node’s junit', (t) => {
  const files = { 'package.json': { scripts: { test: 'node --test' } } };
  const gate = detectProject(tree(files), { toolbox: TOOLBOX });
  t.regex(
    gate.wiring?.test_command ?? '',
    /--test-reporter=\/gate\/lib\/node-test-junit\.mjs --test-reporter-destination=\.ag-junit\.xml/,
  );
  t.true(gate.wiring?.ids_carry_file);
  const own = detectProject(tree(files));
  t.regex(own.wiring?.test_command ?? '', /--test-reporter=junit --test-reporter-destination=\.ag-junit\.xml/);
  t.false(own.wiring?.ids_carry_file);
});

const LAUNCHING = { ...TOOLBOX, launcher: '/gate/lib/runner-launcher.cjs' };
const JEST_JUNIT_ENV =
  "JEST_JUNIT_OUTPUT_FILE=.ag-junit.xml JEST_JUNIT_ADD_FILE_ATTRIBUTE=true JEST_JUNIT_CLASSNAME='{filepath}' JEST_JUNIT_TITLE='{classname} {title}' JEST_JUNIT_INCLUDE_CONSOLE_OUTPUT=false";

test('with the gate’s launcher, jest gets the gate’s flags and the program under test only the project’s own argv (#38)', (t) => {
  const plan = detectProject(
    tree({ 'package.json': { scripts: { test: 'jest --runInBand' }, devDependencies: { jest: '29.7.0' } } }),
    { toolbox: LAUNCHING },
  );
  t.deepEqual(plan.problems, []);
  const test = `${JEST_JUNIT_ENV} AG_PROGRAM_ARGV='["--runInBand"]' npx --no-install node /gate/lib/runner-launcher.cjs jest --ci --runInBand --reporters=default --reporters=/gate/tools/node_modules/jest-junit`;
  t.is(plan.wiring?.test_command, test);
  t.is(
    plan.wiring?.coverage_command,
    `${test} --coverage --coverageReporters=lcov --coverageDirectory=.ag-coverage`,
    'the coverage flags go to jest, after the program’s argv',
  );
  t.true(
    plan.found.includes(
      "the program's argv: the project's own; jest gets the gate's flags from its launcher /gate/lib/runner-launcher.cjs (a jest with no run(argv) runs from its bin, the flags in its argv, and says so)",
    ),
    plan.found.join('\n'),
  );
});

test('with the gate’s launcher, mocha gets the gate’s flags, the program its own argv, under c8 or nyc too (#38)', (t) => {
  const launched = `npx --no-install node /gate/lib/runner-launcher.cjs mocha --check-leaks test/ --reporter=xunit --reporter-option=output=.ag-junit.xml`;
  const env = `AG_PROGRAM_ARGV='["--check-leaks","test/"]'`;
  const gateC8 = detectProject(
    tree({ 'package.json': { scripts: { test: 'mocha --check-leaks test/' }, devDependencies: { mocha: '11.7.1' } } }),
    { toolbox: LAUNCHING },
  );
  t.is(gateC8.wiring?.test_command, `${env} ${launched}`);
  // The variable goes before the whole command: c8 passes it on to the launcher, which removes it.
  t.is(
    gateC8.wiring?.coverage_command,
    `${env} /gate/tools/node_modules/.bin/c8 --reporter=lcov --reports-dir=.ag-coverage ${launched}`,
  );
  t.true(gateC8.found.some((f) => f.startsWith("the program's argv: the project's own; mocha gets the gate's flags")));
  const nyc = detectProject(
    tree({
      'package.json': {
        scripts: { test: 'mocha --check-leaks test/' },
        devDependencies: { mocha: '11.7.1', nyc: '17.1.0' },
      },
    }),
    { toolbox: LAUNCHING },
  );
  t.regex(nyc.wiring?.coverage_command ?? '', /^AG_PROGRAM_ARGV='\["--check-leaks","test\/"\]' npx --no-install nyc /);
  t.true(nyc.wiring?.coverage_command?.endsWith(` ${launched}`));
});

test('the program’s argv reaches the launcher whole through the shell: quotes, spaces and no arguments', (t) => {
  const script = `mocha --grep "it's a b" test/`;
  const plan = detectProject(
    tree({ 'package.json': { scripts: { test: script }, devDependencies: { mocha: '11.7.1' } } }),
    {
      toolbox: LAUNCHING,
    },
  );
  const command = plan.wiring?.test_command ?? '';
  // The shell's words of the command, as the launcher would get them (its env variable, its argv).
  const echoed = spawnSync(
    'sh',
    [
      '-c',
      command.replace(
        / npx --no-install node /,
        ' node -e "console.log(JSON.stringify([process.env.AG_PROGRAM_ARGV, process.argv.slice(1)]))" ',
      ),
    ],
    {
      encoding: 'utf8',
    },
  );
  t.is(echoed.status, 0, echoed.stderr);
  const [env, argv] = JSON.parse(echoed.stdout) as [string, string[]];
  t.deepEqual(JSON.parse(env), ['--grep', "it's a b", 'test/']);
  t.deepEqual(argv, [
    '/gate/lib/runner-launcher.cjs',
    'mocha',
    '--grep',
    "it's a b",
    'test/',
    '--reporter=xunit',
    '--reporter-option=output=.ag-junit.xml',
  ]);
  const none = detectProject(
    tree({ 'package.json': { scripts: { test: 'jest' }, devDependencies: { jest: '29.7.0' } } }),
    {
      toolbox: LAUNCHING,
    },
  );
  t.regex(none.wiring?.test_command ?? '', / AG_PROGRAM_ARGV='\[\]' npx --no-install node /);
});

test('without the gate’s launcher, jest runs as it is named, and the block says the program sees the gate’s flags', (t) => {
  const plan = detectProject(
    tree({ 'package.json': { scripts: { test: 'jest --runInBand' }, devDependencies: { jest: '29.7.0' } } }),
    { toolbox: TOOLBOX },
  );
  t.regex(plan.wiring?.test_command ?? '', / npx --no-install jest --ci --runInBand --reporters=default /);
  t.false((plan.wiring?.test_command ?? '').includes('AG_PROGRAM_ARGV'));
  t.true(
    plan.found.includes(
      "the program's argv: the project's and the gate's flags (jest runs as it is named, no launcher)",
    ),
  );
});
