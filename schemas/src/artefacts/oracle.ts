/**
 * oracle.json, written by ag-oracle: did the patch touch what it must not?
 * @module
 */
import * as v from 'valibot';
import { envelopeEntries } from '../envelope.js';
import { Count, RelPath, Sha256 } from '../primitives.js';

/** A changed path that matched a protected glob. */
export const ProtectedHit = v.strictObject({
  path: v.string(),
  pattern: v.string(),
});

/** One fixture root, baseline digest against patch digest. */
export const FixtureDigest = v.strictObject({
  root: RelPath,
  expected: Sha256,
  actual: Sha256,
  added: v.array(v.string()),
  removed: v.array(v.string()),
  changed: v.array(v.string()),
  /** Symlinks found under the root (recorded, never followed). */
  symlinks: v.array(v.string()),
});

/** One flake-freeze entry as read from the baseline, and its standing. */
export const FreezeEntry = v.strictObject({
  index: Count,
  nodeid: v.nullable(v.string()),
  expires: v.nullable(v.string()),
  covers: v.nullable(v.array(v.string())),
  status: v.picklist(['valid', 'expired', 'missing_field', 'malformed']),
});

/**
 * Test tampering visible in the diff. The kinds map to reason codes in ag-decide:
 * `skip_added` and `test_file_deleted` reject; the others hold.
 */
export const TamperKind = v.picklist([
  'skip_added',
  'skip_added_new_file',
  'assertion_removed',
  'test_file_deleted',
  'test_file_renamed',
  'runner_config_changed',
  'always_equal',
]);

export const TamperFinding = v.strictObject({
  kind: TamperKind,
  path: v.string(),
  line: v.nullable(Count),
  detail: v.string(),
});

/** The oracle artefact. */
export const OracleArtefact = v.strictObject({
  ...envelopeEntries('oracle'),
  policy: v.strictObject({ path: v.string(), sha256: Sha256 }),
  oracle_touched: v.array(ProtectedHit),
  fixtures: v.array(FixtureDigest),
  freeze: v.strictObject({
    path: v.nullable(v.string()),
    today: v.pipe(v.string(), v.isoDate()),
    entries: v.array(FreezeEntry),
    /** Changed production files covered only by frozen tests. */
    frozen_only_files: v.array(v.string()),
    /** True when every changed production file is covered only by frozen tests. */
    frozen_only: v.boolean(),
  }),
  tampering: v.array(TamperFinding),
});

export type OracleArtefact = v.InferOutput<typeof OracleArtefact>;
