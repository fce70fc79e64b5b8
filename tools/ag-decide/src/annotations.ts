/**
 * GitHub Actions workflow commands (`::error file=…,line=…::message`) for each finding.
 * @module
 */
import type { VerdictArtefact } from '@adversary-gate/schemas';
import type { Finding } from './details.js';

// Workflow-command escaping: data escapes %, CR, LF; properties also , and :.
const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const prop = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One line per finding, plus one for the verdict itself. */
export function renderAnnotations(verdict: VerdictArtefact, found: readonly Finding[]): string {
  const lines = found.map((f) => {
    const where = [`file=${prop(f.file)}`];
    if (f.line !== null) where.push(`line=${f.line}`);
    if (f.endLine !== null && f.endLine !== f.line) where.push(`endLine=${f.endLine}`);
    where.push(`title=${prop(f.title)}`);
    return `::${f.level} ${where.join(',')}::${data(f.message)}`;
  });
  const codes = [...new Set(verdict.reasons.map((r) => r.code))].join(', ');
  const level = verdict.verdict === 'ACCEPT' ? 'notice' : 'error';
  lines.push(
    `::${level} title=${prop(`adversary-gate: ${verdict.verdict}`)}::${data(codes === '' ? 'every required measurement was made and cleared its floor' : codes)}`,
  );
  return `${lines.join('\n')}\n`;
}
