/**
 * Typed errors and the exit codes they map to. One boundary per binary turns them into
 * a single stderr line and an exit code; nothing else sets an exit code.
 * @module
 */

/** Exit codes shared by every tool (DESIGN.md vocabulary). */
export const EXIT = {
  /** ACCEPT, or a measuring tool that wrote its artefact. */
  OK: 0,
  /** REJECT: direct evidence of breakage or tampering (ag-decide only). */
  REJECT: 1,
  /** HOLD, or a tool that could not decide (an unexpected error). Never 0 or 1. */
  HOLD: 2,
  /** Bad arguments, or an input a measuring tool cannot read. */
  USAGE: 3,
} as const;

/** Bad arguments: exit 3. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** An input file the tool cannot read (it names the file): exit 3, nothing written. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}
