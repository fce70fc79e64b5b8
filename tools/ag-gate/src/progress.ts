/**
 * One line per stage on stderr as it starts and as it ends, with its time, so a user sees
 * where a run of minutes is; nothing with `--quiet`. No colour is ever written.
 * @module
 */

/** The stages of a whole run, in order. */
export const STAGES = [
  'export',
  'oracle',
  'detect',
  'install',
  'run',
  'coverage',
  'mutate',
  'checks',
  'decide',
] as const;
export type Stage = (typeof STAGES)[number];

/** One stage's time, as kept in the evidence (`stages.tsv`). */
export interface StageTime {
  readonly stage: Stage;
  readonly seconds: number;
  readonly result: string;
}

/** Stage lines for one run, and each stage's time. */
export class Progress {
  /** Every stage that ended, in order (a stage run twice, as the install, is listed twice). */
  readonly times: StageTime[] = [];

  constructor(
    private readonly who: string,
    private readonly quiet: boolean,
    private readonly write: (line: string) => void = (line) => process.stderr.write(line),
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Say `stage` starts (`what`: a few words); returns the function that says it ended. */
  start(stage: Stage, what: string): (result?: string) => void {
    const began = this.now();
    const n = `[${STAGES.indexOf(stage) + 1}/${STAGES.length}]`;
    this.say(`${n} ${stage}: ${what}`);
    return (result = 'done') => {
      const seconds = (this.now() - began) / 1000;
      this.times.push({ stage, seconds, result });
      this.say(`${n} ${stage}: ${result} (${seconds.toFixed(1)} s)`);
    };
  }

  /** Say one line (not a stage): what was skipped and why. */
  say(text: string): void {
    if (!this.quiet) this.write(`${this.who}: ${text}\n`);
  }
}

/** The stages' times as a tab-separated table (stage, seconds, result), the first line its header. */
export function stagesTable(times: readonly StageTime[]): string {
  const rows = times.map((t) => `${t.stage}\t${t.seconds.toFixed(3)}\t${t.result.replace(/[\t\n]/g, ' ')}`);
  return `stage\tseconds\tresult\n${rows.map((r) => `${r}\n`).join('')}`;
}
