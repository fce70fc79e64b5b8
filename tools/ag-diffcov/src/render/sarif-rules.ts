/**
 * The rules of ag-diffcov's SARIF log, with the help code scanning shows beside an alert.
 * @module
 */

export const UNCOVERED = 'uncovered-changed-lines';
export const PRAGMA = 'coverage-pragma-added';
export const NOT_MEASURED = 'coverage-not-measured';
export type RuleId = typeof UNCOVERED | typeof PRAGMA | typeof NOT_MEASURED;

const rule = (id: RuleId, name: string, short: string, full: string, help: string) => ({
  id,
  name,
  shortDescription: { text: short },
  fullDescription: { text: full },
  help: { text: help, markdown: help },
  defaultConfiguration: { level: 'warning' },
});

/** The rules, in the order results index them. */
export const RULES = [
  rule(
    UNCOVERED,
    'UncoveredChangedLines',
    'Changed lines the tests did not execute',
    'The patch added or changed these lines, and no coverage report shows a test executing them (or the file is absent from every report, so its code lines count as not executed).',
    'Add or fix a test that runs these lines, then produce the coverage report from the patched tree. ag-decide holds the patch (COVERAGE_BELOW_FLOOR) while diff coverage is below the policy floor.',
  ),
  rule(
    PRAGMA,
    'CoveragePragmaAdded',
    'Coverage-suppression pragma added by the patch',
    'The patch added a comment that tells a coverage tool to ignore code (c8/v8/istanbul ignore, "pragma: no cover", LCOV_EXCL and the like) on a changed line.',
    'Remove the pragma and cover the code with a test. A pragma added by the patch makes ag-decide hold (TAMPER_SUSPECTED): a patch must not exempt its own lines from measurement.',
  ),
  rule(
    NOT_MEASURED,
    'CoverageNotMeasured',
    'Diff coverage was not measured',
    'No coverage was measured for the changed lines of this file: no coverage report was given, the ratio was asserted by the caller instead of measured, or the measurement had a fault (an empty diff or report, an ambiguous report path). The absence of other alerts does not mean the lines are covered.',
    'Give ag-diffcov a coverage report written by the tests on the patched tree (--coverage), and fix the fault it names. ag-decide holds (COVERAGE_NOT_MEASURED, COVERAGE_UNTRUSTED, or PIPELINE_FAULT naming the fault) until coverage is measured.',
  ),
];
