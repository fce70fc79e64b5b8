/**
 * Temporary directories for the tests, removed when the test file is done.
 */
import { removeTempDirs as removeAll, tempDir as makeTempDir } from '../../../ag-core/test/support/git-repo.js';

/** A fresh directory under the system's temporary directory, removed by {@link removeTempDirs}. */
export function tempDir(prefix: string): string {
  return makeTempDir(`ag-oracle-${prefix}`);
}

/** Remove every directory {@link tempDir} made (call from `test.after.always`). */
export const removeTempDirs = removeAll;
