/**
 * diffcov.json, written by ag-diffcov: were the changed lines executed?
 * @module
 */
import * as v from 'valibot';
import { envelopeEntries } from '../envelope.js';
import { Count, LineNumber, LineRange, Ratio, RelPath } from '../primitives.js';

/** Why a ratio is null. */
export const DiffcovNullReason = v.picklist(['no_executable_changed_lines', 'no_coverage_report']);

/** The coverage report formats ag-diffcov reads. */
export const CoverageFormat = v.picklist(['lcov', 'istanbul', 'coveragepy', 'cobertura', 'jacoco', 'go', 'llvm']);
export type CoverageFormat = v.InferOutput<typeof CoverageFormat>;

/** The changed lines of one file, split by what the report says of them. */
export const DiffcovFile = v.strictObject({
  path: RelPath,
  /** False when the report does not know this file at all (then every added code line is uncovered). */
  in_report: v.boolean(),
  covered: v.array(LineRange),
  uncovered: v.array(LineRange),
  non_executable: v.array(LineRange),
  /** The report entries matched to this file, as the report names them (normalised separators). */
  report_paths: v.optional(v.array(v.string())),
});

/** A changed file left out of the count because of its class (test or plainly not code). */
export const DiffcovExcludedFile = v.strictObject({
  path: RelPath,
  class: v.picklist(['test', 'not_code']),
  /** How many lines the patch added to it. */
  added_lines: Count,
});

/** A coverage-suppression pragma the patch added on a changed line. */
export const PragmaFinding = v.strictObject({
  path: RelPath,
  line: LineNumber,
  text: v.string(),
});

/**
 * Changed code lines a coverage-ignore pragma reaches (or that the report itself excluded):
 * counted uncovered whatever the report says of them, listed so that a reviewer sees why.
 */
export const DiffcovIgnoredByPragma = v.strictObject({
  path: RelPath,
  /** The pragma's line; absent for the report's own exclusions (coverage.py's `excluded_lines`). */
  pragma_line: v.optional(LineNumber),
  /** The pragma's line as written (trimmed, at most 200 characters), or which exclusion list. */
  pragma: v.string(),
  lines: v.array(LineRange),
});

/**
 * Changed lines the report's line records call run where its branch or function records say
 * that a block or function beginning on them never ran (lcov `BRDA`/`FNDA`): counted uncovered.
 */
export const DiffcovBranchUnrun = v.strictObject({
  path: RelPath,
  lines: v.array(LineRange),
});

/**
 * A changed source file whose added lines were not measured (source `none` or `untrusted`):
 * the file and its added lines, so that a summary or a SARIF log can say where coverage is
 * unknown instead of looking clean.
 */
export const DiffcovUnmeasuredFile = v.strictObject({
  path: RelPath,
  added: v.array(LineRange),
});

/** The diffcov artefact. */
export const DiffcovArtefact = v.strictObject({
  ...envelopeEntries('diffcov'),
  diff_coverage_source: v.picklist(['computed', 'untrusted', 'none']),
  diff_coverage_ratio: v.nullable(Ratio),
  reason: v.nullable(DiffcovNullReason),
  totals: v.strictObject({ measured: Count, covered: Count, uncovered: Count }),
  files: v.array(DiffcovFile),
  /** Changed files the report did not match (listed; source ones are counted uncovered). */
  unmatched_files: v.array(RelPath),
  /** Changed files with added lines that are not counted, and why (their class). */
  excluded_files: v.optional(v.array(DiffcovExcludedFile)),
  pragmas: v.array(PragmaFinding),
  /**
   * Computed source only: where coverage-ignore pragmas were looked for. `patch_tree`: in the
   * whole text of each changed source file (`--tree`); `added_lines`: on the added lines only,
   * so a pragma already in a file around the changed lines was not checked.
   */
  pragma_scope: v.optional(v.picklist(['patch_tree', 'added_lines'])),
  /** Computed source only: changed lines counted uncovered because a pragma reaches them (a line may be under several). */
  ignored_by_pragma: v.optional(v.array(DiffcovIgnoredByPragma)),
  /** Computed source only: changed lines counted uncovered because the report's branch or function records say part of them never ran. */
  branch_unrun: v.optional(v.array(DiffcovBranchUnrun)),
  /** Source `none` or `untrusted` only: the changed source files and their added lines, none of them measured. */
  unmeasured_files: v.optional(v.array(DiffcovUnmeasuredFile)),
  /** Report formats read, in `--coverage` order. */
  formats: v.array(CoverageFormat),
});

export type DiffcovArtefact = v.InferOutput<typeof DiffcovArtefact>;
