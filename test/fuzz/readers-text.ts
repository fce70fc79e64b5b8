/**
 * The text and XML readers: diffs (ag-core), coverage reports (ag-diffcov, each format
 * and `auto`, and the whole measurement), TAP and JUnit (ag-run).
 * @module
 */
import { readDiff, type BoundDiff } from '@adversary-gate/core';
import { normaliseReportPath, readReport, runDiffcov, type ReadReport } from '@adversary-gate/ag-diffcov';
import { parseJunit, parseTap, type JunitReport, type TapReport } from '@adversary-gate/ag-run';
import { CoverageFormat, DiffcovArtefact, sha256, TestResult } from '@adversary-gate/schemas';
import * as v from 'valibot';
import {
  countLines,
  firstProblem,
  inputRefusal,
  neverThrows,
  plainErrorRefusal,
  relPathProblem,
  schemaProblem,
} from './checks.js';
import type { ReaderSpec } from './harness.js';
import { COVERAGE_SEEDS, seed, seeds, TOKENS } from './seeds.js';

const DIFF_SEEDS = seeds('accept/changes.diff', 'inputs/variety.diff', 'inputs/edge.diff', 'inputs/ufo.diff');

/** ag-core's `readDiff` (the file, then `parseUnifiedDiff`). */
export const diffReader: ReaderSpec = {
  name: 'unified diff (ag-core readDiff)',
  seeds: DIFF_SEEDS,
  mutation: { lines: true, tokens: TOKENS.diff, maxEdits: 4 },
  runs: 400,
  fileName: 'changes.diff',
  read: (f) => readDiff(f),
  refusal: inputRefusal,
  result: (value, _f, bytes) => {
    const d = value as BoundDiff;
    const text = bytes.toString('latin1');
    const plus = countLines(text, /^\+/);
    const minus = countLines(text, /^-/);
    let added = 0;
    let deleted = 0;
    for (const f of d.model.files) {
      const p = firstProblem(relPathProblem(f.path), f.oldPath === null ? null : relPathProblem(f.oldPath));
      if (p !== null) return p;
      if (f.addedLines.length !== f.addedText.length || f.deletedLines.length !== f.deletedText.length)
        return `${f.path}: line numbers and texts disagree`;
      if (!f.addedLines.every((n) => Number.isSafeInteger(n) && n >= 1))
        return `${f.path}: added line numbers ${JSON.stringify(f.addedLines.slice(0, 10))} are not all positive`;
      added += f.addedLines.length;
      deleted += f.deletedLines.length;
    }
    if (d.sha256 !== sha256(bytes)) return 'the digest is not the digest of the bytes read';
    if (added > plus) return `${added} added lines from a text with ${plus} lines starting with "+"`;
    if (deleted > minus) return `${deleted} deleted lines from a text with ${minus} lines starting with "-"`;
    return null;
  },
};

const XML_ENTITY = /&#(x[0-9a-fA-F]+|\d+);/g;

/** The numbers a JSON document holds, wherever they are. */
function jsonNumbers(v: unknown, out = new Set<number>()): Set<number> {
  if (typeof v === 'number') out.add(v);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) jsonNumbers(x, out);
  return out;
}

/** The numbers a report's text shows (a JSON report's parsed numbers, so `1e2` is 100; XML character references decoded). */
function numbersIn(text: string): Set<number> {
  if (text.trimStart().startsWith('{')) {
    try {
      return jsonNumbers(JSON.parse(text));
    } catch {
      // not JSON after all: read its digits
    }
  }
  const decoded = text.replace(XML_ENTITY, (m, ref: string) => {
    const n = ref.startsWith('x') ? Number.parseInt(ref.slice(1), 16) : Number(ref);
    return n >= 0x30 && n <= 0x39 ? String.fromCharCode(n) : m;
  });
  return new Set((decoded.match(/\d+/g) ?? []).map((s) => Number(s)));
}

/** Covered lines an lcov text really shows: `DA:<line>,<hits>` with hits > 0. */
function lcovCovered(text: string): Set<number> {
  const out = new Set<number>();
  for (const m of text.matchAll(/^DA:(\d+),(\d+)/gm)) if (Number(m[2]) > 0) out.add(Number(m[1]));
  return out;
}

