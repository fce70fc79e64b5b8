/**
 * Shared semantics every tool agrees on: CLI frame, diff model, file classes, processes.
 * @module
 */
export * from './cli/index.js';
export * from './diff/index.js';
export * from './files/index.js';
export * from './process/index.js';
export * from './project/index.js';
export * from './evidence/index.js';
