// Coverage-ignore pragmas on real reports (issue 38): each cheat beside its honest twin. c8
// reports the lines a pragma reaches as run, Node's own reporter and coverage.py leave them
// out; either way a changed line under a pragma counts uncovered, and an honest file is 1.0.
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fromRanges } from '@adversary-gate/core';
import { gitRepo, run, tempDir } from './helpers/repo.js';
import { c8Lcov, coveragePyXml, diffcov, hasCoveragePy, nodeLcov, nodeTest } from './helpers/coverage-run.js';

const PKG = { 'package.json': '{"type":"module"}\n' };

// A wrong branch (a negative score passes) no test reaches, hidden from Node's own coverage.
const GRADE = (pragma: string) =>
  `export function grade(score) {\n  if (score >= 50) {\n    return 'pass';\n  }\n${pragma}  if (score < 0) {\n    return 'pass';\n  }\n  return 'fail';\n}\n`;
const GRADE_TEST = "  assert.equal(grade(70), 'pass');\n  assert.equal(grade(10), 'fail');";
const GRADE_FULL_TEST = `${GRADE_TEST}\n  assert.equal(grade(-1), 'pass');`;

test("node:coverage `ignore next 3` over an untested branch: Node's report leaves the lines out, they count uncovered", async (t) => {
  const repo = gitRepo(PKG, {
    'src/grade.js': GRADE('  /* node:coverage ignore next 3 */\n'),
    'test/grade.test.js': nodeTest('grade', 'grade', GRADE_TEST),
  });
  const report = await nodeLcov(repo.tree);
  const withTree = await diffcov(repo, report);
  const file = withTree.files.find((f) => f.path === 'src/grade.js')!;
  t.deepEqual(fromRanges(file.uncovered), [6, 7, 8]);
  t.deepEqual(withTree.ignored_by_pragma, [
    { path: 'src/grade.js', pragma_line: 5, pragma: '/* node:coverage ignore next 3 */', lines: [[6, 8]] },
  ]);
  t.is(withTree.pragma_scope, 'patch_tree');
  t.true(withTree.diff_coverage_ratio! < 0.8);
  // The pragma is on an added line: seen without --tree as well.
  const withoutTree = await diffcov(repo, report, []);
  t.is(withoutTree.pragma_scope, 'added_lines');
  t.deepEqual(withoutTree.totals, withTree.totals);
});

test('its honest twin (no pragma, every branch tested) is fully covered', async (t) => {
  const repo = gitRepo(PKG, {
    'src/grade.js': GRADE(''),
    'test/grade.test.js': nodeTest('grade', 'grade', GRADE_FULL_TEST),
  });
  const d = await diffcov(repo, await nodeLcov(repo.tree));
  t.is(d.diff_coverage_ratio, 1);
  t.deepEqual([d.ignored_by_pragma, d.branch_unrun], [[], []]);
});

const CLAMP = (pragma: string) =>
  `export function clamp(x) {\n  if (x > 10) {\n    return 10;\n  }\n${pragma}  if (x < 0) {\n    return -1;\n  }\n  return x;\n}\n`;

test('c8 `ignore next 3` over an untested branch: c8 reports the lines as run, they count uncovered', async (t) => {
  const repo = gitRepo(PKG, {
    'src/clamp.js': CLAMP('  /* c8 ignore next 3 */\n'),
    'test/clamp.test.js': nodeTest('clamp', 'clamp', '  assert.equal(clamp(20), 10);\n  assert.equal(clamp(5), 5);'),
  });
  const d = await diffcov(repo, await c8Lcov(repo.tree));
  t.deepEqual(fromRanges(d.files[0]!.uncovered), [6, 7, 8]);
  t.deepEqual(d.ignored_by_pragma?.[0]?.lines, [[6, 8]]);
});

test('c8: its honest twin is fully covered', async (t) => {
  const repo = gitRepo(PKG, {
    'src/clamp.js': CLAMP(''),
    'test/clamp.test.js': nodeTest(
      'clamp',
      'clamp',
      '  assert.equal(clamp(20), 10);\n  assert.equal(clamp(5), 5);\n  assert.equal(clamp(-3), -1);',
    ),
  });
  const d = await diffcov(repo, await c8Lcov(repo.tree));
  t.is(d.diff_coverage_ratio, 1);
  t.deepEqual([d.ignored_by_pragma, d.branch_unrun], [[], []]);
});

const GUARDED = (ret: string) =>
  `/* c8 ignore next */\nexport const debug = () => console.log('debug');\n\nexport function clamp(x) {\n  /* c8 ignore start */\n  if (x < 0) {\n    return ${ret};\n  }\n  /* c8 ignore stop */\n  return x;\n}\n`;
