/**
 * The evidence log: one schema-valid JSON line per decision, appended.
 * @module
 */
import {
  appendArtefact,
  sha256,
  type LogRecord,
  type RunArtefact,
  type VerdictArtefact,
} from '@adversary-gate/schemas';

/** Build the log record of one decision. */
export function logRecord(
  verdict: VerdictArtefact,
  verdictText: string,
  model: string,
  run: RunArtefact | null,
): LogRecord {
  const count = (s: string) => run?.claims.filter((c) => c.status === s).length ?? 0;
  return {
    schema: 'adversary-gate/log',
    schema_version: 1,
    tool: verdict.tool,
    subject: verdict.subject,
    inputs: verdict.inputs,
    faults: [],
    model,
    verdict: verdict.verdict,
    reason_codes: [...new Set(verdict.reasons.map((r) => r.code))],
    verdict_sha256: sha256(verdictText),
    diff_coverage: verdict.measurements.diff_coverage.value,
    suite_strength: verdict.measurements.suite_strength.value,
    claims: { verified: count('VERIFIED'), refuted: count('REFUTED'), unverified: count('UNVERIFIED') },
  };
}

/** Append one record as one line, validated against the log schema first (the shared writer's append). */
export async function appendLog(file: string, record: LogRecord): Promise<void> {
  await appendArtefact(file, record);
}
