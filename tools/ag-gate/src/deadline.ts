/**
 * One deadline for a whole run: past it, the stage running is stopped, no later stage that
 * runs the patch's code starts, and the verdict (a HOLD) names the stage it stopped. ag-decide
 * and its check always run, so a run always ends with a verdict.
 * @module
 */

/** The deadline of one run. */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  /** The stage running when the deadline passed (null while it has not). */
  stoppedIn: string | null = null;
  private current = 'export';
  private readonly started = Date.now();
  private stoppedAt: number | null = null;

  /** `seconds`, and where it came from (`--deadline`/`AG_DEADLINE`, or the default and how it was derived). */
  constructor(
    readonly seconds: number,
    readonly source: string = 'given',
  ) {
    this.timer = setTimeout(() => {
      this.stoppedIn = this.current;
      this.controller.abort();
    }, seconds * 1000);
    this.timer.unref();
  }

  /** Aborted when the deadline passes: give it to every run of a tool or of the patch's code. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the deadline has passed. */
  get passed(): boolean {
    return this.controller.signal.aborted;
  }

  /** Note the stage that runs now (the one named if the deadline passes during it). */
  enter(stage: string): void {
    this.current = stage;
  }

  /** Stop the clock (the run is deciding). */
  stop(): void {
    clearTimeout(this.timer);
    this.stoppedAt ??= Date.now();
  }

  /**
   * Which deadline applied and what became of it, in one sentence for the summary and
   * verdict.md: stated whether or not it passed, so a reader knows the bound every run had.
   */
  statement(): string {
    const used = Math.round(((this.stoppedAt ?? Date.now()) - this.started) / 1000);
    const end =
      this.stoppedIn === null
        ? `not passed: the stages up to the checks took ${used} s`
        : `passed during the ${this.stoppedIn} stage, which was stopped`;
    return `the gate's deadline was ${this.seconds} s (${this.source}): ${end}`;
  }

  /** The fault line when the deadline passed, else null. */
  fault(): string | null {
    return this.stoppedIn === null
      ? null
      : `the gate's deadline of ${this.seconds} s passed during the ${this.stoppedIn} stage: it was stopped, and no later stage that runs the patch's code ran`;
  }
}
