/** File classes every tool shares. @module */
export * from './classify.js';
export * from './policy-classes.js';
export * from './tree.js';
export * from './imports.js';
export * from './retired.js';
export * from './loaded-code.js';
export * from './containment.js';
export * from './safe-read.js';
