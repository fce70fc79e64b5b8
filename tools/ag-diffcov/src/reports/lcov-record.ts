/**
 * One kept lcov `SF:` record's branch and function records, and the rule that folds them
 * into its lines: where a line's `DA` says it ran and a branch block or a function that the
 * same record says never ran begins on it, the line ran only in part (the conservative
 * record counts; ag-diffcov then counts the line uncovered, see `measure/count.ts`).
 *
 * Why this rule, from the format: lcov's `BRDA:<line>,<block>,<branch>,<taken>` puts a block
 * on the line where it begins (geninfo, istanbul's lcov reporter: the start of the branch's
 * location; Node's own reporter and c8: the start line of a V8 block range), and its `taken`
 * is `-` or `0` when the block never ran; `FN:<line>,<name>` puts a function on the line
 * where it begins, `FNDA:0,<name>` says it was never called. V8-based reports (Node's
 * `--experimental-test-coverage`, c8) count a line as run unless one never-run range covers
 * the whole line, so a line where an unrun block begins after code that ran
 * (`if (x > 0) return 'pos'; const z = x - 1;`, a ternary's `: 'neg'` arm, a one-line
 * function never called) reads `DA:n,1` while its `BRDA` (or `FNDA`) says 0. A block whose
 * every branch is `-`/`0` (all of one `<block>` number on that line) shows that some code
 * beginning on that line never ran; a line with such a block, or with a never-called
 * function, is "in part" whatever its `DA`. Lines with no code of their own (`}`,
 * `} else {`, `} finally {`) are exempted at counting time, by their text.
 *
 * One writer puts `BRDA` elsewhere: coverage.py (6.x) writes a branch at the line it jumps
 * to, `-` when that jump never happened, and numbers blocks by the line they leave (so one
 * block's branches sit on several lines, an exit on line 0). A jump not taken into a line
 * that ran by another way says nothing of that line, so a block counts as never run only
 * when no branch of it, on any line, was taken (a block id reused on several lines by
 * geninfo is then judged as one: fewer lines marked, never more).
 * @module
 */
import type { LineHits } from './types.js';

/** The branch and function records of one lcov record, as read. */
export class LcovRecordBranches {
  /** `<line>\0<block>` → true while every branch of the block read so far on that line never ran. */
  private readonly blocks = new Map<string, boolean>();
  /** Blocks with a branch taken on any line. */
  private readonly taken = new Set<string>();
  /** Function name → the lines it is declared on (several when a name repeats). */
  private readonly fnLines = new Map<string, number[]>();
  /** Names with an `FNDA` count of 0 (or one that could not be read). */
  private readonly fnUnrun = new Set<string>();

  /**
   * A `BRDA` record's text after `BRDA:`. Its line must read (else the record is stepped
   * over, as lcov tags this reader does not need always were); a `taken` that is neither `-`
   * nor a count reads as never taken (a branch record that cannot be read counts against).
   */
  branch(rest: string): void {
    const m = /^(\d{1,15}),(.*)$/.exec(rest);
    if (m === null) return;
    const line = Number(m[1]);
    const fields = m[2]!;
    const lastComma = fields.lastIndexOf(',');
    const taken = lastComma === -1 ? '' : fields.slice(lastComma + 1);
    const firstComma = fields.indexOf(',');
    const block = firstComma === -1 ? fields : fields.slice(0, firstComma);
    const ran = /^\d+$/.test(taken) && /[1-9]/.test(taken);
    if (ran) this.taken.add(block);
    if (line <= 0) return;
    const key = `${line}\0${block}`;
    const prev = this.blocks.get(key);
    this.blocks.set(key, (prev ?? true) && !ran);
  }

  /** An `FN` record's text after `FN:` (`<line>,<name>`, or lcov 2's `<line>,<end>,<name>`). */
  fn(rest: string): void {
    const m = /^(\d{1,15}),(.*)$/.exec(rest);
    if (m === null) return;
    const line = Number(m[1]);
    if (line <= 0) return;
    const names = [m[2]!];
    const lcov2 = /^\d+,(.*)$/.exec(m[2]!);
    if (lcov2 !== null) names.push(lcov2[1]!);
    for (const name of names) {
      const list = this.fnLines.get(name) ?? [];
      list.push(line);
      this.fnLines.set(name, list);
    }
  }

  /** An `FNDA` record's text after `FNDA:` (`<count>,<name>`). */
  fnda(rest: string): void {
    const comma = rest.indexOf(',');
    if (comma === -1) return;
    const count = rest.slice(0, comma);
    if (!(/^\d+$/.test(count) && /[1-9]/.test(count))) this.fnUnrun.add(rest.slice(comma + 1));
  }

  /** The lines of `lines` (this record's `DA` hits) that ran (hits > 0) only in part. */
  partOf(lines: LineHits): Set<number> {
    const out = new Set<number>();
    const mark = (line: number) => {
      const hits = lines.get(line);
      if (hits !== undefined && hits > 0) out.add(line);
    };
    for (const [key, unrun] of this.blocks) {
      const at = key.indexOf('\0');
      if (unrun && !this.taken.has(key.slice(at + 1))) mark(Number(key.slice(0, at)));
    }
    for (const name of this.fnUnrun) for (const line of this.fnLines.get(name) ?? []) mark(line);
    return out;
  }
}