function reportProblem(r: ReadReport, format: CoverageFormat | 'auto', bytes: Buffer): string | null {
  const { data } = r;
  if (format !== 'auto' && data.format !== format) return `read as ${data.format}`;
  if (!v.is(CoverageFormat, data.format)) return `unknown format ${String(data.format)}`;
  if (r.sha256 !== sha256(bytes)) return 'the digest is not the digest of the bytes read';
  if (data.files.size > data.fileCount) return `${data.files.size} files kept of ${data.fileCount} named`;
  const text = bytes.toString('utf8');
  const shown =
    data.format === 'lcov'
      ? lcovCovered(text)
      : data.format === 'go' || data.format === 'llvm'
        ? null
        : numbersIn(text);
  const max = Math.max(0, ...numbersIn(text));
  for (const [key, f] of data.files) {
    for (const [line, hits] of f.lines) {
      if (!Number.isSafeInteger(line) || line < 0) return `${key}: line ${line} is not a line number`;
      if (!Number.isSafeInteger(hits) || hits < 0) return `${key}:${line}: hits ${hits} is not a count`;
      if (line > max) return `${key}: line ${line} is beyond every number in the report`;
      if (hits > 0 && shown !== null && !shown.has(line))
        return `${key}:${line} covered, but the report never shows it so`;
    }
  }
  return null;
}

const COVERAGE_TOKENS: Record<CoverageFormat, readonly string[]> = {
  lcov: TOKENS.lcov,
  istanbul: TOKENS.json,
  coveragepy: TOKENS.json,
  cobertura: TOKENS.xml,
  jacoco: TOKENS.xml,
  go: TOKENS.go,
  llvm: TOKENS.json,
};

type Segment = [number, number, number, boolean, boolean, boolean?];

/**
 * llvm-cov's rule, as a bound: a line's count must come from a region that starts on it
 * (has a count, is a region entry, is not a gap region) or from a counted segment before it.
 */
function llvmProblem(r: ReadReport, bytes: Buffer): string | null {
  const doc = JSON.parse(bytes.toString('utf8')) as { data: { files: { filename: string; segments: Segment[] }[] }[] };
  const byKey = new Map<string, Segment[][]>();
  for (const unit of doc.data)
    for (const f of unit.files) {
      const key = normaliseReportPath(f.filename).key;
      byKey.set(key, [...(byKey.get(key) ?? []), f.segments]);
    }
  for (const [key, f] of r.data.files) {
    for (const [line, hits] of f.lines) {
      if (hits === 0) continue;
      const justified = (byKey.get(key) ?? []).some((segs) =>
        segs.some(
          (s) =>
            (s[0] === line && s[3] && s[4] && s[5] !== true && s[2] === hits) || (s[0] < line && s[3] && s[2] === hits),
        ),
      );
      if (!justified)
        return `${key}:${line} read with ${hits} hits, which no region starting on the line (gap regions excluded) or before it has`;
    }
  }
  return null;
}

function coverageReader(format: CoverageFormat, runs: number): ReaderSpec {
  const json = format === 'istanbul' || format === 'coveragepy' || format === 'llvm';
  return {
    name: `${format} coverage (ag-diffcov readReport)`,
    seeds: seeds(...COVERAGE_SEEDS[format]),
    mutation: { json, lines: !json, tokens: COVERAGE_TOKENS[format] },
    runs,
    fileName: `coverage.${format}`,
    read: (f) => readReport(f, format, () => true),
    refusal: inputRefusal,
    result: (value, _f, bytes) =>
      reportProblem(value as ReadReport, format, bytes) ??
      (format === 'llvm' ? llvmProblem(value as ReadReport, bytes) : null),
  };
}

const ALL_COVERAGE = Object.values(COVERAGE_SEEDS).flat();

/** One reader per coverage format, `--format auto`, and the whole measurement. */
export const coverageReaders: ReaderSpec[] = [
  coverageReader('lcov', 300),
  coverageReader('istanbul', 200),
  coverageReader('coveragepy', 200),
  coverageReader('cobertura', 250),
  coverageReader('jacoco', 200),
  coverageReader('go', 200),
  coverageReader('llvm', 200),
  {
    name: 'any coverage report (ag-diffcov --format auto)',
    seeds: seeds(...ALL_COVERAGE),
    mutation: { lines: true, tokens: [...TOKENS.lcov, ...TOKENS.xml, ...TOKENS.go, '{', '<', 'mode: set\n', 'TN:\n'] },
    runs: 250,
    fileName: 'coverage.report',
    read: (f) => readReport(f, 'auto', () => true),
    refusal: inputRefusal,
    result: (value, _f, bytes) => reportProblem(value as ReadReport, 'auto', bytes),
  },
];

