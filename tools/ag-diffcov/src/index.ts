/**
 * ag-diffcov as a library: measure diff coverage, read reports, render summaries.
 * @module
 */
export { runDiffcov, type DiffcovOptions, type CoverageSource } from './diffcov.js';
export { readReport, type FormatChoice, type ReadReport } from './reports/read.js';
export { detectFormat } from './reports/detect.js';
export type { ReportData, LineHits } from './reports/types.js';
export { makeMatcher, type PathMatcher, type MatchRule } from './paths/match.js';
export { normaliseReportPath } from './paths/normalise.js';
export { measure, splitByClass } from './measure/measure.js';
export { countFile } from './measure/count.js';
export { findPragmas } from './measure/pragmas.js';
export { pragmaScopes, END_OF_FILE, type PragmaScope, type KnownText } from './measure/pragma-scope.js';
export { renderMarkdown } from './render/markdown.js';
export { renderSarif } from './render/sarif.js';
export { toRanges } from '@adversary-gate/core';
