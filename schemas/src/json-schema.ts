/**
 * JSON Schema (draft 2020-12) of every artefact, generated from the valibot schemas.
 * Runtime refinements that JSON Schema cannot say (path checks, range order) are
 * described in `description` only; the valibot schemas are the source of truth.
 * @module
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { PolicyFile } from './artefacts/policy.js';
import { ARTEFACT_SCHEMAS } from './registry.js';
import { canonicalJson } from './write.js';

/** The base URI under which the generated schemas are published. */
export const SCHEMA_BASE_URI = 'https://adversary-gate.dev/schemas';

/** File name → valibot schema, one per artefact and version. */
export const JSON_SCHEMA_FILES: Record<string, v.GenericSchema> = {
  'run.v1.schema.json': ARTEFACT_SCHEMAS.run,
  'diffcov.v1.schema.json': ARTEFACT_SCHEMAS.diffcov,
  'mutation.v1.schema.json': ARTEFACT_SCHEMAS.mutation,
  'oracle.v1.schema.json': ARTEFACT_SCHEMAS.oracle,
  'verdict.v1.schema.json': ARTEFACT_SCHEMAS.verdict,
  'log.v1.schema.json': ARTEFACT_SCHEMAS.log,
  'policy.v1.schema.json': PolicyFile,
};

/** The canonical text of each generated JSON Schema file. */
export function generateJsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, schema] of Object.entries(JSON_SCHEMA_FILES)) {
    const json = toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore' }) as Record<string, unknown>;
    out[name] =
      `${JSON.stringify(JSON.parse(canonicalJson({ ...json, $id: `${SCHEMA_BASE_URI}/${name}` })), null, 2)}\n`;
  }
  return out;
}
