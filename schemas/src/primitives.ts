/**
 * Building blocks shared by every artefact schema.
 * @module
 */
import * as v from 'valibot';

/** A digest written as `sha256:` followed by 64 lowercase hex digits. */
export const Sha256 = v.pipe(
  v.string(),
  v.regex(/^sha256:[0-9a-f]{64}$/, 'expected "sha256:" and 64 lowercase hex digits'),
);

/** A non-negative safe integer (counts, line numbers, sizes). */
export const Count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

/** A positive safe integer (line numbers). */
export const LineNumber = v.pipe(v.number(), v.safeInteger(), v.minValue(1));

/** A finite number in [0, 1]. */
export const Ratio = v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1));

/** A finite non-negative number (seconds, factors). */
export const NonNegative = v.pipe(v.number(), v.finite(), v.minValue(0));

/**
 * A repository-relative path with forward slashes: not absolute, no `..` segment,
 * no backslash, no NUL, no empty segment.
 */
export const RelPath = v.pipe(
  v.string(),
  v.minLength(1),
  v.check((p) => !p.startsWith('/') && !/^[A-Za-z]:/.test(p), 'path must be relative'),
  v.check((p) => !p.includes('\\') && !p.includes('\0'), 'path must not contain a backslash or NUL'),
  v.check((p) => p.split('/').every((s) => s !== '..' && s !== ''), 'path must not contain ".." or empty segments'),
);

/** An inclusive range of line numbers, `[first, last]`. */
export const LineRange = v.pipe(
  v.strictTuple([LineNumber, LineNumber], 'a line range is exactly [first, last]'),
  v.check(([a, b]) => a <= b, 'range start must not exceed its end'),
);

/** Name and version of the tool that wrote an artefact. */
export const ToolId = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1)),
  version: v.pipe(v.string(), v.minLength(1)),
});

/** What an artefact is about: the digest of the unified diff it measured. */
/** A git tree id (SHA-1, or SHA-256 in a repository that uses it), lower-case hex. */
export const GitTreeId = v.pipe(
  v.string(),
  v.regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, 'must be a git tree id (40 or 64 lower-case hex digits)'),
);

/**
 * What the evidence measured: the diff, and (written by the tools from 0.2 on; optional so
 * older evidence still reads) the git tree ids of the baseline and patch trees it ran on,
 * computed from the files (`gitTreeId` in ag-core), so ag-decide can refuse evidence measured
 * on any other tree.
 */
export const Subject = v.strictObject({
  diff_sha256: Sha256,
  baseline_tree: v.optional(GitTreeId),
  patch_tree: v.optional(GitTreeId),
});

/** One input file that shaped a number, with its digest so anyone can re-derive it. */
export const InputRef = v.strictObject({
  role: v.pipe(v.string(), v.minLength(1)),
  path: v.pipe(v.string(), v.minLength(1)),
  sha256: Sha256,
});

/** A fault the tool could name and kept going past; any fault forces HOLD. */
export const Fault = v.strictObject({
  code: v.pipe(v.string(), v.regex(/^[A-Z][A-Z0-9_]*$/, 'fault code must be UPPER_SNAKE_CASE')),
  message: v.pipe(v.string(), v.minLength(1)),
});

/** Durations and other clock readings; ag-decide ignores everything under this key. */
export const Timing = v.record(v.string(), NonNegative);
