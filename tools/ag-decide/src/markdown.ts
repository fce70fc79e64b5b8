/**
 * The human summary of a verdict: verdict first, then why, then the numbers.
 * @module
 */
import type { VerdictArtefact } from '@adversary-gate/schemas';

const ICON = { ACCEPT: '✅', REJECT: '⛔', HOLD: '⏸️' } as const;

const pct = (v: number | null) => (v === null ? 'not measured' : `${(v * 100).toFixed(1)}%`);
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Render a verdict as GitHub-flavoured markdown. */
export function renderMarkdown(v: VerdictArtefact): string {
  const lines: string[] = [];
  lines.push(`## ${ICON[v.verdict]} adversary-gate: ${v.verdict}`, '');
  if (v.reasons.length === 0) {
    lines.push('Every required measurement was made and cleared its floor.', '');
  } else {
    lines.push('| verdict | code | evidence | why |', '|---|---|---|---|');
    for (const r of v.reasons) {
      const kind = ['CLAIM_FAILED', 'COLLATERAL_REGRESSION', 'TEST_LOST', 'TEST_SKIPPED', 'ORACLE_TOUCHED', 'FIXTURE_DRIFT', 'FREEZE_INVALID'].includes(r.code) ? 'REJECT' : 'HOLD';
      lines.push(`| ${kind} | \`${r.code}\` | ${r.evidence} | ${cell(r.message)} |`);
    }
    lines.push('');
  }
  lines.push('| measurement | value | source | floor |', '|---|---|---|---|');
  lines.push(`| diff coverage | ${pct(v.measurements.diff_coverage.value)} | ${v.measurements.diff_coverage.source} | ${v.floors.diff_coverage} |`);
  lines.push(`| suite strength | ${pct(v.measurements.suite_strength.value)} | ${v.measurements.suite_strength.source} | ${v.floors.suite_strength} |`);
  lines.push('');
  if (v.disabled.length > 0) {
    lines.push('**Disabled requirements:**', '');
    for (const d of v.disabled) lines.push(`- ${cell(d)}`);
    lines.push('');
  }
  lines.push('<details><summary>Evidence</summary>', '', '| kind | file | status | sha256 |', '|---|---|---|---|');
  for (const e of v.evidence) lines.push(`| ${e.kind ?? '?'} | \`${cell(e.path)}\` | ${e.status} | \`${e.sha256 ?? '-'}\` |`);
  lines.push('', `Diff: \`${v.subject.diff_sha256}\`; policy: ${v.policy.source}${v.policy.path ? ` \`${cell(v.policy.path)}\`` : ''}.`, '', '</details>', '');
  return lines.join('\n');
}
