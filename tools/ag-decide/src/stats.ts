/**
 * `ag-decide stats`: per-model figures over an evidence log.
 * self_deception_index = ACCEPT decisions whose run evidence had an unverified claim,
 * divided by ACCEPT decisions (0 when there are none). ag-decide never accepts with an
 * unverified claim, so on its own logs the index is 0 by construction; a non-zero value
 * means a log that did not come from this gate's decisions.
 * @module
 */
import { InputError } from '@adversary-gate/core';
import {
  LoadError,
  LogRecord,
  parseStrictJson,
  readRegularFile,
  decodeUtf8Strict,
  validateOrThrow,
} from '@adversary-gate/schemas';

/** Figures of one model. */
export interface ModelStats {
  decisions: number;
  ACCEPT: number;
  REJECT: number;
  HOLD: number;
  by_reason: Record<string, number>;
  claims: { verified: number; refuted: number; unverified: number };
  unverified_accepts: number;
  self_deception_index: number;
}

/** Read and validate every line of a log. @throws InputError naming file:line */
export async function readLog(file: string): Promise<LogRecord[]> {
  let text: string;
  try {
    text = decodeUtf8Strict(file, await readRegularFile(file, 512 * 1024 * 1024));
  } catch (error) {
    if (error instanceof LoadError) throw new InputError(file, error.problem);
    throw error;
  }
  const records: LogRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    try {
      records.push(validateOrThrow(`${file}:${i + 1}`, LogRecord, parseStrictJson(`${file}:${i + 1}`, line)));
    } catch (error) {
      if (error instanceof LoadError) throw new InputError(`${file}:${i + 1}`, error.problem);
      throw error;
    }
  }
  return records;
}

/** Aggregate records per model. */
export function computeStats(records: readonly LogRecord[]): Record<string, ModelStats> {
  const out: Record<string, ModelStats> = {};
  for (const r of records) {
    const s = (out[r.model] ??= {
      decisions: 0,
      ACCEPT: 0,
      REJECT: 0,
      HOLD: 0,
      by_reason: {},
      claims: { verified: 0, refuted: 0, unverified: 0 },
      unverified_accepts: 0,
      self_deception_index: 0,
    });
    s.decisions++;
    s[r.verdict]++;
    for (const code of r.reason_codes) s.by_reason[code] = (s.by_reason[code] ?? 0) + 1;
    s.claims.verified += r.claims.verified;
    s.claims.refuted += r.claims.refuted;
    s.claims.unverified += r.claims.unverified;
    if (r.verdict === 'ACCEPT' && r.claims.unverified > 0) s.unverified_accepts++;
  }
  for (const s of Object.values(out)) s.self_deception_index = s.ACCEPT === 0 ? 0 : s.unverified_accepts / s.ACCEPT;
  return out;
}

/** A plain-text table of the figures. */
export function statsTable(stats: Record<string, ModelStats>): string {
  const header = ['model', 'decisions', 'ACCEPT', 'REJECT', 'HOLD', 'self_deception_index', 'top reasons'];
  const rows = Object.entries(stats)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([model, s]) => [
      model,
      String(s.decisions),
      String(s.ACCEPT),
      String(s.REJECT),
      String(s.HOLD),
      s.self_deception_index.toFixed(3),
      Object.entries(s.by_reason)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 3)
        .map(([c, n]) => `${c}×${n}`)
        .join(' ') || '-',
    ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...rows.map(fmt)].join('\n') + '\n';
}
