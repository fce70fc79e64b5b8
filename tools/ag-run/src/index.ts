/**
 * ag-run as a library: the gate function and the pure judges it is built from.
 * @module
 */
export * from './gate.js';
export * from './judge.js';
export * from './classify.js';
export * from './deltas.js';
export * from './criteria.js';
export * from './commands-json.js';
export * from './runners/detect.js';
export * from './runners/summary.js';
export * from './reports/tap.js';
export * from './reports/junit.js';
export * from './reports/pytest-ids.js';
export * from './reports/test-list.js';
export * from './per-test.js';
export * from './renames.js';
export * from './plan.js';
export * from './assemble.js';
export * from './trusted.js';
