/**
 * Go coverprofile reader (`go test -coverprofile`), streamed. Each block
 * `file.go:L1.C1,L2.C2 statements count` makes lines L1..L2 executable. Blocks listed
 * more than once (several test binaries) keep their largest count. A line is covered only
 * when every block touching it ran: a line shared by an executed and an unexecuted block
 * is partly unexecuted, and counts as uncovered.
 * @module
 */
import { InputError } from '@adversary-gate/core';
import { normaliseReportPath } from '../paths/normalise.js';
import { MAX_LINE, ReportCollector, type ReportData, type WantsPath } from './types.js';

const BLOCK = /^(.+):(\d+)\.(\d+),(\d+)\.(\d+) (\d+) (\d+)$/;

/** Incremental Go coverprofile parser: feed chunks, then `end()`. */
export class GoParser {
  private readonly out: ReportCollector;
  private carry = '';
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private lineNo = 0;
  private sawMode = false;
  /** file → block key → count */
  private readonly blocks = new Map<string, Map<string, number>>();
  private readonly wanted = new Map<string, boolean>();

  constructor(
    private readonly file: string,
    wants: WantsPath,
  ) {
    this.out = new ReportCollector(wants);
  }

  private fail(problem: string): never {
    throw new InputError(this.file, `line ${this.lineNo}: ${problem}`);
  }

  private line(raw: string): void {
    this.lineNo++;
    const text = raw.replace(/\r$/, '');
    if (text.trim() === '') return;
    if (!this.sawMode) {
      if (!/^mode:\s*(set|count|atomic)$/.test(text)) this.fail('expected "mode: set|count|atomic"');
      this.sawMode = true;
      return;
    }
    if (text.startsWith('mode:')) return; // concatenated profiles repeat the header
    const m = BLOCK.exec(text);
    if (m === null) this.fail(`not a coverprofile block: ${text.slice(0, 80)}`);
    const name = m[1]!;
    let keep = this.wanted.get(name);
    if (keep === undefined) {
      keep = this.out.open(normaliseReportPath(name)) !== null;
      this.wanted.set(name, keep);
    }
    if (!keep) return;
    const [l1, c1, l2, c2, count] = [m[2], m[3], m[4], m[5], m[7]].map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    if (![l1, c1, l2, c2, count].every(Number.isSafeInteger) || l1 < 1 || l2 < l1 || l2 > MAX_LINE)
      this.fail(`block out of range: ${JSON.stringify(text.slice(0, 80))}`);
    let fileBlocks = this.blocks.get(name);
    if (fileBlocks === undefined) this.blocks.set(name, (fileBlocks = new Map()));
    const key = `${l1}.${c1},${l2}.${c2}`;
    fileBlocks.set(key, Math.max(fileBlocks.get(key) ?? 0, count));
  }

  /** Parse the next chunk of bytes. */
  write(chunk: Buffer): void {
    let text: string;
    try {
      text = this.carry + this.decoder.decode(chunk, { stream: true });
    } catch {
      throw new InputError(this.file, 'not valid UTF-8');
    }
    const parts = text.split('\n');
    this.carry = parts.pop()!;
    for (const p of parts) this.line(p);
  }

  /** Finish: turn blocks into line hits. */
  end(): ReportData {
    if (this.carry !== '') this.line(this.carry);
    if (!this.sawMode) throw new InputError(this.file, 'is empty, not a Go coverprofile');
    for (const [name, fileBlocks] of this.blocks) {
      const lines = this.out.open(normaliseReportPath(name));
      if (lines === null) continue;
      this.out.fileCount--;
      for (const [key, count] of fileBlocks) {
        const [l1, l2] = key.split(',').map((s) => Number(s.split('.')[0])) as [number, number];
        for (let l = l1; l <= l2; l++) {
          const prev = lines.get(l);
          lines.set(l, prev === undefined ? count : count === 0 || prev === 0 ? 0 : Math.max(prev, count));
        }
      }
    }
    // fileCount counts distinct files named, not blocks.
    this.out.fileCount = this.wanted.size;
    return this.out.done('go');
  }
}
