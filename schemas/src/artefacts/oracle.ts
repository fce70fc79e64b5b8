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
  /** The failure signature the entry last recorded for its test (the verdict-file article's field), when it has one. */
  last_signature: v.optional(v.string()),
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
  /** a test file deleted together with a file it imports (its subject), which the patch deletes too: HOLD `TEST_RETIRED` */
  'test_file_retired',
  'test_file_renamed',
  'runner_config_changed',
  'always_equal',
  /** an existing assertion, expected value, snapshot or golden line edited in a patch that changes source */
  'expectation_changed',
  /** an assertion that cannot fail (`t.pass()`, constants, a value against itself) or an empty test body */
  'placeholder_test',
  /** a pytest plugin or hook registered from a test module */
  'runner_hook_added',
  /** an assertion function replaced, or a helper named like one that never fails */
  'assertion_redefined',
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
  /**
   * The policy applied: a file with its digest, or (`source: "default"`, path and digest
   * null) the documented defaults, when the baseline has no policy file. Evidence written
   * before `source` existed always names a file.
   */
  policy: v.strictObject({
    source: v.optional(v.picklist(['file', 'default'])),
    path: v.nullable(v.string()),
    sha256: v.nullable(Sha256),
  }),
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
  /**
   * Test-named files that the patch tree's source imports: source, whatever their name
   * (absent when there are none, or when no changed file is a test-named JS or Python file).
   */
  imported_tests: v.optional(v.array(v.strictObject({ path: RelPath, imported_by: RelPath }))),
  /**
   * Changed files named like data (not code by name) that the patch tree's source loads with
   * `require()`, which runs them as JavaScript: code, whatever their name (absent when none).
   */
  loaded_as_code: v.optional(v.array(v.strictObject({ path: RelPath, loaded_by: RelPath }))),
  /**
   * Tests whose title the patch reworded with the body unchanged, by test file (absent when
   * there are none): a rename pair of run.json that is one of these is no TEST_RENAMED. In a
   * test file the patch moved (git's rename), `from_path` is its baseline path, and a test
   * whose title and body stayed is listed with `from` equal to `to`.
   */
  retitled_tests: v.optional(
    v.array(
      v.strictObject({
        path: RelPath,
        from_path: v.optional(RelPath),
        from: v.pipe(v.string(), v.minLength(1)),
        to: v.string(),
      }),
    ),
  ),
});

export type OracleArtefact = v.InferOutput<typeof OracleArtefact>;
