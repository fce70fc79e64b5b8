/**
 * How a revert mutant is named in messages, one way for ag-mutate's stderr and ag-decide's
 * reasons: its file and hunk, and the function it is in; a whole-file revert says so. Pure.
 * @module
 */

/** What the name reads of a revert record. */
export interface NamedRevert {
  readonly file: string;
  readonly hunk: string;
  readonly function?: string | null | undefined;
  readonly scope?: 'file' | undefined;
}

/** `src/a.js @@ -3 +3 @@ in f()`, or `src/a.js @@ -3,9 +3,8 @@ (every hunk of the file at once)`. */
export function revertName(r: NamedRevert): string {
  if (r.scope === 'file') return `${r.file} ${r.hunk} (every hunk of the file at once)`;
  return `${r.file} ${r.hunk}${r.function ? ` in ${r.function}()` : ''}`;
}
