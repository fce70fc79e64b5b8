/**
 * What a canary, a revert mutant and an equality probe record alike of how they were judged
 * (each is judged exactly as a mutant is and counted nowhere): the status, the test that killed
 * it, how the deciding run ended, and what its runs cost; and how a line on stderr says what
 * failed on one that did not survive.
 * @module
 */
import type { MutantVerdict } from './exec/mutant-run.js';
import type { ExecStatus } from './exec/types.js';

/** A judged site's status as mutation.json records it: an equivalent survivor is a survivor. */
type Judged = Exclude<ExecStatus, 'equivalent'>;

interface JudgedFields<S> {
  status: S;
  killed_by: string | null;
  ended?: string;
  duration_ms?: number;
  cpu_ms?: number;
}

/** The record fields of a site judged as a mutant; `undefined`: it was not run (`not_run`). */
export function judgedFields(verdict: MutantVerdict): JudgedFields<Judged>;
export function judgedFields(verdict: MutantVerdict | undefined): JudgedFields<Judged | 'not_run'>;
export function judgedFields(verdict: MutantVerdict | undefined): JudgedFields<Judged | 'not_run'> {
  const status = verdict === undefined ? 'not_run' : verdict.status === 'equivalent' ? 'survived' : verdict.status;
  return {
    status,
    killed_by: status === 'killed' ? (verdict?.killedBy ?? null) : null,
    ...(verdict?.ended != null ? { ended: verdict.ended } : {}),
    ...(verdict?.durationMs !== undefined ? { duration_ms: verdict.durationMs } : {}),
    ...(verdict?.cpuMs !== undefined ? { cpu_ms: verdict.cpuMs } : {}),
  };
}

/** What failed on a site that was killed or timed out, and the verb for it, as its stderr line says. */
export function failedOnIt(r: { readonly status: string; readonly killed_by: string | null }): {
  verb: string;
  by: string;
} {
  if (r.status === 'timeout') return { verb: 'timed out', by: 'the tests ran out of time on it' };
  return {
    verb: 'killed',
    by:
      r.killed_by !== null
        ? `${r.killed_by} failed on it`
        : 'the whole test command failed on it (no single test named)',
  };
}
