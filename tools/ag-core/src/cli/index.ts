/** The CLI frame every tool shares. @module */
export * from './errors.js';
export * from './args.js';
export * from './frame.js';
export * from './version.js';
export * from './fault.js';
export * from './validate-flags.js';
