/**
 * Shared semantics every tool agrees on: CLI frame, diff model, file classes, processes.
 * @module
 */
export * from './cli/errors.js';
export * from './cli/args.js';
export * from './cli/frame.js';
export * from './cli/version.js';
export * from './cli/fault.js';
export * from './diff/git-path.js';
export * from './diff/model.js';
export * from './diff/read.js';
export * from './files/classify.js';
export * from './files/policy-classes.js';
export * from './files/tree.js';
export * from './process/index.js';
