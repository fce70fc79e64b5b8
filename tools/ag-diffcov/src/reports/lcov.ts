/**
 * lcov tracefile reader, streamed. Line coverage comes from `DA:` records (the rule
 * diff-cover 7.4.0 follows); a kept record's `BRDA`, `FN` and `FNDA` records only mark the
 * lines that ran in part (`lcov-record.ts`), they never make a line run. Records of files the
 * diff does not touch are skipped without being parsed.
 * @module
 */
import { InputError } from '@adversary-gate/core';
import { normaliseReportPath } from '../paths/normalise.js';
import { LcovRecordBranches } from './lcov-record.js';
import type { LcovScan } from './lcov-scan.js';
import { addHits, mergeRun, ReportCollector, type LineHits, type ReportData, type WantsPath } from './types.js';

const NEXT_SF = Buffer.from('\nSF:');
const SF = Buffer.from('SF:');
const EMPTY = Buffer.alloc(0);
const LINE_PREFIX = /^[A-Z]+:/;
const CR = 0x0d;
const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * The decimal number of `bytes[from, to)` when it is 1 to 15 ASCII digits (always a safe
 * integer), else -1.
 */
function digits(bytes: Buffer, from: number, to: number): number {
  if (to <= from || to - from > 15) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = bytes[i]! - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Does `bytes[from, to)` hold only printable ASCII (what `.` in the DA pattern surely matches)? */
function printable(bytes: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i]! < 0x20 || bytes[i]! > 0x7e) return false;
  return true;
}

/** Is `bytes[start, colon)` the tag `BRDA`, `FN` or `FNDA`? */
function branchTag(bytes: Buffer, start: number, colon: number): boolean {
  const tag = bytes.toString('latin1', start, colon);
  return tag === 'BRDA' || tag === 'FN' || tag === 'FNDA';
}

