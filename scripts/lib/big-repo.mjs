// A generated git repository of many files for the load script: small source modules in
// folders of 100, a fixtures folder the policy protects, a node:test suite, and a patch
// that touches a few modules (and, with drift, one fixture).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const pad = (n) => String(n).padStart(5, '0');
const modulePath = (n) => `src/lib/d${pad(Math.floor(n / 100)).slice(2)}/m${pad(n)}.js`;
const moduleText = (n, factor, offset) => `export function f${n}(x) {\n  return x * ${factor} + ${offset};\n}\n`;
const fixturePath = (n) => `test/fixtures/d${pad(Math.floor(n / 100)).slice(2)}/f${pad(n)}.json`;

const POLICY = {
  schema_version: 1,
  floors: { diff_coverage: 0.8, suite_strength: 0.75 },
  require: ['run', 'diffcov', 'mutation', 'oracle'],
  oracle: { protected: ['adversary-gate.json', 'test/fixtures/**'], fixtures: ['test/fixtures'] },
};

const TEST_BASE = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { f0 } from '../src/lib/d000/m00000.js';
import { f1 } from '../src/lib/d000/m00001.js';

test('f0 computes its value', () => {
  assert.equal(f0(3), 6);
});

test('f1 scales by 3 and adds 1', () => {
  assert.equal(f1(2), 7);
});
`;

const TEST_PATCH = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { f0 } from '../src/lib/d000/m00000.js';
import { f1 } from '../src/lib/d000/m00001.js';
import { double } from '../src/calc.js';

test('f0 computes its value', () => {
  assert.equal(f0(3), 17);
  assert.equal(f0(0), 2);
  assert.equal(f0(-1), -3);
});

test('f1 scales by 3 and adds 1', () => {
  assert.equal(f1(2), 7);
});

test('double doubles', () => {
  assert.equal(double(3), 6);
  assert.equal(double(-2), -4);
});
`;

/**
 * Write the repository into `dir` (replaced) and commit baseline and patch.
 * @param {string} dir
 * @param {{ files: number, fixtures: number, drift: boolean }} opts total tracked files, of them fixtures
 */
export function generateBigRepo(dir, { files, fixtures, drift }) {
  rmSync(dir, { recursive: true, force: true });
  const write = (rel, text) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=load', '-c', 'user.email=load@example.invalid', ...args], {
      cwd: dir,
      stdio: 'pipe',
      maxBuffer: 1 << 30,
    });
  const fixed = ['package.json', 'adversary-gate.json', 'src/calc.js', 'test/calc.test.js'];
  const modules = Math.max(2, files - fixtures - fixed.length);
  mkdirSync(dir, { recursive: true });
  write(
    'package.json',
    `${JSON.stringify({ name: 'big', private: true, type: 'module', scripts: { test: 'node --test test/calc.test.js' } })}\n`,
  );
  write('adversary-gate.json', `${JSON.stringify(POLICY, null, 2)}\n`);
  write('src/calc.js', 'export function add(a, b) {\n  return a + b;\n}\n');
  write('test/calc.test.js', TEST_BASE);
  for (let n = 0; n < modules; n++)
    write(modulePath(n), moduleText(n, n === 1 ? 3 : 2 + (n % 7), n === 1 ? 1 : n === 0 ? 0 : n % 5));
  for (let n = 0; n < fixtures; n++) write(fixturePath(n), `${JSON.stringify({ id: n, expected: n * 2 })}\n`);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'baseline');

  const changed = [modulePath(0), 'src/calc.js', 'test/calc.test.js'];
  write(modulePath(0), moduleText(0, 5, 2));
  write(
    'src/calc.js',
    'export function add(a, b) {\n  return a + b;\n}\n\nexport function double(x) {\n  return x * 2;\n}\n',
  );
  write('test/calc.test.js', TEST_PATCH);
  if (drift) {
    write(fixturePath(0), `${JSON.stringify({ id: 0, expected: 1 })}\n`);
    changed.push(fixturePath(0));
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'agent patch');
  const tests = 'test/calc.test.js';
  return {
    dir,
    tracked: fixed.length + modules + fixtures,
    changed,
    env: {
      AG_TEST_COMMAND: `node --test ${tests}`,
      AG_COVERAGE_COMMAND: `mkdir -p coverage && node --test --experimental-test-coverage --test-reporter=lcov --test-reporter-destination=coverage/lcov.info ${tests}`,
      AG_COVERAGE_REPORT: 'coverage/lcov.info',
    },
    expect: drift
      ? { verdict: 'REJECT', codes: ['FIXTURE_DRIFT', 'ORACLE_TOUCHED'] }
      : { verdict: 'ACCEPT', codes: [] },
  };
}
