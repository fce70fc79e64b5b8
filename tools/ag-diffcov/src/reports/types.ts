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

/**
 * One kept file of a report: the hits of each line it knows, and what else the report says of
 * those lines.
 */
export interface ReportEntry {
  readonly path: ReportPath;
  readonly lines: LineHits;
  /**
   * Lines with hits > 0 on which, in every record that ran them, a branch block the report
   * says never ran, or a function it says was never called, begins (lcov `BRDA`/`FN`+`FNDA`):
   * the line ran only in part. Absent: the format says nothing of it.
   */
  readonly partial?: Set<number>;
  /** Lines the report itself says it excluded (coverage.py's `excluded_lines`). */
  readonly excluded?: Set<number>;
}

/** A report as read: the kept files (keyed by normalised path) and how many files it named. */
export interface ReportData {
  readonly format: CoverageFormat;
  readonly files: Map<string, ReportEntry>;
  /** Every file record in the report, kept or not. */
  readonly fileCount: number;
}

/** Collects the kept files of one report, merging repeated records of a file (max hits per line). */
export class ReportCollector {
  readonly files = new Map<string, ReportEntry>();
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

  /**
   * Start a file record whose runs are merged by {@link mergeRun} (lcov: a line's branch
   * records are known only at the record's end); returns the file's entry when kept, else null.
   */
  openEntry(p: ReportPath): (ReportEntry & { readonly partial: Set<number> }) | null {
    this.fileCount++;
    const known = this.files.get(p.key);
    if (known !== undefined) {
      if (known.partial === undefined) throw new Error('internal error: a file record opened two ways');
      return known as ReportEntry & { readonly partial: Set<number> };
    }
    if (!this.wants(p)) return null;
    const entry = { path: p, lines: new Map<number, number>(), partial: new Set<number>() };
    this.files.set(p.key, entry);
    return entry;
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

/**
 * Merge one run of a file (a record's line hits, and the lines of it that ran only in part)
 * into what is known of the file: hits by maximum; a line stays "in part" only while every run
 * that ran it ran it in part (a run that ran it whole clears it).
 */
export function mergeRun(
  into: { readonly lines: LineHits; readonly partial: Set<number> },
  lines: ReadonlyMap<number, number>,
  partial: ReadonlySet<number> | undefined,
): void {
  for (const [line, hits] of lines) {
    const prev = into.lines.get(line);
    if (hits > 0) {
      if (partial === undefined || !partial.has(line)) into.partial.delete(line);
      else if (prev === undefined || prev === 0) into.partial.add(line);
    }
    if (prev === undefined || hits > prev) into.lines.set(line, hits);
  }
}
