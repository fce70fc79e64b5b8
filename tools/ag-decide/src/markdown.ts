/**
 * The one page a reviewer reads: verdict first, then why, the numbers, coverage per file
 * with uncovered ranges, surviving mutants with their diffs, test deltas, oracle findings.
 * @module
 */
import { REJECT_CODES, type Mutant, type VerdictArtefact } from '@adversary-gate/schemas';
import type { AcceptedEvidence } from './details.js';

const ICON = { ACCEPT: '✅', REJECT: '⛔', HOLD: '⏸️' } as const;
const REJECTS: readonly string[] = REJECT_CODES;
const MAX_ROWS = 50;

const pct = (v: number | null) => (v === null ? 'not measured' : `${(v * 100).toFixed(1)}%`);
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const ranges = (rs: readonly (readonly [number, number])[]) =>
  rs.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ');
const count = (rs: readonly (readonly [number, number])[]) => rs.reduce((n, [a, b]) => n + b - a + 1, 0);
const more = (shown: number, total: number) =>
  total > shown ? [`\n…and ${total - shown} more (see the evidence file).`] : [];

function head(v: VerdictArtefact): string[] {
  const lines = [`## ${ICON[v.verdict]} adversary-gate: ${v.verdict}`, ''];
  if (v.reasons.length === 0) return [...lines, 'Every required measurement was made and cleared its floor.', ''];
  lines.push('| verdict | code | evidence | why |', '|---|---|---|---|');
  for (const r of v.reasons)
    lines.push(
      `| ${REJECTS.includes(r.code) ? 'REJECT' : 'HOLD'} | \`${r.code}\` | ${r.evidence} | ${cell(r.message)} |`,
    );
  return [...lines, ''];
}

function measurements(v: VerdictArtefact): string[] {
  const lines = ['| measurement | value | source | floor |', '|---|---|---|---|'];
  lines.push(
    `| diff coverage | ${pct(v.measurements.diff_coverage.value)} | ${v.measurements.diff_coverage.source} | ${v.floors.diff_coverage} |`,
  );
  lines.push(
    `| suite strength | ${pct(v.measurements.suite_strength.value)} | ${v.measurements.suite_strength.source} | ${v.floors.suite_strength} |`,
    '',
  );
  if (v.disabled.length > 0) lines.push('**Disabled requirements:**', '', ...v.disabled.map((d) => `- ${cell(d)}`), '');
  const notes = v.notes ?? [];
  if (notes.length > 0) lines.push('**Notes:**', '', ...notes.map((n) => `- ${cell(n)}`), '');
  return lines;
}

function coverage(e: AcceptedEvidence): string[] {
  const d = e.diffcov;
  if (d === undefined || d.files.length === 0) return [];
  const lines = [
    '### Coverage of the changed lines',
    '',
    `Patch coverage ${pct(d.diff_coverage_ratio)} (${d.totals.covered}/${d.totals.measured} changed lines).`,
    '',
  ];
  lines.push('| file | covered | uncovered | uncovered lines |', '|---|---|---|---|');
  const files = [...d.files].sort((a, b) => count(b.uncovered) - count(a.uncovered) || a.path.localeCompare(b.path));
  for (const f of files.slice(0, MAX_ROWS)) {
    lines.push(
      `| \`${cell(f.path)}\`${f.in_report ? '' : ' (not in the report)'} | ${count(f.covered)} | ${count(f.uncovered)} | ${ranges(f.uncovered) || '-'} |`,
    );
  }
  return [...lines, ...more(MAX_ROWS, files.length), ''];
}

function mutants(e: AcceptedEvidence): string[] {
  const survivors = (e.mutation?.mutants ?? []).filter((m) => m.status === 'survived' || m.status === 'no_coverage');
  if (survivors.length === 0) return equivalents(e);
  const lines = [
    '### Surviving mutants',
    '',
    'Each change below left every test passing: an assertion is missing.',
    '',
  ];
  for (const m of survivors.slice(0, MAX_ROWS))
    lines.push(...mutantBlock(m, m.status === 'no_coverage' ? ' (no test executes this line)' : ''));
  return [...lines, ...more(MAX_ROWS, survivors.length), ...equivalents(e)];
}

