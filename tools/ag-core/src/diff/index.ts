/** The diff model every tool shares. @module */
export * from './git-path.js';
export * from './model.js';
export * from './read.js';
