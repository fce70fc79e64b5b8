/**
 * A changed file's baseline text, rebuilt from its patched text and the diff's hunks reversed:
 * the added lines taken out, the removed lines put back where the old side had them.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';

/**
 * The old side of `file` given its new side `text`; null for an added file, or when the diff
 * does not fit the text (a line count that cannot be the old side's).
 */
export function baselineText(text: string, file: ChangedFile): string | null {
  if (file.status === 'added' || file.oldPath === null) return null;
  const lines = text.split('\n');
  const added = new Set(file.addedLines);
  const kept = lines.filter((_, i) => !added.has(i + 1));
  const total = kept.length + file.deletedLines.length;
  const out: (string | undefined)[] = new Array<string | undefined>(total);
  for (let i = 0; i < file.deletedLines.length; i++) {
    const at = file.deletedLines[i]! - 1;
    if (at < 0 || at >= total) return null;
    out[at] = file.deletedText[i]!;
  }
  let next = 0;
  for (let i = 0; i < total; i++) if (out[i] === undefined) out[i] = kept[next++];
  return next === kept.length ? out.join('\n') : null;
}