/** Survivors the differential check found no input to tell apart: not counted, shown for a reviewer to confirm. */
function equivalents(e: AcceptedEvidence): string[] {
  const list = (e.mutation?.mutants ?? []).filter((m) => m.status === 'equivalent');
  if (list.length === 0) return [];
  const lines = [
    '### Probably equivalent mutants (not counted)',
    '',
    'Each change below left every test passing, and its function gave the same outcome as the unmutated one on every call the tests made and on neighbours of those calls.',
    '',
  ];
  for (const m of list.slice(0, MAX_ROWS)) lines.push(...mutantBlock(m, `: ${m.equivalence?.note ?? ''}`));
  return [...lines, ...more(MAX_ROWS, list.length)];
}

/** One mutant as a reviewer reads it: where, which operator (with `after`), and the change as a diff. */
function mutantBlock(m: Mutant, after: string): string[] {
  return [
    `**\`${cell(m.file)}:${m.line}\`** ${m.operator}${after}`,
    '',
    '```diff',
    `- ${m.original}`,
    `+ ${m.replacement}`,
    '```',
    '',
  ];
}

function testDeltas(e: AcceptedEvidence): string[] {
  const t = e.run?.test_deltas;
  if (t === undefined || t === null) return [];
  const groups: [string, readonly string[]][] = [
    ['Tests present on the baseline, absent on the patch', t.tests_lost],
    ['Tests newly skipped, todo or filtered', t.tests_newly_skipped],
    ['Tests that passed on the baseline and fail on the patch', t.tests_pass_to_fail],
  ];
  const lines: string[] = [];
  for (const [title, ids] of groups) {
    if (ids.length === 0) continue;
    lines.push(
      `**${title}:**`,
      '',
      ...ids.slice(0, MAX_ROWS).map((id) => `- \`${cell(id)}\``),
      ...more(MAX_ROWS, ids.length),
      '',
    );
  }
  return lines.length === 0 ? [] : ['### Test deltas', '', ...lines];
}

function oracle(e: AcceptedEvidence): string[] {
  const o = e.oracle;
  if (o === undefined) return [];
  const lines: string[] = [];
  for (const h of o.oracle_touched)
    lines.push(`- protected path touched: \`${cell(h.path)}\` (pattern \`${cell(h.pattern)}\`)`);
  for (const f of o.fixtures.filter((x) => x.expected !== x.actual)) {
    lines.push(
      `- fixture drift in \`${cell(f.root)}\`: +${f.added.length} −${f.removed.length} ~${f.changed.length} (${[
        ...f.added,
        ...f.removed,
        ...f.changed,
      ]
        .slice(0, 5)
        .map((p) => `\`${cell(p)}\``)
        .join(', ')})`,
    );
  }
  for (const x of o.freeze.entries.filter((y) => y.status !== 'valid'))
    lines.push(`- freeze entry #${x.index} \`${cell(x.nodeid ?? '?')}\`: ${x.status}`);
  for (const t of o.tampering)
    lines.push(`- ${t.kind} at \`${cell(t.path)}${t.line === null ? '' : `:${t.line}`}\`: ${cell(t.detail)}`);
  return lines.length === 0
    ? []
    : ['### Oracle findings', '', ...lines.slice(0, MAX_ROWS), ...more(MAX_ROWS, lines.length), ''];
}

function evidenceTable(v: VerdictArtefact): string[] {
  const lines = ['<details><summary>Evidence</summary>', '', '| kind | file | status | sha256 |', '|---|---|---|---|'];
  for (const e of v.evidence)
    lines.push(`| ${e.kind ?? '?'} | \`${cell(e.path)}\` | ${e.status} | \`${e.sha256 ?? '-'}\` |`);
  lines.push(
    '',
    `Diff: \`${v.subject.diff_sha256}\`; policy: ${v.policy.source}${v.policy.path ? ` \`${cell(v.policy.path)}\`` : ''}.`,
    '',
    '</details>',
    '',
  );
  return lines;
}

/** Render a verdict (and the evidence it accepted) as GitHub-flavoured markdown. */
export function renderMarkdown(v: VerdictArtefact, evidence: AcceptedEvidence = {}): string {
  return [
    ...head(v),
    ...measurements(v),
    ...coverage(evidence),
    ...mutants(evidence),
    ...testDeltas(evidence),
    ...oracle(evidence),
    ...evidenceTable(v),
  ].join('\n');
}
