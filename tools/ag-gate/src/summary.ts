/**
 * The few lines a run ends with: the verdict, each reason in words, and where the reviewer's
 * page (verdict.md) is. Read from verdict.json as written; an unreadable one says so.
 * @module
 */
import { readFileSync } from 'node:fs';

interface VerdictFile {
  readonly verdict?: unknown;
  readonly reasons?: ReadonlyArray<{ readonly code?: unknown; readonly message?: unknown }>;
  readonly notes?: unknown;
}

/**
 * The closing lines for the verdict at `verdictFile` (at most `maxReasons` reasons listed), its
 * own notes, then `notes` (the deadline that applied), one line each.
 */
export function summaryLines(
  verdictFile: string,
  markdown: string,
  maxReasons = 12,
  notes: readonly string[] = [],
): string[] {
  let parsed: VerdictFile;
  try {
    parsed = JSON.parse(readFileSync(verdictFile, 'utf8')) as VerdictFile;
  } catch {
    return [`verdict: none could be read from ${verdictFile} (HOLD)`, ...notes];
  }
  const verdict = typeof parsed.verdict === 'string' ? parsed.verdict : 'HOLD';
  const reasons = Array.isArray(parsed.reasons) ? parsed.reasons : [];
  const lines = [`verdict: ${verdict}`];
  for (const r of reasons.slice(0, maxReasons)) {
    const message = typeof r.message === 'string' ? r.message : '';
    lines.push(
      `  ${String(r.code)}${message === '' ? '' : `: ${message.length > 200 ? `${message.slice(0, 199)}…` : message}`}`,
    );
  }
  if (reasons.length > maxReasons) lines.push(`  … and ${reasons.length - maxReasons} more`);
  // The verdict's own notes (the interpreter that ran the tests), one line each.
  const said = Array.isArray(parsed.notes) ? parsed.notes.filter((n): n is string => typeof n === 'string') : [];
  lines.push(...said.map((n) => `note: ${n}`), ...notes, `details: ${markdown}`);
  return lines;
}
