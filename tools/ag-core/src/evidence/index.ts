/** What binds evidence to what it measured. @module */
export * from './tree-id.js';
export * from './flaky.js';
export * from './strength.js';
export * from './retitle.js';
export * from './revert-name.js';
