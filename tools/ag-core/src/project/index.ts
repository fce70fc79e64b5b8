/** What a checkout is and how its tests run for the gate. @module */
export * from './scripts.js';
export * from './wiring.js';
export * from './detect.js';
export * from './command-runner.js';
export * from './workspaces.js';
export * from './package-files.js';
