/**
 * `ag-decide check`: the CI required check. Exit 0 only for a valid, fresh ACCEPT.
 * @module
 */
import { LoadError, loadArtefact } from '@adversary-gate/schemas';

/** The outcome of a check: an exit code and one line saying why. */
export interface CheckResult {
  readonly code: 0 | 1 | 2;
  readonly line: string;
}

/** Check a verdict file; `diffSha256` binds it to a diff when given. Never throws for a bad file. */
export async function checkVerdict(file: string, diffSha256?: string): Promise<CheckResult> {
  let verdict;
  try {
    verdict = (await loadArtefact(file, 'verdict')).value;
  } catch (error) {
    const message = error instanceof LoadError || error instanceof Error ? error.message : String(error);
    return { code: 2, line: `not a valid verdict: ${message}` };
  }
  if (diffSha256 !== undefined && verdict.subject.diff_sha256 !== diffSha256) {
    return { code: 2, line: `${file}: stale: it judged diff ${verdict.subject.diff_sha256}, not ${diffSha256}` };
  }
  if (verdict.verdict === 'ACCEPT' && verdict.reasons.length === 0) return { code: 0, line: `${file}: ACCEPT` };
  if (verdict.verdict === 'ACCEPT') return { code: 2, line: `${file}: inconsistent: ACCEPT with reasons` };
  const codes = [...new Set(verdict.reasons.map((r) => r.code))].join(', ') || 'no reason given';
  return { code: verdict.verdict === 'REJECT' ? 1 : 2, line: `${file}: ${verdict.verdict} (${codes})` };
}
