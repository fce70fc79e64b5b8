/**
 * What every report reader produces: per report file, the hit count of each line it knows.
 * @module
 */
import type { CoverageFormat } from '@adversary-gate/schemas';
import type { ReportPath } from '../paths/normalise.js';

/** Line number → hits, for one file of one report. */
export type LineHits = Map<number, number>;

/**
 * No source file reaches this line. Readers that expand ranges (Go blocks, llvm-cov
 * segments) refuse a line beyond it: a report the patch's tests wrote could otherwise make
 * the reader walk 2^53 lines.
 */
export const MAX_LINE = 10_000_000;

/** Decides, while a report is read, which of its files are kept (only those the diff touches). */
export type WantsPath = (p: ReportPath) => boolean;

/** A report as read: the kept files (keyed by normalised path) and how many files it named. */
export interface ReportData {
  readonly format: CoverageFormat;
  readonly files: Map<string, { readonly path: ReportPath; readonly lines: LineHits }>;
  /** Every file record in the report, kept or not. */
  readonly fileCount: number;
}

/** Collects the kept files of one report, merging repeated records of a file (max hits per line). */
export class ReportCollector {
  readonly files = new Map<string, { readonly path: ReportPath; readonly lines: LineHits }>();
  fileCount = 0;

  constructor(private readonly wants: WantsPath) {}

  /** Start a file record; returns its line map when the file is kept, else null. */
  open(p: ReportPath): LineHits | null {
    this.fileCount++;
    const known = this.files.get(p.key);
    if (known !== undefined) return known.lines;
    if (!this.wants(p)) return null;
    const lines: LineHits = new Map();
    this.files.set(p.key, { path: p, lines });
    return lines;
  }

  /** Count `n` file records that are not kept (known beforehand not to be wanted). */
  skip(n = 1): void {
    this.fileCount += n;
  }

  /** The result for a format. */
  done(format: CoverageFormat): ReportData {
    return { format, files: this.files, fileCount: this.fileCount };
  }
}

/** Record hits for a line, keeping the maximum when the line appears again. */
export function addHits(lines: LineHits, line: number, hits: number): void {
  const prev = lines.get(line);
  if (prev === undefined || hits > prev) lines.set(line, hits);
}
