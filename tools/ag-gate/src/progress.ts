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

/** Stage lines for one run. */
export class Progress {
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
    return (result = 'done') => this.say(`${n} ${stage}: ${result} (${((this.now() - began) / 1000).toFixed(1)} s)`);
  }

  /** Say one line (not a stage): what was skipped and why. */
  say(text: string): void {
    if (!this.quiet) this.write(`${this.who}: ${text}\n`);
  }
}
