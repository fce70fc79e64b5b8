/**
 * Every artefact schema, keyed by kind, and the loader that dispatches on `schema`.
 * @module
 */
import type * as v from 'valibot';
import { DiffcovArtefact } from './artefacts/diffcov.js';
import { LogRecord } from './artefacts/log.js';
import { MutationArtefact } from './artefacts/mutation.js';
import { OracleArtefact } from './artefacts/oracle.js';
import { RunArtefact } from './artefacts/run.js';
import { VerdictArtefact } from './artefacts/verdict.js';
import { ARTEFACT_KINDS, SCHEMA_VERSION, type ArtefactKind } from './envelope.js';
import { LoadError } from './errors.js';
import { DEFAULT_MAX_BYTES, readRegularFile } from './read-file.js';
import { decodeUtf8Strict, parseStrictJson } from './strict-json.js';
import { validateOrThrow } from './validate.js';

export const ARTEFACT_SCHEMAS = {
  run: RunArtefact,
  diffcov: DiffcovArtefact,
  mutation: MutationArtefact,
  oracle: OracleArtefact,
  verdict: VerdictArtefact,
  log: LogRecord,
} as const;

export type ArtefactOf<K extends ArtefactKind> = v.InferOutput<(typeof ARTEFACT_SCHEMAS)[K]>;

/** A loaded artefact with its kind, the raw bytes' digest input and the parsed value. */
export interface LoadedArtefact<K extends ArtefactKind = ArtefactKind> {
  readonly kind: K;
  readonly bytes: Buffer;
  readonly value: ArtefactOf<K>;
}

/** Which kind a parsed JSON value claims to be, checking `schema` and `schema_version`. */
export function kindOf(file: string, value: unknown): ArtefactKind {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LoadError('E_TYPE', file, 'expected a JSON object at the top level');
  }
  const rec = value as Record<string, unknown>;
  if (!('schema' in rec)) throw new LoadError('E_MISSING_FIELD', file, 'missing field "schema"');
  const kind = ARTEFACT_KINDS.find((k) => rec.schema === `adversary-gate/${k}`);
  if (kind === undefined) throw new LoadError('E_UNKNOWN_SCHEMA', file, `unknown schema ${JSON.stringify(rec.schema)}`);
  if (!('schema_version' in rec)) throw new LoadError('E_SCHEMA_VERSION', file, 'missing field "schema_version"');
  if (rec.schema_version !== SCHEMA_VERSION) {
    throw new LoadError(
      'E_SCHEMA_VERSION',
      file,
      `schema_version ${JSON.stringify(rec.schema_version)} is not supported (expected ${SCHEMA_VERSION})`,
    );
  }
  return kind;
}

/** Parse and validate bytes as any artefact; `expect` restricts the kind. */
export function parseArtefact(file: string, bytes: Buffer, expect?: ArtefactKind): LoadedArtefact {
  const value = parseStrictJson(file, decodeUtf8Strict(file, bytes));
  const kind = kindOf(file, value);
  if (expect !== undefined && kind !== expect) {
    throw new LoadError('E_UNKNOWN_SCHEMA', file, `expected adversary-gate/${expect}, found adversary-gate/${kind}`);
  }
  const parsed = validateOrThrow(file, ARTEFACT_SCHEMAS[kind] as v.GenericSchema, value);
  return { kind, bytes, value: parsed } as LoadedArtefact;
}

/**
 * Read, parse and validate an artefact file through the strict loader.
 * @throws LoadError
 */
export async function loadArtefact<K extends ArtefactKind>(
  file: string,
  expect: K,
  maxBytes?: number,
): Promise<LoadedArtefact<K>>;
export async function loadArtefact(file: string, expect?: ArtefactKind, maxBytes?: number): Promise<LoadedArtefact>;
export async function loadArtefact(
  file: string,
  expect?: ArtefactKind,
  maxBytes = DEFAULT_MAX_BYTES,
): Promise<LoadedArtefact> {
  const bytes = await readRegularFile(file, maxBytes);
  return parseArtefact(file, bytes, expect);
}

/**
 * Read any JSON file (policy, claims, freeze list…) strictly and validate it with `schema`.
 * @throws LoadError
 */
export async function loadJson<S extends v.GenericSchema>(
  file: string,
  schema: S,
  maxBytes = DEFAULT_MAX_BYTES,
): Promise<{ bytes: Buffer; value: v.InferOutput<S> }> {
  const bytes = await readRegularFile(file, maxBytes);
  const value = parseStrictJson(file, decodeUtf8Strict(file, bytes));
  return { bytes, value: validateOrThrow(file, schema, value) };
}
