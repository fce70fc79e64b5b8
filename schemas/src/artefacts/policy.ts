/**
 * adversary-gate.json, the policy: read from the baseline (trusted) tree, never the patch.
 * @module
 */
import * as v from 'valibot';
import { Ratio } from '../primitives.js';

const Glob = v.pipe(v.string(), v.minLength(1));

/** A file class whose policy globs may replace the built-in defaults instead of extending them. */
export const ReplaceableClass = v.picklist(['test', 'not_code']);

export const PolicyFile = v.strictObject({
  /** The JSON Schema an editor validates the file against; read by editors, ignored by the gate. */
  $schema: v.optional(v.string()),
  schema_version: v.literal(1),
  floors: v.optional(
    v.strictObject({
      diff_coverage: v.optional(Ratio),
      suite_strength: v.optional(Ratio),
    }),
  ),
  require: v.optional(v.pipe(v.array(v.picklist(['run', 'diffcov', 'mutation', 'oracle'])), v.minLength(1))),
  coverage: v.optional(v.strictObject({ allow_untrusted: v.optional(v.boolean()) })),
  /** The share of changed executable lines the policy accepts without any mutant (default 0). */
  mutation: v.optional(v.strictObject({ unmutated_line_share: v.optional(Ratio) })),
  oracle: v.optional(
    v.strictObject({
      protected: v.optional(v.pipe(v.array(Glob), v.minLength(1, 'the protected list must not be empty'))),
      fixtures: v.optional(v.array(Glob)),
      freeze: v.optional(v.nullable(v.string())),
      /** Golden files (globs): expected outputs whose existing lines, edited with the source, hold. */
      golden: v.optional(v.array(Glob)),
    }),
  ),
  /**
   * More globs for the file classes: they extend the built-in defaults, unless the class is
   * listed in `replace`, where they take the defaults' place.
   */
  files: v.optional(
    v.pipe(
      v.strictObject({
        test: v.optional(v.array(Glob)),
        not_code: v.optional(v.array(Glob)),
        replace: v.optional(v.array(ReplaceableClass)),
      }),
      v.check(
        (f) => (f.replace ?? []).every((c) => f[c] !== undefined),
        '"files.replace" names a class whose globs the policy does not give',
      ),
    ),
  ),
});

export type PolicyFile = v.InferOutput<typeof PolicyFile>;

/** The policy with every default filled in. */
export interface Policy {
  /** diff coverage floor; default 0.8; 0 disables the requirement. */
  readonly floors: { readonly diff_coverage: number; readonly suite_strength: number };
  /** evidence kinds that must be present; default all four. */
  readonly require: readonly ('run' | 'diffcov' | 'mutation' | 'oracle')[];
  /** whether caller-asserted coverage may clear the floor; default false. */
  readonly allow_untrusted_coverage: boolean;
  /** changed executable lines accepted without a mutant, as a share; default 0. */
  readonly mutation: { readonly unmutated_line_share: number };
  readonly oracle: {
    readonly protected: readonly string[];
    readonly fixtures: readonly string[];
    readonly freeze: string | null;
    /** golden-file globs; default none. */
    readonly golden: readonly string[];
  };
  /**
   * The policy's file-class globs (null: none given) and the classes whose globs replace
   * the built-in defaults rather than extend them.
   */
  readonly files: {
    readonly test: readonly string[] | null;
    readonly not_code: readonly string[] | null;
    readonly replace: readonly ('test' | 'not_code')[];
  };
}

/** Defaults as DESIGN.md states them. */
export const DEFAULT_POLICY: Policy = {
  floors: { diff_coverage: 0.8, suite_strength: 0.75 },
  require: ['run', 'diffcov', 'mutation', 'oracle'],
  allow_untrusted_coverage: false,
  mutation: { unmutated_line_share: 0 },
  oracle: { protected: ['adversary-gate.json'], fixtures: [], freeze: null, golden: [] },
  files: { test: null, not_code: null, replace: [] },
};

/** Fill a parsed policy file's gaps with the defaults (no Object.assign of parsed data). */
export function resolvePolicy(file: PolicyFile | null): Policy {
  if (file === null) return DEFAULT_POLICY;
  return {
    floors: {
      diff_coverage: file.floors?.diff_coverage ?? DEFAULT_POLICY.floors.diff_coverage,
      suite_strength: file.floors?.suite_strength ?? DEFAULT_POLICY.floors.suite_strength,
    },
    require: file.require ?? DEFAULT_POLICY.require,
    allow_untrusted_coverage: file.coverage?.allow_untrusted ?? false,
    mutation: { unmutated_line_share: file.mutation?.unmutated_line_share ?? 0 },
    oracle: {
      protected: file.oracle?.protected ?? DEFAULT_POLICY.oracle.protected,
      fixtures: file.oracle?.fixtures ?? [],
      freeze: file.oracle?.freeze ?? null,
      golden: file.oracle?.golden ?? [],
    },
    files: {
      test: file.files?.test ?? null,
      not_code: file.files?.not_code ?? null,
      replace: [...new Set(file.files?.replace ?? [])].sort(),
    },
  };
}
