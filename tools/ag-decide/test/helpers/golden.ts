// A golden evidence set for one small diff: it decides ACCEPT. Tests worsen one thing at a time.
import { parseUnifiedDiff } from '@adversary-gate/core';
import { canonicalJson, LoadError, parseArtefact, sha256 } from '@adversary-gate/schemas';
import { DEFAULT_POLICY, type Policy } from '@adversary-gate/schemas';
import { decide, type EvidenceFile, type LoadedPolicy } from '../../src/index.js';

export const DIFF_TEXT = [
  'diff --git a/src/calc.js b/src/calc.js',
  'index 1111111..2222222 100644',
  '--- a/src/calc.js',
  '+++ b/src/calc.js',
  '@@ -1,3 +1,4 @@',
  ' export function add(a, b) {',
  '-  return a - b;',
  '+  const sum = a + b;',
  '+  return sum;',
  ' }',
  'diff --git a/test/calc.test.js b/test/calc.test.js',
  'index 3333333..4444444 100644',
  '--- a/test/calc.test.js',
  '+++ b/test/calc.test.js',
  '@@ -1,2 +1,3 @@',
  " import { add } from '../src/calc.js';",
  " test('adds', () => assert.equal(add(2, 2), 4));",
  "+test('adds negatives', () => assert.equal(add(-2, -2), -4));",
  '',
].join('\n');

export const DIFF_SHA = sha256(DIFF_TEXT);
export const DIFF = { file: 'changes.diff', sha256: DIFF_SHA, model: parseUnifiedDiff(DIFF_TEXT) };
const OTHER = sha256('another diff');

type Obj = Record<string, any>;

const envelope = (kind: string, tool: string): Obj => ({
  schema: `adversary-gate/${kind}`,
  schema_version: 1,
  tool: { name: tool, version: '0.1.0' },
  subject: { diff_sha256: DIFF_SHA },
  inputs: [{ role: 'diff', path: 'changes.diff', sha256: DIFF_SHA }],
  faults: [],
});

export const execution = (
  side: 'baseline' | 'patch',
  round: number,
  outcome: 'PASS' | 'FAIL' | 'UNRUNNABLE' | 'TIMED_OUT' = 'PASS',
): Obj => ({
  command: 'node --test',
  side,
  round,
  exit_code: outcome === 'PASS' ? 0 : outcome === 'FAIL' ? 1 : outcome === 'UNRUNNABLE' ? 2 : null,
  signal: outcome === 'TIMED_OUT' ? 'SIGKILL' : null,
  timed_out: outcome === 'TIMED_OUT',
  outcome,
  kind: outcome.toLowerCase(),
  runner: 'node',
  report: 'tap',
  tests: [{ id: 'test/calc.test.js::adds', outcome: outcome === 'PASS' ? 'passed' : 'failed' }],
  stdout_tail: '',
  stderr_tail: '',
  stdout_bytes: 0,
  stderr_bytes: 0,
  truncated: false,
  leftover_processes: 0,
});

export function goodRun(): Obj {
  return {
    ...envelope('run', 'ag-run'),
    sandbox: 'none',
    rounds: 3,
    seed: null,
    runner: 'node-test',
    claims: [
      {
        id: 'claim-1',
        command: 'node --test',
        baseline: execution('baseline', 1, 'FAIL'),
        patch: [1, 2, 3].map((r) => execution('patch', r)),
        status: 'VERIFIED',
        class: 'fixed',
      },
    ],
    full_suite: {
      command: 'node --test',
      baseline: execution('baseline', 1),
      patch: execution('patch', 1),
      collateral_regression: false,
      baseline_red: false,
    },
    test_deltas: { tests_lost: [], tests_newly_skipped: [], tests_pass_to_fail: [] },
    criteria: [
      {
        id: 'AC-1',
        text: 'adds',
        kind: 'fix',
        tests: ['test/calc.test.js::adds'],
        proven: true,
        why: 'failed on baseline, passed every round',
      },
    ],
    limits: {
      timeout_seconds: 60,
      output_cap_bytes: 1048576,
      cpu_seconds: 60,
      file_size_bytes: 1 << 28,
      data_bytes: 0,
      open_files: 1024,
    },
  };
}