/** Incremental lcov parser: feed chunks, then `end()`; or parse a scan's records with {@link LcovParser.fromScan}. */
export class LcovParser {
  private readonly out: ReportCollector;
  /** Bytes of an unfinished line (in skip mode: a line start that may be the beginning of "SF:"). */
  private carry: Buffer = EMPTY;
  private atLineStart = false;
  private skipping = false;
  /** The kept record being read: its own line hits (merged into its file's entry at `end_of_record`). */
  private current: LineHits | null = null;
  private entry: { readonly lines: LineHits; readonly partial: Set<number> } | null = null;
  private branches: LcovRecordBranches | null = null;
  private currentName = '';
  private open = false;
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly file: string,
    wants: WantsPath,
  ) {
    this.out = new ReportCollector(wants);
  }

  private fail(problem: string): never {
    throw new InputError(this.file, problem);
  }

  private line(raw: string): void {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return;
    if (text.startsWith('DA:')) {
      if (!this.open) this.fail(`DA record outside any SF record: ${text}`);
      if (this.current === null) return;
      const m = /^DA:(\d+),(\d+)(?:,.*)?$/.exec(text);
      if (m === null) this.fail(`malformed DA record in ${this.currentName}: ${text}`);
      const line = Number(m[1]);
      const hits = Number(m[2]);
      if (!Number.isSafeInteger(line) || !Number.isSafeInteger(hits))
        this.fail(`number out of range in ${this.currentName}: ${text}`);
      if (line > 0) addHits(this.current, line, hits);
      return;
    }
    if (this.branches !== null) {
      if (text.startsWith('BRDA:')) return this.branches.branch(text.slice(5));
      if (text.startsWith('FN:')) return this.branches.fn(text.slice(3));
      if (text.startsWith('FNDA:')) return this.branches.fnda(text.slice(5));
    }
    if (text.startsWith('SF:')) {
      if (this.open) this.fail(`SF record ${text.slice(3)} starts before ${this.currentName} has end_of_record`);
      const name = text.slice(3);
      if (name === '') this.fail('SF record with an empty path');
      this.open = true;
      this.currentName = name;
      this.entry = this.out.openEntry(normaliseReportPath(name));
      if (this.entry === null) {
        this.open = false;
        this.skipping = true;
      } else {
        this.current = new Map();
        this.branches = new LcovRecordBranches();
      }
      return;
    }
    if (text === 'end_of_record') {
      if (!this.open) this.fail('end_of_record outside any SF record');
      if (this.entry !== null && this.current !== null && this.branches !== null)
        mergeRun(this.entry, this.current, this.branches.partOf(this.current));
      this.open = false;
      this.current = null;
      this.entry = null;
      this.branches = null;
      return;
    }
    if (!LINE_PREFIX.test(text)) this.fail(`not an lcov line: ${text.slice(0, 80)}`);
  }

  /**
   * One line given as bytes `[start, end)` (without its `\n`). The common lines are handled
   * on the bytes without decoding them: a well-formed `DA:<line>,<hits>` of a kept record,
   * and a tag this reader does not use (`LF:`, `BRH:`…; `BRDA:`, `FN:` and `FNDA:` outside a
   * kept record). Anything else, including a `DA` line these byte checks are not sure of,
   * goes through {@link line} and its checks.
   */
  private lineAt(bytes: Buffer, start: number, end: number): void {
    const e = end > start && bytes[end - 1] === CR ? end - 1 : end;
    let p = start;
    while (p < e && bytes[p]! >= 0x41 && bytes[p]! <= 0x5a) p++;
    if (p > start && p < e && bytes[p] === COLON) {
      const pair = p - start === 2 ? (bytes[start]! << 8) | bytes[start + 1]! : -1;
      if (pair === 0x4441 /* DA */) {
        if (this.current !== null && this.daAt(bytes, p + 1, e)) return;
      } else if (pair !== 0x5346 /* SF */ && !(this.branches !== null && branchTag(bytes, start, p))) {
        return;
      }
    }
    this.line(bytes.toString('utf8', start, end));
  }

  /** Record `<line>,<hits>[,<checksum>]` at `bytes[from, to)` into the current record; false when unsure (then {@link line} decides). */
  private daAt(bytes: Buffer, from: number, to: number): boolean {
    const comma = bytes.indexOf(COMMA, from);
    if (comma === -1 || comma >= to) return false;
    let hitsEnd = bytes.indexOf(COMMA, comma + 1);
    if (hitsEnd === -1 || hitsEnd > to) hitsEnd = to;
    else if (!printable(bytes, hitsEnd + 1, to)) return false;
    const line = digits(bytes, from, comma);
    const hits = digits(bytes, comma + 1, hitsEnd);
    if (line === -1 || hits === -1) return false;
    if (line > 0) addHits(this.current!, line, hits);
    return true;
  }

  /**
   * Parse the next chunk of bytes (the chunk may be reused by the caller afterwards).
   * Records of unwanted files are stepped over with a native search for the next `SF:`.
   */
  write(chunk: Buffer): void {
    this.tail = Buffer.concat([this.tail, chunk.subarray(-64)]).subarray(-64);
    let pos = 0;
    if (this.skipping && this.atLineStart) {
      // The previous chunk ended at a line start, possibly inside "SF:".
      const head = Buffer.concat([this.carry, chunk.subarray(0, SF.length - this.carry.length)]);
      const prefix = SF.subarray(0, head.length).equals(head);
      if (prefix && head.length < SF.length) {
        // Still too short to tell (a tiny chunk): keep waiting at this line start.
        this.carry = head;
        return;
      }
      this.atLineStart = false;
      if (prefix) this.skipping = false;
      else this.carry = EMPTY;
    }
    if (!this.skipping && this.carry.length > 0) {
      const nl = chunk.indexOf(10);
      if (nl === -1) {
        this.carry = Buffer.concat([this.carry, chunk]);
        return;
      }
      const joined = Buffer.concat([this.carry, chunk.subarray(0, nl)]);
      this.lineAt(joined, 0, joined.length);
      this.carry = EMPTY;
      pos = nl + 1;
    }
    while (pos < chunk.length) {
      if (this.skipping) {
        const at = chunk.indexOf(NEXT_SF, pos === 0 ? 0 : pos - 1);
        if (at !== -1) {
          pos = at + 1;
          this.skipping = false;
          continue;
        }
        const lastNl = chunk.lastIndexOf(10);
        const rest = chunk.subarray(lastNl + 1);
        if (lastNl >= pos - 1 && rest.length < SF.length && SF.subarray(0, rest.length).equals(rest)) {
          this.carry = Buffer.from(rest);
          this.atLineStart = true;
        } else this.carry = EMPTY;
        return;
      }
      const nl = chunk.indexOf(10, pos);
      if (nl === -1) {
        this.carry = Buffer.from(chunk.subarray(pos));
        return;
      }
      this.lineAt(chunk, pos, nl);
      pos = nl + 1;
    }
    // The chunk ended exactly at a line end.
    if (this.skipping) {
      this.carry = EMPTY;
      this.atLineStart = true;
    }
  }

  /**
   * Parse a report split into records by {@link createLcovScanner}: the head and every kept
   * record are parsed line by line with the same checks as the streaming parser; a record
   * ruled out by the scan is stepped over, as the streaming parser steps over a record it
   * does not want. The scan's candidate test must accept every path `wants` accepts.
   * @throws InputError on a malformed or truncated report
   */
  static fromScan(file: string, wants: WantsPath, scan: LcovScan): ReportData {
    const parser = new LcovParser(file, wants);
    parser.lines(scan.head);
    for (const record of scan.records) {
      if (record.bytes === null) {
        if (parser.open) parser.fail(`SF record ${record.name} starts before ${parser.currentName} has end_of_record`);
        parser.out.skip(record.count);
        parser.skipping = true;
        continue;
      }
      parser.skipping = false;
      parser.lines(record.bytes);
    }
    parser.tail = scan.tail;
    return parser.finish();
  }

  /** Parse whole lines of `bytes` until the end or until a record is skipped. */
  private lines(bytes: Buffer): void {
    let pos = 0;
    while (pos < bytes.length && !this.skipping) {
      let nl = bytes.indexOf(10, pos);
      if (nl === -1) nl = bytes.length;
      this.lineAt(bytes, pos, nl);
      pos = nl + 1;
    }
  }

  /** Finish: the last line, and refuse a file cut inside a record. */
  end(): ReportData {
    if (!this.skipping && this.carry.length > 0) this.lineAt(this.carry, 0, this.carry.length);
    return this.finish();
  }

  private finish(): ReportData {
    if (this.open) this.fail(`truncated: SF record ${this.currentName} has no end_of_record`);
    if (this.skipping && !/(^|\n)end_of_record\s*$/.test(this.tail.toString('latin1'))) {
      this.fail('truncated: the last record has no end_of_record');
    }
    return this.out.done('lcov');
  }
}
