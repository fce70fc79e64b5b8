// Golden sample artefacts, valid against the schemas; tests mutate copies of them.
const D = `sha256:${'a'.repeat(64)}`;
const envelope = (kind: string, tool: string) => ({
  schema: `adversary-gate/${kind}`,
  schema_version: 1,
  tool: { name: tool, version: '0.1.0' },
  subject: { diff_sha256: D },
  inputs: [{ role: 'diff', path: 'changes.diff', sha256: D }],
  faults: [],
});

export const SAMPLE_DIGEST = D;

export function sampleOracle(): Record<string, unknown> {
  return {
    ...envelope('oracle', 'ag-oracle'),
    policy: { path: 'adversary-gate.json', sha256: D },
    oracle_touched: [],
    fixtures: [],
    freeze: { path: null, today: '2026-11-30', entries: [], frozen_only_files: [], frozen_only: false },
    tampering: [],
  };
}

export function sampleDiffcov(): Record<string, unknown> {
  return {
    ...envelope('diffcov', 'ag-diffcov'),
    diff_coverage_source: 'computed',
    diff_coverage_ratio: 0.75,
    reason: null,
    totals: { measured: 4, covered: 3, uncovered: 1 },
    files: [{ path: 'src/a.js', in_report: true, covered: [[1, 3]], uncovered: [[4, 4]], non_executable: [] }],
    unmatched_files: [],
    pragmas: [],
    formats: ['lcov'],
  };
}
