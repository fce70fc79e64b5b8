/**
 * ag-mutate as a library: the measurement, merge and import behind the CLI.
 * @module
 */
export * from './changes.js';
export * from './engines/site.js';
export * from './engines/js.js';
export * from './engines/python.js';
export * from './select.js';
export * from './exec/outcome.js';
export * from './exec/tree-copy.js';
export * from './exec/execute.js';
export * from './exec/types.js';
export * from './exec/v8-coverage.js';
export * from './exec/test-map.js';
export * from './runners/runner.js';
export * from './artefact.js';
export * from './parts.js';
export * from './engines/regex.js';
export * from './measure.js';
export * from './merge.js';
export * from './import-stryker.js';
export * from './progress.js';
export * from './summary.js';