/** The C scenario's diff, fixed, for the whole-measurement property. */
const MEASURE_DIFF = seed('accept/changes.diff');

/** ag-diffcov's whole measurement (diff + a fuzzed report → artefact), in process. */
export const measureReader: ReaderSpec = {
  name: 'diff coverage of a fuzzed report (ag-diffcov runDiffcov)',
  seeds: seeds(...ALL_COVERAGE.filter((s) => s.includes('cart'))),
  mutation: { lines: true, tokens: [...TOKENS.lcov, ...TOKENS.xml, ...TOKENS.go] },
  runs: 200,
  fileName: 'coverage.report',
  read: async (f) => {
    const { promises: fs } = await import('node:fs');
    const diff = `${f}.diff`;
    await fs.writeFile(diff, MEASURE_DIFF.bytes);
    return runDiffcov({
      diff,
      coverage: [f],
      format: 'auto',
      root: '/repo',
      source: 'computed',
      ratio: null,
      policy: null,
      tool: { name: 'ag-diffcov', version: '0.0.0' },
    });
  },
  refusal: inputRefusal,
  result: (value) => {
    const a = value as DiffcovArtefact;
    const p = schemaProblem(DiffcovArtefact, a, 'diffcov.json');
    if (p !== null) return p;
    const { measured, covered, uncovered } = a.totals;
    if (covered + uncovered !== measured) return `totals ${covered} + ${uncovered} ≠ ${measured}`;
    if (measured > 0 && a.diff_coverage_ratio !== covered / measured)
      return `ratio ${a.diff_coverage_ratio} is not ${covered}/${measured}`;
    if (measured === 0 && a.diff_coverage_ratio !== null) return `ratio ${a.diff_coverage_ratio} with nothing measured`;
    const added = new Set([8, 9, 10, 11, 12, 13, 14]);
    for (const f of a.files) {
      if (f.path !== 'src/cart.js') return `a file the diff does not count: ${f.path}`;
      for (const [s, e] of f.covered)
        for (let l = s; l <= e; l++) if (!added.has(l)) return `covered line ${l} is not an added line`;
    }
    return null;
  },
};

const TREE = '/tmp/ag-run-tree';

/** ag-run's TAP reader: it reads agent-controlled stdout and must never throw. */
export const tapReader: ReaderSpec = {
  name: 'TAP from node --test (ag-run parseTap)',
  seeds: seeds('inputs/node.tap', 'inputs/node-nested.tap'),
  mutation: { lines: true, tokens: TOKENS.tap, maxEdits: 4 },
  runs: 300,
  fileName: 'stdout.tap',
  read: async (_f, bytes) => parseTap(bytes.toString('utf8'), TREE),
  refusal: neverThrows,
  result: (value, _f, bytes) => {
    const r = value as TapReport;
    const text = bytes.toString('utf8');
    const points = countLines(text, /^\s*(not )?ok\b/);
    if (r.tests.length > points) return `${r.tests.length} tests from ${points} test points`;
    const bad = r.tests.find((t) => !v.is(TestResult, t));
    if (bad !== undefined) return `test ${JSON.stringify(bad)} is not a valid test result`;
    if (r.summary !== null && !/^# tests \d+\s*$/m.test(text)) return 'a summary without a "# tests" comment';
    return null;
  },
};

/** ag-run's JUnit reader: a plain Error is its refusal (the caller records it); anything else is a crash. */
export const junitReader: ReaderSpec = {
  name: 'JUnit XML (ag-run parseJunit)',
  seeds: seeds('inputs/pytest.junit.xml'),
  mutation: { lines: true, tokens: TOKENS.xml, maxEdits: 4 },
  runs: 300,
  fileName: 'junit.xml',
  read: async (_f, bytes) => parseJunit(bytes.toString('utf8')),
  refusal: (error) => plainErrorRefusal(error),
  result: (value, _f, bytes) => {
    const r = value as JunitReport;
    const cases = (bytes.toString('utf8').match(/<testcase\b/g) ?? []).length;
    if (r.tests.length > cases) return `${r.tests.length} tests from ${cases} <testcase> elements`;
    const bad = r.tests.find((t) => !v.is(TestResult, t));
    if (bad !== undefined) return `test ${JSON.stringify(bad)} is not a valid test result`;
    return null;
  },
};
