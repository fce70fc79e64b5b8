/**
 * The evidence envelope that every artefact shares.
 * @module
 */
import * as v from 'valibot';
import { Fault, InputRef, Subject, Timing, ToolId } from './primitives.js';

/** The artefact kinds, keyed by the short name used in file names and policy `require`. */
export const ARTEFACT_KINDS = ['run', 'diffcov', 'mutation', 'oracle', 'verdict', 'log'] as const;
export type ArtefactKind = (typeof ARTEFACT_KINDS)[number];

/** The evidence kinds ag-decide reads (every artefact except the verdict and log). */
export const EVIDENCE_KINDS = ['run', 'diffcov', 'mutation', 'oracle'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** The value of the `schema` field for a kind, e.g. `adversary-gate/diffcov`. */
export function schemaName(kind: ArtefactKind): `adversary-gate/${ArtefactKind}` {
  return `adversary-gate/${kind}`;
}

/** The current version of every artefact schema. */
export const SCHEMA_VERSION = 1 as const;

/** The envelope entries; spread them into a kind's strictObject. */
export function envelopeEntries<K extends ArtefactKind>(kind: K) {
  return {
    schema: v.literal(`adversary-gate/${kind}` as `adversary-gate/${K}`),
    schema_version: v.literal(SCHEMA_VERSION),
    tool: ToolId,
    subject: Subject,
    inputs: v.array(InputRef),
    faults: v.array(Fault),
    timing: v.optional(Timing),
  };
}
