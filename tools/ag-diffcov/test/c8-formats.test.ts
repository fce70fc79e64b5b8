// One real c8 run writes lcov and Cobertura (istanbul's reporters, as jest, vitest and nyc
// write them): ag-diffcov gives the same answer from either, and diff-cover 7.4.0's answer on
// the same reports (recorded below from `diff-cover <report> --compare-branch=HEAD~1` in this
// repository; the test does not need diff-cover).
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { fromRanges } from '@adversary-gate/core';
import { parseArtefact, type DiffcovArtefact } from '@adversary-gate/schemas';
import { gitRepo, run, tempDir } from './helpers/repo.js';

const C8 = path.join(path.dirname(createRequire(import.meta.url).resolve('c8/package.json')), 'bin', 'c8.js');

const PATCHED = `export function add(a, b) {
  return a + b;
}

// sign of a number, or zero
export function sign(n) {
  if (n > 0) {
    return 1;
  }
  if (n < 0) {
    return -1;
  }
  return 0;
}

export function never(x) {
  const y = x * 2;
  return y + 1;
}

export const twice = (f, x) =>
  f(f(x));
`;
const TEST = `import assert from 'node:assert/strict';
import { add, sign, twice } from '../src/calc.js';
assert.equal(add(1, 2), 3);
assert.equal(sign(5), 1);
assert.equal(twice((v) => v + 1, 0), 2);
`;

/** diff-cover 7.4.0 on this project's cobertura-coverage.xml and on its lcov.info (the same answer). */
const DIFF_COVER = { measured: 19, violation_lines: [10, 11, 12, 13, 17, 18, 19] };

test("lcov and Cobertura from one c8 run: the same lines, the same ratio, and diff-cover's answer", async (t) => {
  const repo = gitRepo(
    { 'package.json': '{"type":"module"}\n', 'src/calc.js': 'export function add(a, b) {\n  return a + b;\n}\n' },
    { 'src/calc.js': PATCHED, 'test/calc.test.js': TEST },
  );
  await promisify(execFile)(
    process.execPath,
    [C8, '--reporter=lcov', '--reporter=cobertura', process.execPath, 'test/calc.test.js'],
    { cwd: repo.tree },
  );
  const xml = readFileSync(path.join(repo.tree, 'coverage', 'cobertura-coverage.xml'), 'utf8');
  t.regex(xml, /<method name="never" hits="0"/, 'the report lists its functions as <method> elements');
  const out = tempDir();
  const measure = async (report: string) => {
    const file = path.join(out, `${path.basename(report)}.json`);
    const r = await run([
      '--diff',
      repo.diff,
      '--coverage',
      path.join(repo.tree, 'coverage', report),
      '--root',
      repo.tree,
      '--out',
      file,
    ]);
    t.is(r.code, 0, r.stderr);
    return parseArtefact(file, readFileSync(file), 'diffcov').value as DiffcovArtefact;
  };
  const [lcov, cobertura] = await Promise.all([measure('lcov.info'), measure('cobertura-coverage.xml')]);
  t.deepEqual([lcov.formats, cobertura.formats], [['lcov'], ['cobertura']]);
  t.deepEqual(cobertura.totals, lcov.totals);
  t.is(cobertura.diff_coverage_ratio, lcov.diff_coverage_ratio);
  t.deepEqual(
    cobertura.files,
    lcov.files.map((f) => ({ ...f, report_paths: cobertura.files.find((g) => g.path === f.path)?.report_paths ?? [] })),
  );
  const calc = lcov.files.find((f) => f.path === 'src/calc.js')!;
  // One deviation from diff-cover (README): line 16, `export function never(x) {`, reads DA:16,1 and
  // `<line number="16" hits="1">`, but the function never ran (FNDA:0,never; `<method name="never" hits="0">`).
  t.deepEqual(
    fromRanges(calc.uncovered),
    [...DIFF_COVER.violation_lines, 16].sort((a, b) => a - b),
  );
  t.deepEqual(lcov.branch_unrun, [{ path: 'src/calc.js', lines: [[16, 16]] }]);
  t.deepEqual(cobertura.branch_unrun, lcov.branch_unrun);
  t.is(fromRanges(calc.covered).length + fromRanges(calc.uncovered).length, DIFF_COVER.measured);
  t.deepEqual(lcov.totals, { measured: 19, covered: 11, uncovered: 8 });
});
