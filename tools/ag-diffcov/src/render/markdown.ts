/**
 * The diffcov artefact as a Markdown summary for a pull request: the headline figure,
 * a per-file table and the uncovered ranges.
 * @module
 */
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { formatRange, rangeCount, type InclusiveRange } from '@adversary-gate/core';

function percent(ratio: number): string {
  // Truncate (never round up) to one decimal: 99.95% must not read as 100%.
  return `${(Math.floor(ratio * 1000) / 10).toFixed(1)}%`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/`/g, "'");
}

function ranges(list: readonly InclusiveRange[]): string {
  return list.length === 0 ? '—' : list.map(formatRange).join(', ');
}

/** The headline sentence. */
export function headline(d: DiffcovArtefact): string {
  const { covered, measured } = d.totals;
  if (d.diff_coverage_source === 'none') return 'Patch coverage **not measured** (no coverage report).';
  if (d.diff_coverage_source === 'untrusted') {
    return `Patch coverage ${percent(d.diff_coverage_ratio ?? 0)} **asserted by the caller** (untrusted, not measured).`;
  }
  if (d.diff_coverage_ratio === null) return 'Patch coverage: no executable line changed (nothing to cover).';
  return `Patch coverage ${percent(d.diff_coverage_ratio)} (${covered}/${measured} changed lines)`;
}

/** Render the artefact as Markdown. */
export function renderMarkdown(d: DiffcovArtefact): string {
  const out: string[] = ['## Patch coverage', '', headline(d), ''];
  if (d.files.length > 0) {
    out.push('| file | covered | uncovered | not executable | uncovered lines |', '|---|---:|---:|---:|---|');
    for (const f of d.files) {
      const name = f.in_report ? `\`${cell(f.path)}\`` : `\`${cell(f.path)}\` (not in the report)`;
      out.push(
        `| ${name} | ${rangeCount(f.covered)} | ${rangeCount(f.uncovered)} | ${rangeCount(f.non_executable)} | ${ranges(f.uncovered)} |`,
      );
    }
    out.push('');
  }
  const unmeasured = d.unmeasured_files ?? [];
  if (unmeasured.length > 0) {
    out.push(`**${unmeasured.length} changed source file(s) whose lines were not measured:**`, '');
    for (const f of unmeasured) out.push(`- \`${cell(f.path)}\` — lines ${ranges(f.added)}`);
    out.push('');
  }
  if (d.unmatched_files.length > 0) {
    out.push(
      `**${d.unmatched_files.length} changed source file(s) not found in any report** (their code lines count as uncovered):`,
      '',
    );
    for (const p of d.unmatched_files) out.push(`- \`${cell(p)}\``);
    out.push('');
  }
  const ignored = d.ignored_by_pragma ?? [];
  if (ignored.length > 0) {
    out.push('**Changed lines under a coverage-ignore pragma** (counted uncovered, whatever the report says):', '');
    for (const e of ignored) {
      const where = e.pragma_line === undefined ? '' : `:${e.pragma_line}`;
      out.push(`- \`${cell(e.path)}${where}\` \`${cell(e.pragma)}\` — lines ${ranges(e.lines)}`);
    }
    out.push('');
  }
  const partly = d.branch_unrun ?? [];
  if (partly.length > 0) {
    out.push(
      '**Changed lines the report calls run where a block or function beginning on them never ran** (its branch or function records; counted uncovered):',
      '',
    );
    for (const e of partly) out.push(`- \`${cell(e.path)}\` — lines ${ranges(e.lines)}`);
    out.push('');
  }
  if (d.pragma_scope === 'added_lines' && d.files.length > 0) {
    out.push(
      'Coverage-ignore pragmas were looked for on the added lines only (no patch tree given): a pragma already in a changed file was not checked.',
      '',
    );
  }
  if (d.pragmas.length > 0) {
    out.push('**Coverage pragmas added on changed lines:**', '');
    for (const p of d.pragmas) out.push(`- \`${cell(p.path)}:${p.line}\` — \`${cell(p.text)}\``);
    out.push('');
  }
  if (d.faults.length > 0) {
    out.push('**Faults:**', '');
    for (const f of d.faults) out.push(`- ${f.code}: ${cell(f.message)}`);
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
