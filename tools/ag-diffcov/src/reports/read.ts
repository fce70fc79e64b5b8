/**
 * Read one coverage report of any supported format: detect the format by content (or take
 * the one given), stream text and XML formats, load JSON formats through the strict loader.
 * @module
 */
import { InputError } from '@adversary-gate/core';
import { loadJson, sha256, type CoverageFormat } from '@adversary-gate/schemas';
import * as v from 'valibot';
import { detectFormat, peekFile } from './detect.js';
import { LcovParser } from './lcov.js';
import { openReport } from './report-file.js';
import type { ReportData, WantsPath } from './types.js';

/** The `--format` values: a format, or `auto` to recognise each report by its content. */
export type FormatChoice = CoverageFormat | 'auto';

/** Largest JSON report accepted (they are parsed whole by the strict loader). */
export const MAX_JSON_REPORT_BYTES = 512 * 1024 * 1024;

/** A report as read, with the digest of the bytes that were parsed. */
export interface ReadReport {
  readonly data: ReportData;
  readonly sha256: `sha256:${string}`;
}

interface StreamParser {
  write(chunk: Buffer): void;
  end(): ReportData;
}

type MakeParser = (file: string, wants: WantsPath) => StreamParser;

// XML and JSON readers load on first use: the XML parser alone costs more start-up time than an lcov run.
const STREAMED: Partial<Record<CoverageFormat, () => Promise<MakeParser>>> = {
  lcov: async () => (file, wants) => new LcovParser(file, wants),
  cobertura: async () => {
    const { CoberturaParser } = await import('./cobertura.js');
    return (file, wants) => new CoberturaParser(file, wants);
  },
  jacoco: async () => {
    const { JacocoParser } = await import('./jacoco.js');
    return (file, wants) => new JacocoParser(file, wants);
  },
  go: async () => {
    const { GoParser } = await import('./go.js');
    return (file, wants) => new GoParser(file, wants);
  },
};

async function readStreamed(file: string, make: MakeParser, wants: WantsPath): Promise<ReadReport> {
  const report = await openReport(file);
  const parser = make(file, wants);
  for await (const chunk of report.chunks()) parser.write(chunk);
  const data = parser.end();
  return { data, sha256: report.digest() };
}

async function readJson(file: string, expected: CoverageFormat | null, wants: WantsPath): Promise<ReadReport> {
  const { bytes, value } = await loadJson(file, v.record(v.string(), v.unknown()), MAX_JSON_REPORT_BYTES);
  const [{ looksCoveragePy, readCoveragePy }, { looksIstanbul, readIstanbul }, { looksLlvm, readLlvm }] =
    await Promise.all([import('./coveragepy.js'), import('./istanbul.js'), import('./llvm.js')]);
  const format: CoverageFormat | null =
    expected ??
    (looksLlvm(value) ? 'llvm' : looksCoveragePy(value) ? 'coveragepy' : looksIstanbul(value) ? 'istanbul' : null);
  const digest = sha256(bytes);
  switch (format) {
    case 'llvm':
      return { data: readLlvm(file, value, wants), sha256: digest };
    case 'coveragepy':
      return { data: readCoveragePy(file, value, wants), sha256: digest };
    case 'istanbul':
      return { data: readIstanbul(file, value, wants), sha256: digest };
    default:
      throw new InputError(file, 'is JSON but not an istanbul, coverage.py or llvm-cov export report');
  }
}

/**
 * Read a report, keeping only the files `wants` accepts.
 * @throws InputError or LoadError (exit 3) when the report cannot be read as the format
 */
export async function readReport(file: string, choice: FormatChoice, wants: WantsPath): Promise<ReadReport> {
  const format = choice === 'auto' ? detectFormat(file, await peekFile(file)) : choice;
  const streamed = format === 'json' ? undefined : STREAMED[format];
  if (streamed !== undefined) return readStreamed(file, await streamed(), wants);
  return readJson(file, format === 'json' ? null : format, wants);
}
