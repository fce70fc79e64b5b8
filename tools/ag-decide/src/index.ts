/**
 * ag-decide's pure parts, for tests and for embedding.
 * @module
 */
export * from './decide.js';
export * from './reasons.js';
export * from './markdown.js';
export * from './details.js';
export * from './annotations.js';
export * from './check.js';
export * from './stats.js';
export * from './log.js';
export * from './evidence.js';
export * from './policy.js';
export * from './rules/run.js';
export * from './rules/diffcov.js';
export * from './rules/mutation.js';
export * from './rules/footprint.js';
export * from './rules/oracle.js';
