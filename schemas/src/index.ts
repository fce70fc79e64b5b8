/**
 * The contract: every artefact's schema, its types, and the one reader and writer.
 * @module
 */
export * from './primitives.js';
export * from './envelope.js';
export * from './errors.js';
export * from './strict-json.js';
export * from './read-file.js';
export * from './validate.js';
export * from './registry.js';
export * from './digest.js';
export * from './write.js';
export * from './artefacts/run.js';
export * from './artefacts/diffcov.js';
export * from './artefacts/mutation.js';
export * from './artefacts/footprint.js';
export * from './artefacts/oracle.js';
export * from './artefacts/verdict.js';
export * from './artefacts/policy.js';
export * from './artefacts/log.js';