export function goodDiffcov(): Obj {
  return {
    ...envelope('diffcov', 'ag-diffcov'),
    diff_coverage_source: 'computed',
    diff_coverage_ratio: 1,
    reason: null,
    totals: { measured: 2, covered: 2, uncovered: 0 },
    files: [{ path: 'src/calc.js', in_report: true, covered: [[2, 3]], uncovered: [], non_executable: [] }],
    unmatched_files: [],
    pragmas: [],
    formats: ['lcov'],
  };
}

export const mutant = (id: string, line: number, status: string): Obj => ({
  id,
  file: 'src/calc.js',
  line,
  column: 2,
  operator: 'ArithmeticOperator',
  original: '+',
  replacement: '-',
  status,
  killed_by: status === 'killed' ? 'adds' : null,
});

/** A canary of `add` in src/calc.js as ag-mutate records one, with its status and killer. */
export const canary = (status: string, killedBy: string | null = null): Obj => ({
  id: `c-${status}`,
  file: 'src/calc.js',
  line: 2,
  column: 3,
  function: 'add',
  original: '',
  replacement: 'void "ag_1f3a9c04"; ',
  status,
  killed_by: killedBy,
});

export function goodMutation(): Obj {
  return {
    ...envelope('mutation', 'ag-mutate'),
    suite_strength: 1,
    suite_strength_unverified: false,
    reason: null,
    counts: { killed: 2, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 },
    foreign_changed_files: [],
    deleted_files: [],
    mutants: [mutant('m1', 2, 'killed'), mutant('m2', 3, 'killed')],
    budget: null,
    shard: null,
    engine: 'ag-mutate',
  };
}

export function goodOracle(): Obj {
  return {
    ...envelope('oracle', 'ag-oracle'),
    policy: { path: 'adversary-gate.json', sha256: sha256('policy') },
    oracle_touched: [],
    fixtures: [
      {
        root: 'test/fixtures',
        expected: sha256('f'),
        actual: sha256('f'),
        added: [],
        removed: [],
        changed: [],
        symlinks: [],
      },
    ],
    freeze: { path: null, today: '2026-11-30', entries: [], frozen_only_files: [], frozen_only: false },
    tampering: [],
  };
}

export const golden = () => ({
  run: goodRun(),
  diffcov: goodDiffcov(),
  mutation: goodMutation(),
  oracle: goodOracle(),
});

/** An evidence file from an object (through the real strict parser) or from raw bytes. */
export function evidenceFile(path: string, content: Obj | string | Buffer): EvidenceFile {
  const bytes = Buffer.isBuffer(content)
    ? content
    : Buffer.from(typeof content === 'string' ? content : canonicalJson(content));
  try {
    return { path, sha256: sha256(bytes), loaded: parseArtefact(path, bytes), error: null };
  } catch (error) {
    if (error instanceof LoadError) return { path, sha256: null, loaded: null, error };
    throw error;
  }
}

export const defaultPolicy = (policy: Policy = DEFAULT_POLICY): LoadedPolicy => ({
  policy,
  ref: { source: 'default', path: null, sha256: null },
  problem: null,
});

/** Decide over a set of artefacts (objects or raw text) with the default policy unless given. */
export function decideWith(set: Record<string, Obj | string | Buffer>, policy: LoadedPolicy = defaultPolicy()) {
  const evidence = Object.entries(set).map(([kind, content]) => evidenceFile(`${kind}.json`, content));
  return decide({ diff: DIFF, evidence, policy, tool: { name: 'ag-decide', version: '0.1.0' } });
}

export const codes = (v: { reasons: { code: string }[] }) => v.reasons.map((r) => r.code);
export { OTHER as OTHER_DIGEST };
