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

  constructor(readonly seconds: number) {
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
  }

  /** The fault line when the deadline passed, else null. */
  fault(): string | null {
    return this.stoppedIn === null
      ? null
      : `the gate's deadline of ${this.seconds} s passed during the ${this.stoppedIn} stage: it was stopped, and no later stage that runs the patch's code ran`;
  }
}
