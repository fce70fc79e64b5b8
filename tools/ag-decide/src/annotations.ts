/**
 * GitHub Actions workflow commands (`::error file=…,line=…::message`) for each finding.
 *
 * GitHub shows at most 10 error and 10 warning annotations a step (50 a job) and drops the
 * rest without a word, so no more than {@link MAX_ANNOTATIONS} `::error`/`::warning` lines are
 * printed in all: the verdict's line first, the findings (errors before warnings), and when
 * they do not fit, the last line says how many more there are and where every one is (the
 * reviewer page: verdict.md, the job summary in the GitHub Action).
 * @module
 */
import type { VerdictArtefact } from '@adversary-gate/schemas';
import type { Finding } from './details.js';

/** The `::error` and `::warning` lines printed at most (GitHub shows 10 of each a step). */
export const MAX_ANNOTATIONS = 10;

// Workflow-command escaping: data escapes %, CR, LF; properties also , and :.
const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const prop = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function command(level: string, props: readonly string[], message: string): string {
  return `::${level}${props.length > 0 ? ` ${props.join(',')}` : ''}::${data(message)}`;
}

function annotate(f: Finding): string {
  const where = [`file=${prop(f.file)}`];
  if (f.line !== null) where.push(`line=${f.line}`);
  if (f.endLine !== null && f.endLine !== f.line) where.push(`endLine=${f.endLine}`);
  where.push(`title=${prop(f.title)}`);
  return command(f.level, where, f.message);
}

/**
 * The verdict's line (`::error` unless ACCEPT, then `::notice`), then one line per finding,
 * errors first; at most {@link MAX_ANNOTATIONS} `::error`/`::warning` lines in all, the last
 * of them, when findings are left out, saying how many.
 */
export function renderAnnotations(verdict: VerdictArtefact, found: readonly Finding[]): string {
  const codes = [...new Set(verdict.reasons.map((r) => r.code))].join(', ');
  const level = verdict.verdict === 'ACCEPT' ? 'notice' : 'error';
  const lines = [
    command(
      level,
      [`title=${prop(`adversary-gate: ${verdict.verdict}`)}`],
      codes === '' ? 'every required measurement was made and cleared its floor' : codes,
    ),
  ];
  // Errors before warnings, each in the order found: what is cut is the least serious.
  const ordered = [...found.filter((f) => f.level === 'error'), ...found.filter((f) => f.level === 'warning')];
  const room = MAX_ANNOTATIONS - (level === 'error' ? 1 : 0);
  if (ordered.length <= room) lines.push(...ordered.map(annotate));
  else {
    const shown = ordered.slice(0, room - 1);
    const rest = ordered.slice(room - 1);
    lines.push(...shown.map(annotate));
    // The line saying so takes a slot: at least 2 are left out.
    const more = `${rest.length} more findings`;
    lines.push(
      command(
        rest.some((f) => f.level === 'error') ? 'error' : 'warning',
        [`title=${prop(`adversary-gate: ${more}`)}`],
        `${more} not annotated here (GitHub shows 10 annotations a step): every finding is in the job summary and verdict.md`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}
