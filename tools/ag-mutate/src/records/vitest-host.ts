/**
 * The lines the warm vitest host (runtime/vitest-host.mjs) writes on its fd 3, one JSON
 * record each. Internal, not part of the public contract (see read.ts).
 * @module
 */
import * as v from 'valibot';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The host started: its vitest's version and the test files the command's filters select. */
export const HostReady = v.strictObject({
  type: v.literal('ready'),
  version: v.string(),
  files: v.array(v.string()),
});

/** The host could not start or could not go on. */
export const HostError = v.strictObject({
  type: v.literal('error'),
  message: v.string(),
});

/** One test of a run: its file (relative to the tree), full name and vitest's state. */
export const HostTest = v.strictObject({
  file: v.string(),
  name: v.string(),
  state: v.string(),
});

/**
 * One run's answer: how vitest said it ended, the files it ran, every test, the errors beside
 * the tests; whether it ran on forks kept from earlier runs (each file's fresh-state probe
 * passed) or on new ones, and, when the probe found state a fresh process would not have had
 * and the run was made again on a new fork, what differed.
 */
export const HostResult = v.strictObject({
  type: v.literal('result'),
  id: Count,
  fork: v.picklist(['reused', 'new']),
  stale: v.optional(v.string()),
  reason: v.string(),
  files: v.array(v.string()),
  tests: v.array(HostTest),
  module_errors: Count,
  unhandled_errors: Count,
  messages: v.string(),
});

/** A run past its limits was aborted: its forks and what they started are gone, the host goes on. */
export const HostAborted = v.strictObject({
  type: v.literal('aborted'),
  id: Count,
});

/** Any line the host writes. */
export const HostLine = v.variant('type', [HostReady, HostError, HostResult, HostAborted]);

export type HostResult = v.InferOutput<typeof HostResult>;
export type HostReady = v.InferOutput<typeof HostReady>;
export type HostLine = v.InferOutput<typeof HostLine>;
