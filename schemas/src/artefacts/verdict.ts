/**
 * verdict.json, written by ag-decide alone and read by CI's required check.
 * @module
 */
import * as v from 'valibot';
import { envelopeEntries } from '../envelope.js';
import { Ratio, Sha256 } from '../primitives.js';

export const Verdict = v.picklist(['ACCEPT', 'REJECT', 'HOLD']);
export type Verdict = v.InferOutput<typeof Verdict>;

/** Reason codes that reject: direct evidence of breakage or tampering. */
export const REJECT_CODES = [
  'CLAIM_FAILED',
  'COLLATERAL_REGRESSION',
  'TEST_LOST',
  'TEST_SKIPPED',
  'ORACLE_TOUCHED',
  'FIXTURE_DRIFT',
  'FREEZE_INVALID',
] as const;

/** Reason codes that hold: something was not measured, could not run, or is too weak. */
export const HOLD_CODES = [
  'CLAIM_UNVERIFIED',
  'CRITERION_UNPROVEN',
  'BASELINE_RED',
  'TEST_FLAKY',
  'TEST_RENAMED',
  'TEST_RETIRED',
  'TRUSTED_TEST_FAILED',
  'COVERAGE_NOT_MEASURED',
  'COVERAGE_UNTRUSTED',
  'COVERAGE_BELOW_FLOOR',
  'STRENGTH_NOT_MEASURED',
  'STRENGTH_UNVERIFIED',
  'STRENGTH_BELOW_FLOOR',
  'FROZEN_ONLY_COVERAGE',
  'TAMPER_SUSPECTED',
  'BEHAVIOUR_SUSPECTED',
  'EQUALITY_LOOSENED',
  'EVIDENCE_MISSING',
  'EVIDENCE_INVALID',
  'EVIDENCE_STALE',
  'PIPELINE_FAULT',
] as const;

export const ReasonCode = v.picklist([...REJECT_CODES, ...HOLD_CODES]);
export type ReasonCode = v.InferOutput<typeof ReasonCode>;

/** Which evidence a reason came from. */
export const ReasonSource = v.picklist(['run', 'diffcov', 'mutation', 'oracle', 'policy', 'input']);

export const Reason = v.strictObject({
  code: ReasonCode,
  evidence: ReasonSource,
  message: v.pipe(v.string(), v.minLength(1)),
});
export type Reason = v.InferOutput<typeof Reason>;

/** One evidence file ag-decide was given, and what became of it. */
export const EvidenceRef = v.strictObject({
  /** The kind its `schema` field named, or null when it could not be read that far. */
  kind: v.nullable(v.picklist(['run', 'diffcov', 'mutation', 'oracle'])),
  path: v.string(),
  sha256: v.nullable(Sha256),
  status: v.picklist(['read', 'missing', 'invalid', 'stale']),
});

/** A measurement held against a floor. */
export const Measurement = v.strictObject({
  value: v.nullable(Ratio),
  source: v.string(),
});

export const VerdictArtefact = v.strictObject({
  ...envelopeEntries('verdict'),
  verdict: Verdict,
  reasons: v.array(Reason),
  floors: v.strictObject({ diff_coverage: Ratio, suite_strength: Ratio }),
  measurements: v.strictObject({ diff_coverage: Measurement, suite_strength: Measurement }),
  evidence: v.array(EvidenceRef),
  /** Requirements switched off (a floor of 0, a mutation budget of 0, a kind not required). */
  disabled: v.array(v.string()),
  /**
   * Optional (absent when there is none, and in older verdicts): what the evidence says that is
   * no reason and no switched-off requirement, one sentence each: the Python interpreter that
   * ran the tests, and whether it is the one the caller's PATH gives.
   */
  notes: v.optional(v.array(v.string())),
  policy: v.strictObject({
    source: v.picklist(['default', 'file']),
    path: v.nullable(v.string()),
    sha256: v.nullable(Sha256),
  }),
});

export type VerdictArtefact = v.InferOutput<typeof VerdictArtefact>;
