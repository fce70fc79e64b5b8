import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitPair, tempDir as makeTempDir } from '../../../ag-core/test/support/git-repo.js';

/** The real binary (after `tsc`). */
export const BIN = fileURLToPath(new URL('../../bin/ag-diffcov.js', import.meta.url));

/** A scratch directory, removed when the test process exits. */
export function tempDir(): string {
  return makeTempDir('ag-diffcov');
}

/**
 * A tiny git repository: a baseline commit, then a patch commit; returns the tree (at the
 * patch) and the `git diff` between them written to `patch.diff` beside it.
 */
export function gitRepo(
  baseline: Record<string, string>,
  patch: Record<string, string | null>,
): { dir: string; tree: string; diff: string } {
  const dir = tempDir();
  const tree = path.join(dir, 'repo');
  const pair = commitPair(tree, baseline, patch);
  const diff = path.join(dir, 'patch.diff');
  writeFileSync(diff, pair.diff);
  return { dir, tree, diff };
}

/** Run the binary (asynchronously, so tests overlap). */
export function run(
  args: readonly string[],
  opts: { cwd?: string; input?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { encoding: 'utf8', cwd: opts.cwd, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
      },
    );
    child.stdin?.end(opts.input ?? '');
  });
}
