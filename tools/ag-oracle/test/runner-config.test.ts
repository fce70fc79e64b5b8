import test from 'ava';
import { changedRunnerKeys, configKind, testScriptNames } from '../src/tamper/runner-config.js';

const b = (x: unknown) => Buffer.from(typeof x === 'string' ? x : JSON.stringify(x));

test('runner configuration files are recognised at any depth', (t) => {
  for (const p of [
    'conftest.py',
    'tests/conftest.py',
    'pytest.ini',
    '.pytest.ini',
    'setup.cfg',
    'tox.ini',
    'sitecustomize.py',
    'lib/x.pth',
    '.npmrc',
    'jest.config.ts',
    'vitest.config.mts',
    'ava.config.js',
    '.mocharc.yml',
    '.mocharc',
    '.nycrc.json',
    '.coveragerc',
  ]) {
    t.is(configKind(p), 'file', p);
  }
  t.is(configKind('pkg/package.json'), 'package.json');
  t.is(configKind('pyproject.toml'), 'pyproject.toml');
  t.is(configKind('tests/CONFTEST.PY'), 'file');
  t.is(configKind('Package.JSON'), 'package.json');
  t.is(configKind('src/config.js'), null);
});

test('the test script chain follows npm run, yarn and pnpm into other scripts', (t) => {
  const scripts = {
    test: 'npm run lint && npm run unit',
    unit: 'pnpm run core',
    core: 'node --test',
    precore: 'echo',
    lint: 'eslint .',
    build: 'tsc',
  };
  t.deepEqual(testScriptNames(scripts).sort(), ['core', 'lint', 'posttest', 'precore', 'pretest', 'test', 'unit']);
});

test('package.json: only test scripts and runner keys count', (t) => {
  const base = { name: 'x', version: '1.0.0', scripts: { test: 'ava', build: 'tsc' }, ava: { files: ['test/**'] } };
  t.deepEqual(
    changedRunnerKeys(
      'package.json',
      b(base),
      b({ ...base, version: '2.0.0', scripts: { ...base.scripts, build: 'tsc -b' } }),
      'package.json',
    ),
    [],
  );
  t.deepEqual(
    changedRunnerKeys(
      'package.json',
      b(base),
      b({ ...base, scripts: { ...base.scripts, posttest: 'exit 0' } }),
      'package.json',
    ),
    ['scripts.posttest'],
  );
  t.deepEqual(changedRunnerKeys('package.json', b(base), b({ ...base, ava: { files: [] } }), 'package.json'), ['ava']);
  t.deepEqual(changedRunnerKeys('package.json', b(base), b({ ...base, jest: {} }), 'package.json'), ['jest']);
});

test('package.json: unhooking a script the baseline test reached still counts', (t) => {
  const base = { scripts: { test: 'npm run unit', unit: 'node --test' } };
  t.deepEqual(
    changedRunnerKeys('package.json', b(base), b({ scripts: { test: 'exit 0', unit: 'node --test' } }), 'package.json'),
    ['scripts.test'],
  );
  t.deepEqual(
    changedRunnerKeys(
      'package.json',
      b(base),
      b({ scripts: { test: 'npm run unit', unit: 'exit 0' } }),
      'package.json',
    ),
    ['scripts.unit'],
  );
});

test('package.json deleted, or unparsable on the patch side, counts', (t) => {
  t.deepEqual(changedRunnerKeys('package.json', b({ scripts: { test: 'ava' } }), null, 'package.json'), [
    'scripts.test',
  ]);
  t.deepEqual(
    changedRunnerKeys(
      'package.json',
      b({ scripts: { test: 'ava' } }),
      b('{"scripts":{"test":"ava","test":"true"}}'),
      'package.json',
    ),
    ['package.json (unparsable on the patch side)'],
  );
});

test('pyproject.toml: only [tool.pytest…] and [tool.coverage…] count', (t) => {
  const toml = (extra: string) => `[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n${extra}`;
  t.deepEqual(
    changedRunnerKeys('pyproject.toml', b(toml('')), b(toml('\n[tool.ruff]\nline-length = 100\n')), 'pyproject.toml'),
    [],
  );
  t.deepEqual(
    changedRunnerKeys(
      'pyproject.toml',
      b(toml('')),
      b(toml('\n[tool.coverage.run]\nomit = ["src/*"]\n')),
      'pyproject.toml',
    ),
    ['tool.coverage'],
  );
  t.deepEqual(
    changedRunnerKeys('pyproject.toml', b(toml('')), b(toml('').replace('-q', '-q -p no:x')), 'pyproject.toml'),
    ['tool.pytest'],
  );
  t.deepEqual(changedRunnerKeys('pyproject.toml', b(toml('')), b('[[['), 'pyproject.toml'), [
    'pyproject.toml (unparsable on the patch side)',
  ]);
});
