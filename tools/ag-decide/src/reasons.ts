/**
 * Reasons and the precedence that turns them into a verdict: REJECT > HOLD > ACCEPT.
 * @module
 */
import { HOLD_CODES, REJECT_CODES, type Reason, type ReasonCode, type Verdict } from '@adversary-gate/schemas';

type Source = Reason['evidence'];

/** Build a reason. */
export function reason(code: ReasonCode, evidence: Source, message: string): Reason {
  return { code, evidence, message };
}

const REJECTS: ReadonlySet<string> = new Set(REJECT_CODES);
const ORDER: readonly string[] = [...REJECT_CODES, ...HOLD_CODES];

/** True when a code rejects (direct evidence of breakage or tampering). */
export function isReject(code: ReasonCode): boolean {
  return REJECTS.has(code);
}

/** The strongest verdict among the reasons; ACCEPT only when there are none. */
export function verdictOf(reasons: readonly Reason[]): Verdict {
  if (reasons.some((r) => isReject(r.code))) return 'REJECT';
  if (reasons.length > 0) return 'HOLD';
  return 'ACCEPT';
}

/** Reasons in a stable order: rejects first, then the decision table's order, then message. */
export function sortReasons(reasons: readonly Reason[]): Reason[] {
  const key = (r: Reason) => ORDER.indexOf(r.code);
  return [...reasons].sort(
    (a, b) => key(a) - key(b) || a.evidence.localeCompare(b.evidence) || a.message.localeCompare(b.message),
  );
}

/** Join a list for a message, capped so a message stays one readable line. */
export function listForMessage(items: readonly string[], max = 5): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}
