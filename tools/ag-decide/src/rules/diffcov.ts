/**
 * Rules over diffcov.json: source, floor, coverage pragmas.
 * @module
 */
import type { DiffcovArtefact, Policy, Reason } from '@adversary-gate/schemas';
import { listForMessage, reason } from '../reasons.js';

/** The diff-coverage measurement held against its floor. */
export interface CoverageMeasurement {
  readonly value: number | null;
  readonly source: string;
}

/** Reasons, the measurement, and what was disabled. */
export function diffcovReasons(
  d: DiffcovArtefact,
  policy: Policy,
): { reasons: Reason[]; measurement: CoverageMeasurement; disabled: string[] } {
  const reasons: Reason[] = [];
  const disabled: string[] = [];
  const floor = policy.floors.diff_coverage;
  const measurement = { value: d.diff_coverage_ratio, source: d.diff_coverage_source };
  if (floor === 0) disabled.push('diff_coverage: floor is 0 (requirement disabled, not satisfied)');
  // No report, and no changed source file to cover (`unmeasured_files` is checked against the
  // diff by the consistency rules): nothing was left unmeasured, as for a computed null.
  const nothingToCover =
    d.diff_coverage_source === 'none' && d.unmeasured_files !== undefined && d.unmeasured_files.length === 0;
  if (d.diff_coverage_source === 'none' && !nothingToCover) {
    reasons.push(reason('COVERAGE_NOT_MEASURED', 'diffcov', 'no coverage report: diff coverage was not measured'));
  } else if (d.diff_coverage_source === 'untrusted' && !policy.allow_untrusted_coverage) {
    reasons.push(
      reason(
        'COVERAGE_UNTRUSTED',
        'diffcov',
        'the coverage ratio was asserted by the caller, and the policy does not allow untrusted coverage',
      ),
    );
  } else if (d.diff_coverage_ratio === null) {
    if (!nothingToCover && !(d.diff_coverage_source === 'computed' && d.reason === 'no_executable_changed_lines')) {
      reasons.push(
        reason('COVERAGE_NOT_MEASURED', 'diffcov', `diff coverage is null (${d.reason ?? 'no reason given'})`),
      );
    }
  } else if (floor > 0 && d.diff_coverage_ratio < floor) {
    const { covered, measured } = d.totals;
    const detail = d.diff_coverage_source === 'computed' ? ` (${covered}/${measured} changed lines)` : '';
    // A changed source file the report does not hold (a setup module jest or vitest leaves out)
    // was not measured at all: said, so the hold is not read as untested code alone.
    const absent = d.files.filter((f) => !f.in_report).map((f) => f.path);
    const unmeasured =
      absent.length > 0 ? `; not in the coverage report, so counted uncovered: ${listForMessage(absent)}` : '';
    reasons.push(
      reason(
        'COVERAGE_BELOW_FLOOR',
        'diffcov',
        `diff coverage ${d.diff_coverage_ratio.toFixed(4)}${detail} is below the floor ${floor}${unmeasured}`,
      ),
    );
  }
  if (d.pragmas.length > 0) {
    const where = d.pragmas.map((p) => `${p.path}:${p.line}`);
    reasons.push(
      reason('TAMPER_SUSPECTED', 'diffcov', `coverage pragmas added on changed lines: ${listForMessage(where)}`),
    );
  }
  return { reasons, measurement, disabled };
}
