/**
 * The steps the pipeline could not do (an install that failed, no runner found): said on
 * stderr, kept one line each in `pipeline-faults.txt`, and each given to ag-decide as
 * `--pipeline-fault`, so the verdict (a HOLD) names the step and what it printed.
 * @module
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The last `n` lines of a log, folded into one line (empty when there is none). */
export function logTail(log: string | undefined, n = 3): string {
  if (log === undefined || !existsSync(log)) return '';
  const lines = readFileSync(log, 'utf8').split('\n');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines
    .slice(-n)
    .join(' ')
    .replace(/[\s\r]+/g, ' ')
    .trim();
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