const CLAMP_ONLY = nodeTest('clamp', 'clamp', '  assert.equal(clamp(5), 5);');

test('a changed line under a pragma the baseline already had counts uncovered (with --tree); without it, that pragma is not seen and the artefact says so', async (t) => {
  const repo = gitRepo(
    { ...PKG, 'src/clamp.js': GUARDED('0'), 'test/clamp.test.js': CLAMP_ONLY },
    { 'src/clamp.js': GUARDED('-1') },
  );
  const report = await c8Lcov(repo.tree);
  const withTree = await diffcov(repo, report);
  t.deepEqual(fromRanges(withTree.files[0]!.uncovered), [7]);
  t.deepEqual(withTree.ignored_by_pragma, [
    { path: 'src/clamp.js', pragma_line: 5, pragma: '/* c8 ignore start */', lines: [[7, 7]] },
  ]);
  const withoutTree = await diffcov(repo, report, []);
  t.is(withoutTree.pragma_scope, 'added_lines');
  t.deepEqual(fromRanges(withoutTree.files[0]!.covered), [7]);
});

test('an unchanged pragma elsewhere in the file changes nothing for the changed lines', async (t) => {
  const repo = gitRepo(
    { ...PKG, 'src/clamp.js': GUARDED('0'), 'test/clamp.test.js': CLAMP_ONLY },
    {
      'src/clamp.js': `${GUARDED('0')}\nexport function twice(x) {\n  return x * 2;\n}\n`,
      'test/clamp.test.js': `${CLAMP_ONLY}\nimport { twice } from '../src/clamp.js';\ntest('twice', () => assert.equal(twice(2), 4));\n`,
    },
  );
  const d = await diffcov(repo, await c8Lcov(repo.tree));
  t.is(d.diff_coverage_ratio, 1);
  t.deepEqual(d.ignored_by_pragma, []);
});

const SHOP = (pragma: string) =>
  `def add(a, b):\n    return a + b\n\n\ndef discount(amount):${pragma}\n    if amount >= 100:\n        return amount - amount / 10\n    return amount\n`;
const SHOP_TEST = 'from shop import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n';
const SHOP_FULL_TEST =
  'from shop import add, discount\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_discount():\n    assert discount(200) == 180\n    assert discount(50) == 50\n';

test('coverage.py: `# pragma: no cover` on a changed def excludes it from the report; its lines count uncovered', async (t) => {
  if (!(await hasCoveragePy())) return t.pass('no coverage.py at /usr/bin/python3');
  const repo = gitRepo({ 'test_shop.py': SHOP_TEST }, { 'shop.py': SHOP('  # pragma: no cover') });
  const d = await diffcov(repo, await coveragePyXml(repo.tree));
  t.deepEqual(fromRanges(d.files[0]!.uncovered), [5, 6, 7, 8]);
  t.is(d.ignored_by_pragma?.[0]?.pragma, 'def discount(amount):  # pragma: no cover');
  t.is(d.diff_coverage_ratio, 2 / 6);
});

test('coverage.py: its honest twin is fully covered', async (t) => {
  if (!(await hasCoveragePy())) return t.pass('no coverage.py at /usr/bin/python3');
  const repo = gitRepo({ 'test_shop.py': SHOP_TEST }, { 'shop.py': SHOP(''), 'test_shop.py': SHOP_FULL_TEST });
  const d = await diffcov(repo, await coveragePyXml(repo.tree));
  t.is(d.diff_coverage_ratio, 1);
  t.deepEqual(d.ignored_by_pragma, []);
});

test('a --tree that is not the patch: a fault, and the file is read from its added lines; no directory: exit 3', async (t) => {
  const repo = gitRepo(PKG, { 'src/clamp.js': CLAMP(''), 'test/clamp.test.js': CLAMP_ONLY });
  const other = tempDir();
  mkdirSync(path.join(other, 'src'));
  writeFileSync(path.join(other, 'src', 'clamp.js'), CLAMP('  // changed\n'));
  const report = await c8Lcov(repo.tree);
  const d = await diffcov(repo, report, ['--tree', other]);
  t.deepEqual(
    d.faults.map((f) => f.code),
    ['SOURCE_NOT_READ'],
  );
  t.regex(d.faults[0]!.message, /src\/clamp\.js .* does not hold the diff's added line 5/);
  const missing = await run([
    '--diff',
    repo.diff,
    '--coverage',
    report,
    '--tree',
    path.join(other, 'nope'),
    '--out',
    '-',
  ]);
  t.is(missing.code, 3);
  t.regex(missing.stderr, /is not a directory/);
});
