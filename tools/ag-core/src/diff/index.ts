/** The diff model every tool shares. @module */
export * from './changed-lines.js';
export * from './git-path.js';
export * from './model.js';
export * from './ranges.js';
export * from './read.js';
export * from './identifier-renames.js';
