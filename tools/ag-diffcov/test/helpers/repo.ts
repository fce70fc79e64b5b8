import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real binary (after `tsc`). */
export const BIN = fileURLToPath(new URL('../../bin/ag-diffcov.js', import.meta.url));

const created: string[] = [];
process.on('exit', () => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

/** A scratch directory, removed when the test process exits. */
export function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-diffcov-'));
  created.push(dir);
  return dir;
}

function writeTree(dir: string, files: Record<string, string | null>): void {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel);
    if (text === null) rmSync(file, { force: true });
    else {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
  }
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
  mkdirSync(tree);
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      [
        '-c',
        'user.name=t',
        '-c',
        'user.email=t@example.com',
        '-c',
        'commit.gpgsign=false',
        '-c',
        'core.quotepath=true',
        ...args,
      ],
      { cwd: tree, encoding: 'utf8' },
    );
  git('init', '-q');
  writeTree(tree, baseline);
  git('add', '-A');
  git('commit', '-q', '-m', 'baseline');
  writeTree(tree, patch);
  git('add', '-A');
  git('commit', '-q', '-m', 'patch');
  const diff = path.join(dir, 'patch.diff');
  writeFileSync(diff, git('diff', 'HEAD~1', 'HEAD'));
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
