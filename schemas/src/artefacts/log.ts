/**
 * One evidence-log record (one line of the JSONL log ag-decide appends with `--log`).
 * @module
 */
import * as v from 'valibot';
import { envelopeEntries } from '../envelope.js';
import { Count, Ratio, Sha256 } from '../primitives.js';
import { ReasonCode, Verdict } from './verdict.js';

export const LogRecord = v.strictObject({
  ...envelopeEntries('log'),
  model: v.pipe(v.string(), v.minLength(1)),
  verdict: Verdict,
  reason_codes: v.array(ReasonCode),
  verdict_sha256: Sha256,
  diff_coverage: v.nullable(Ratio),
  suite_strength: v.nullable(Ratio),
  claims: v.strictObject({ verified: Count, refuted: Count, unverified: Count }),
});

export type LogRecord = v.InferOutput<typeof LogRecord>;
