/**
 * A changed file as the diff model holds it, with no lines: for tests of rules that read only
 * paths and statuses.
 * @module
 */
import type { ChangedFile } from '../../src/index.js';

/** `status` at `p`; `oldPath` defaults to `p` (null for an added file). */
export function changedFile(status: ChangedFile['status'], p: string, oldPath: string | null = p): ChangedFile {
  return {
    path: p,
    oldPath: status === 'added' ? null : oldPath,
    status,
    binary: false,
    modeOnly: false,
    addedLines: [],
    addedText: [],
    deletedLines: [],
    deletedText: [],
  };
}
