/**
 * Temporary directories for the tests, removed when the test file is done.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

/** A fresh directory under the system's temporary directory, removed by {@link removeTempDirs}. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `ag-oracle-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Remove every directory {@link tempDir} made (call from `test.after.always`). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
