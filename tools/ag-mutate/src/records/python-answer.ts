/**
 * What python/sites.py answers on stdout: per file asked (same order), its sites or the
 * reason it could not be read. Internal, not part of the public contract (see read.ts).
 * @module
 */
import * as v from 'valibot';

const Offset = v.pipe(v.number(), v.integer(), v.minValue(0));
const Line = v.pipe(v.number(), v.integer(), v.minValue(1));

const HelperSite = v.strictObject({
  start: Offset,
  end: Offset,
  operator: v.string(),
  rank: v.number(),
  replacement: v.string(),
  parses: v.boolean(),
  stmt_lines: v.tuple([Line, Line]),
  function: v.optional(v.nullable(v.string())),
  breaks_type: v.optional(v.boolean()),
});

const HelperCanary = v.strictObject({
  function: v.string(),
  fn_start: Offset,
  fn_end: Offset,
  start: Offset,
  end: Offset,
  prefix: v.string(),
  suffix: v.string(),
  stmt_lines: v.tuple([Line, Line]),
  parses: v.boolean(),
  /** A renamed local: the function's text with each occurrence of `local` a NUL. */
  rename: v.optional(v.string()),
  local: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z_]\w*$/))),
});

const HelperFile = v.strictObject({
  path: v.string(),
  error: v.nullable(v.string()),
  sites: v.array(HelperSite),
  executable: v.optional(v.array(Line)),
  canaries: v.optional(v.array(HelperCanary)),
  /** Per reverted text asked about: whether it compiles, and whether its code is the file's own. */
  reverts: v.optional(v.array(v.strictObject({ parses: v.boolean(), same: v.boolean() }))),
});

/** The helper's whole answer. */
export const PythonAnswer = v.strictObject({ files: v.array(HelperFile) });
