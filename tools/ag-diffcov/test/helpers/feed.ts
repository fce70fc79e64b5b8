import type { ReportData, WantsPath } from '../../src/reports/types.js';

/** Any streaming parser. */
export interface Streaming {
  write(chunk: Buffer): void;
  end(): ReportData;
}

/** Feed `text` to a parser cut at the given offsets (each chunk in a reused buffer, as the file reader does). */
export function feed(parser: Streaming, text: string | Buffer, cuts: readonly number[] = []): ReportData {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const points = [...new Set([0, ...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length])].sort(
    (a, b) => a - b,
  );
  const scratch = Buffer.alloc(bytes.length + 1);
  for (let i = 0; i + 1 < points.length; i++) {
    const part = bytes.subarray(points[i], points[i + 1]);
    part.copy(scratch);
    parser.write(scratch.subarray(0, part.length));
    scratch.fill(0x23);
  }
  return parser.end();
}

/** Keep every file. */
export const all: WantsPath = () => true;

/** File key → sorted [line, hits] pairs, for comparisons. */
export function table(data: ReportData): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  for (const [key, entry] of data.files) out[key] = [...entry.lines].sort((a, b) => a[0] - b[0]);
  return out;
}
