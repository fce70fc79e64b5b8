/**
 * The projects, one per runner: the same small library (sum, and clamp with a bug above the
 * range), tests in two files that share a test title, an honest patch (the fix and a test
 * for it) and a bad one (it breaks sum, which both files test). Exact versions everywhere.
 * @module
 */
import type { Project } from './kit.js';

type Module = 'cjs' | 'esm';

const exportsOf = (m: Module, names: string) =>
  m === 'cjs' ? `module.exports = { ${names} };\n` : `export { ${names} };\n`;

/** The library, with `clampHigh` the line `clamp` returns above the range. */
function library(m: Module, clampHigh: string, sumBody = 'a + b'): string {
  return [
    'function sum(a, b) {',
    `  return ${sumBody};`,
    '}',
    '',
    'function clamp(x, lo, hi) {',
    '  if (x < lo) return lo;',
    '  if (x > hi) {',
    `    return ${clampHigh};`,
    '  }',
    '  return x;',
    '}',
    '',
    exportsOf(m, 'sum, clamp'),
  ].join('\n');
}

const importOf = (m: Module, from: string, extra = '') =>
  m === 'cjs'
    ? `const { sum, clamp } = require('${from}');\n${extra}`
    : `import { sum, clamp } from '${from}';\n${extra}`;

/** A JS project: `header` imports the runner, `test(title, body)` writes one test inside a suite `sum`. */
function jsProject(opts: {
  readonly module: Module;
  readonly pkg: object;
  readonly dir: string;
  readonly ext: string;
  readonly header: string;
  readonly test: (title: string, body: string) => string;
  readonly eq: (actual: string, expected: string) => string;
  readonly extraFiles?: Record<string, string>;
}): Project {
  const lib = 'src/lib.js';
  const rel = '../src/lib.js';
  const file = (name: string, tests: string[]) => ({
    [`${opts.dir}/${name}.${opts.ext}`]: importOf(opts.module, rel, opts.header) + tests.join(''),
  });
  const a = [opts.test('adds', opts.eq('sum(1, 2)', '3')), opts.test('clamps below', opts.eq('clamp(-5, 0, 10)', '0'))];
  const b = [opts.test('adds', opts.eq('sum(2, 2)', '4')), opts.test('keeps inside', opts.eq('clamp(5, 0, 10)', '5'))];
  return {
    files: {
      'package.json': opts.pkg,
      [lib]: library(opts.module, 'lo'),
      ...file('a', a),
      ...file('b', b),
      ...(opts.extraFiles ?? {}),
    },
    honest: {
      [lib]: library(opts.module, 'hi'),
      ...file('b', [...b, opts.test('clamps above', opts.eq('clamp(15, 0, 10)', '10'))]),
    },
    bad: { [lib]: library(opts.module, 'lo', 'a - b') },
  };
}

const pkg = (type: Module, test: string, devDependencies: Record<string, string>) => ({
  name: 'runner-project',
  version: '1.0.0',
  private: true,
  ...(type === 'esm' ? { type: 'module' } : {}),
  scripts: { test },
  devDependencies,
});

const describeWrap = (header: string) => (title: string, body: string) =>
  `${header}('sum', () => {\n  test('${title}', () => {\n    ${body}\n  });\n});\n`;

/** A jest project on `version`. */
const jestProject = (version: string): Project =>
  jsProject({
    module: 'cjs',
    pkg: pkg('cjs', 'jest', { jest: version }),
    dir: 'test',
    ext: 'test.js',
    header: '',
    test: describeWrap('describe'),
    eq: (a, e) => `expect(${a}).toBe(${e});`,
  });

export const JEST = jestProject('29.7.0');
export const JEST30 = jestProject('30.5.2');

/** A vitest project on `version`; vitest 4 resolves its coverage provider from its own install. */
const vitestProject = (version: string): Project =>
  jsProject({
    module: 'esm',
    pkg: pkg('esm', 'vitest run', { vitest: version }),
    dir: 'test',
    ext: 'test.js',
    header: "import { describe, test, expect } from 'vitest';\n",
    // Named like a test and holding none, as path-to-regexp's table of cases: not a failure.
    extraFiles: { 'test/cases.test.js': 'export const CASES = [[1, 2, 3]];\n' },
    test: describeWrap('describe'),
    eq: (a, e) => `expect(${a}).toBe(${e});`,
  });

export const VITEST = vitestProject('3.2.4');
export const VITEST4 = vitestProject('4.1.12');

export const MOCHA: Project = jsProject({
  module: 'cjs',
  pkg: pkg('cjs', 'mocha --check-leaks test/', { mocha: '11.7.1' }),
  dir: 'test',
  ext: 'test.js',
  header: "const assert = require('node:assert');\n",
  test: (title, body) => `describe('sum', () => {\n  it('${title}', () => {\n    ${body}\n  });\n});\n`,
  eq: (a, e) => `assert.strictEqual(${a}, ${e});`,
});

export const AVA: Project = jsProject({
  module: 'esm',
  pkg: pkg('esm', 'ava', { ava: '6.4.1' }),
  dir: 'test',
  ext: 'js',
  header: "import test from 'ava';\n",
  test: (title, body) => `test('${title}', (t) => {\n  ${body}\n});\n`,
  eq: (a, e) => `t.is(${a}, ${e});`,
});

export const NODE_TEST: Project = jsProject({
  module: 'esm',
  pkg: pkg('esm', 'node --test', {}),
  dir: 'test',
  ext: 'test.js',
  header: "import { describe, test } from 'node:test';\nimport assert from 'node:assert';\n",
  test: describeWrap('describe'),
  eq: (a, e) => `assert.strictEqual(${a}, ${e});`,
});

const pyLib = (clampHigh: string, sumBody = 'a + b') =>
  [
    'def add(a, b):',
    `    return ${sumBody}`,
    '',
    '',
    'def clamp(x, lo, hi):',
    '    if x < lo:',
    '        return lo',
    '    if x > hi:',
    `        return ${clampHigh}`,
    '    return x',
    '',
  ].join('\n');

const pyTests = (tests: [string, string][]) =>
  `from calc import add, clamp\n\n${tests.map(([name, body]) => `\ndef test_${name}():\n    assert ${body}\n`).join('\n')}`;

const pyB: [string, string][] = [
  ['adds', 'add(2, 2) == 4'],
  ['keeps_inside', 'clamp(5, 0, 10) == 5'],
];

export const PYTEST: Project = {
  files: {
    'calc.py': pyLib('lo'),
    'tests/test_a.py': pyTests([
      ['adds', 'add(1, 2) == 3'],
      ['clamps_below', 'clamp(-5, 0, 10) == 0'],
    ]),
    'tests/test_b.py': pyTests(pyB),
  },
  honest: {
    'calc.py': pyLib('hi'),
    'tests/test_b.py': pyTests([...pyB, ['clamps_above', 'clamp(15, 0, 10) == 10']]),
  },
  bad: { 'calc.py': pyLib('lo', 'a - b') },
};
