// lcov line records against branch and function records, on real Node 20 (and c8) reports:
// where a line's DA says run and a block or function that begins on it never ran, the line
// counts uncovered; an honest file whose every line and branch ran stays 1.0.
import test from 'ava';
import { fromRanges } from '@adversary-gate/core';
import { gitRepo } from './helpers/repo.js';
import { c8Lcov, diffcov, nodeLcov, nodeTest } from './helpers/coverage-run.js';

const PKG = { 'package.json': '{"type":"module"}\n' };

// Line 2 holds an early return and, after it, code that never runs when x > 0; line 7's
// arm never runs; `never` (line 10) is never called. Every one of these lines reads DA:n,1.
const EARLY = `export function early(x) {
  if (x > 0) return 'pos'; const z = x - 1;
  return z;
}

export const sign = (x) => x > 0
  ? 'pos' : 'neg';

export function check(x) { return early(x); }
export const never = (x) => x * 666;
`;
const EARLY_RUN = "  assert.equal(early(1), 'pos');\n  assert.equal(sign(1), 'pos');\n  assert.equal(check(2), 'pos');";
const EARLY_ALL = `${EARLY_RUN}\n  assert.equal(early(-1), -2);\n  assert.equal(sign(-1), 'neg');\n  assert.equal(never(1), 666);`;

// Honest code whose every line and branch runs, with the shapes that leave V8 zero-count ranges
// behind when they do not (a try/catch/finally whose blocks all return leaves one even then, on
// its `} finally {` line, which holds no code of its own).
const HONEST = `export function pick(x) {
  if (x > 0) {
    return 'pos';
  } else if (x < 0) {
    return 'neg';
  }
  return 'zero';
}

export function read(o) {
  try {
    return o.value;
  } catch {
    return null;
  } finally {
    o = undefined;
  }
}

export function first(xs) {
  for (const x of xs) {
    if (x) return x;
  }
  return null;
}

export const label = (n) => (n === 1 ? 'one' : 'many');
`;
const HONEST_TEST = [
  "  assert.equal(pick(1), 'pos');",
  "  assert.equal(pick(-1), 'neg');",
  "  assert.equal(pick(0), 'zero');",
  '  assert.equal(read({ value: 3 }), 3);',
  '  assert.equal(read(null), null);',
  '  assert.equal(first([0, 2]), 2);',
  '  assert.equal(first([0]), null);',
  "  assert.equal(label(1), 'one');",
  "  assert.equal(label(2), 'many');",
].join('\n');

for (const [name, coverage] of [
  ["Node's own lcov", nodeLcov],
  ['c8 lcov', c8Lcov],
] as const) {
  test(`${name}: lines after an early return, an arm and a function that never ran count uncovered though DA says run`, async (t) => {
    const repo = gitRepo(PKG, {
      'src/early.js': EARLY,
      'test/early.test.js': nodeTest('early, sign, check, never', 'early', EARLY_RUN),
    });
    const d = await diffcov(repo, await coverage(repo.tree));
    const file = d.files[0]!;
    t.deepEqual(fromRanges(file.uncovered), [2, 3, 7, 10]);
    t.deepEqual(d.branch_unrun, [
      {
        path: 'src/early.js',
        lines: [
          [2, 2],
          [7, 7],
          [10, 10],
        ],
      },
    ]);
  });

  test(`${name}: the same file with every line and branch run is fully covered`, async (t) => {
    const repo = gitRepo(PKG, {
      'src/early.js': EARLY,
      'test/early.test.js': nodeTest('early, sign, check, never', 'early', EARLY_ALL),
    });
    const d = await diffcov(repo, await coverage(repo.tree));
    t.is(d.diff_coverage_ratio, 1);
    t.deepEqual(d.branch_unrun, []);
  });

  test(`${name}: an honest file of early returns, else-ifs, try/finally and loops, all run, is fully covered`, async (t) => {
    const repo = gitRepo(PKG, {
      'src/honest.js': HONEST,
      'test/honest.test.js': nodeTest('pick, read, first, label', 'honest', HONEST_TEST),
    });
    const d = await diffcov(repo, await coverage(repo.tree));
    t.is(d.diff_coverage_ratio, 1, JSON.stringify(d.files));
    t.deepEqual(d.branch_unrun, []);
  });
}
