/**
 * The steps the pipeline could not do (an install that failed, no runner found): said on
 * stderr, kept one line each in `pipeline-faults.txt`, and each given to ag-decide as
 * `--pipeline-fault`, so the verdict (a HOLD) names the step and what it printed.
 * @module
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A line that says what went wrong (not a stack frame). */
const ERROR_LINE = /\b(?:error|failed|fatal|cannot|can't|not found|no such|denied|refused|invalid)\b|\bERR!/i;
const STACK_FRAME = /^\s*at\s|^\s*\^+\s*$|^\s*$|^Node\.js v\d/;

/** The largest end of a log searched for a tool's own message. */
const MAX_LOG_END = 4 * 1024 * 1024;

/** The last 4 MiB of a log as text (`` when it cannot be read): where a failed tool says why. */
export function logEnd(log: string): string {
  try {
    const data = readFileSync(log);
    return data.subarray(Math.max(0, data.length - MAX_LOG_END)).toString('utf8');
  } catch {
    return '';
  }
}

/**
 * The last `n` lines of a log, folded into one line (empty when there is none). When those
 * lines are a stack trace, the last line before them that says what went wrong comes first:
 * a tool's own message, not the frames of the program that printed it.
 */
export function logTail(log: string | undefined, n = 3): string {
  if (log === undefined || !existsSync(log)) return '';
  const lines = readFileSync(log, 'utf8').split('\n');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const tail = lines.slice(-n);
  const fold = (ls: readonly string[]) =>
    ls
      .join(' ')
      .replace(/[\s\r]+/g, ' ')
      .trim();
  if (tail.some((l) => ERROR_LINE.test(l) && !STACK_FRAME.test(l))) return fold(tail);
  const said = lines
    .slice(0, -n)
    .reverse()
    .find((l) => ERROR_LINE.test(l) && !STACK_FRAME.test(l));
  return said === undefined ? fold(tail) : `${fold([said])} … ${fold(tail)}`;
}

/** The faults of one run, kept in `dir`. */
export class PipelineFaults {
  readonly file: string;
  constructor(
    dir: string,
    private readonly who: string,
  ) {
    this.file = path.join(dir, 'pipeline-faults.txt');
  }

  /** Keep one fault: `text`, followed by the last lines of `log` when it has any. */
  add(text: string, log?: string): void {
    const tail = logTail(log);
    const line = (tail === '' ? text : `${text}: ${tail}`).replace(/[\r\n]+/g, ' ');
    process.stderr.write(`${this.who}: ${line} (HOLD)\n`);
    appendFileSync(this.file, `${line}\n`);
  }

  /** Every fault kept, one line each. */
  lines(): string[] {
    if (!existsSync(this.file)) return [];
    return readFileSync(this.file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
  }
}
