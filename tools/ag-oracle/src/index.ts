/**
 * ag-oracle as a library: the measurement and the modules it is built from.
 * @module
 */
export * from './oracle.js';
export * from './today.js';
export * from './faults.js';
export * from './policy/load-policy.js';
export * from './protect/match-key.js';
export * from './protect/protected.js';
export * from './fixtures/manifest.js';
export * from './fixtures/digest.js';
export * from './fixtures/measure.js';
export * from './freeze/freeze-list.js';
export * from './freeze/frozen-only.js';
export * from './freeze/load-freeze.js';
export * from './tamper/finding.js';
export * from './tamper/markers.js';
export * from './tamper/assertions.js';
export * from './tamper/test-files.js';
export * from './tamper/runner-config.js';
export * from './tamper/diff-scan.js';
export * from './tamper/config-scan.js';
export * from './tamper/tampering.js';
export * from './tree/tree-files.js';
export * from './tree/diff-matches-trees.js';
export * from './classes.js';
