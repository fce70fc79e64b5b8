/**
 * The gate's pipeline as a library: the whole run (`runGate`), the trusted decide step of a
 * split pipeline (`decideFromEvidence`), and the settings they read.
 * @module
 */
export { runGate } from './pipeline.js';
export { decideFromEvidence, type DecideSettings } from './decide.js';
export { readSettings, type Settings } from './settings.js';
