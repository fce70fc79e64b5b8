// The suite's one-screen summary: what ran, what did not and why, wrong ACCEPTs, false alarms.
import type { Verdict } from './case.js';

export interface Outcome {
  readonly id: string;
  readonly control: boolean;
  /** null: the case did not run (`why` says why). */
  readonly got: Verdict | 'none' | null;
  readonly expected: Verdict;
  readonly passed: boolean;
  readonly why?: string;
}

/** The summary lines for the outcomes so far and the cases held back as pending. */
export function summarize(
  outcomes: readonly Outcome[],
  pending: readonly { id: string; what: string }[],
  elapsedMs: number,
): string[] {
  const ran = outcomes.filter((o) => o.got !== null);
  const notRun = outcomes.filter((o) => o.got === null);
  const attacks = ran.filter((o) => !o.control);
  const controls = ran.filter((o) => o.control);
  const failOpens = attacks.filter((o) => o.got === 'ACCEPT');
  const falseAlarms = controls.filter((o) => o.got !== 'ACCEPT');
  const wrong = ran.filter((o) => !o.passed);
  const list = (xs: readonly Outcome[]) => xs.map((o) => o.id).join(', ') || '-';
  return [
    `adversarial suite: ${ran.length} cases run (${attacks.length} attacks, ${controls.length} controls) in ${(elapsedMs / 1000).toFixed(0)} s`,
    `  verdicts: ${(['REJECT', 'HOLD', 'ACCEPT'] as const).map((v) => `${v} ${ran.filter((o) => o.got === v).length}`).join(', ')}, no verdict ${ran.filter((o) => o.got === 'none').length}`,
    `  fail-opens (ACCEPT on an attack): ${failOpens.length}${failOpens.length ? ` — ${list(failOpens)}` : ''}`,
    `  false alarms (a control not ACCEPTed): ${falseAlarms.length}${falseAlarms.length ? ` — ${list(falseAlarms)}` : ''}`,
    `  not as expected: ${wrong.length}${wrong.length ? ` — ${list(wrong)}` : ''}`,
    `  NOT RUN: ${notRun.length}${notRun.map((o) => `\n    ${o.id}: ${o.why ?? ''}`).join('')}`,
    `  pending (known fail-opens, not run): ${pending.length}${pending.map((p) => `\n    ${p.id}: ${p.what}`).join('')}`,
  ];
}
