/**
 * The neutral edit: every changed file with a comment appended, so its bytes change and its
 * behaviour does not. A suite that fails on it tells source bytes apart, not behaviour (a
 * test that pins a file's checksum, or one that only "works" on the patch's exact file), and
 * would kill every mutant for a reason that has nothing to do with the mutation: its kills
 * prove nothing, so strength is not measured.
 * @module
 */
import type { ProcessResult } from '@adversary-gate/core';
import { passed } from './outcome.js';
import type { Workspace } from './workspace.js';

/** The text of a file with a behaviour-neutral comment appended (a `#` comment for Python, a block comment otherwise). */
export function neutralEdit(file: string, text: string): string {
  const sep = text.endsWith('\n') ? '' : '\n';
  return /\.pyw?$/.test(file)
    ? `${text}${sep}# adversary-gate: a behaviour-neutral edit\n`
    : `${text}${sep}/* adversary-gate: a behaviour-neutral edit */\n`;
}

/** Every changed file's text with the neutral edit. */
export function neutrallyEdited(texts: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...texts].map(([file, text]) => [file, neutralEdit(file, text)]));
}

/**
 * Run `command` once in copy `i` with every changed file neutrally edited (and `extra` in its
 * environment: the recording rides on the edited run; `written`, the edited texts with the
 * recording's own additions, when it has some); the copy is restored after.
 */
export async function runNeutral(
  ws: Workspace,
  i: number,
  command: string,
  texts: ReadonlyMap<string, string>,
  timeoutMs: number,
  extra: Record<string, string> = {},
  written: ReadonlyMap<string, string> = neutrallyEdited(texts),
): Promise<ProcessResult> {
  const copy = ws.copies[i]!;
  for (const [file, text] of written) copy.write(file, text);
  try {
    return await ws.run(i, command, timeoutMs, extra);
  } finally {
    for (const file of texts.keys()) copy.restoreFile(file);
    copy.restore();
  }
}

/**
 * Run the whole test command once in copy 0 with every changed file neutrally edited.
 * @returns true when the suite still passes
 */
export async function survivesNeutralEdit(
  ws: Workspace,
  command: string,
  texts: ReadonlyMap<string, string>,
  timeoutMs: number,
): Promise<boolean> {
  return passed(await runNeutral(ws, 0, command, texts, timeoutMs));
}
