/**
 * Tiny real git repositories for end-to-end tests: a baseline commit, a patch commit,
 * and `git diff` between them written to a file beside the repository.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/ag-mutate.js', import.meta.url));
/** The workspace's node_modules (typescript lives there). */
export const WORKSPACE_MODULES = fileURLToPath(new URL('../../../../node_modules', import.meta.url));

export type Files = Record<string, string | null>;

export interface Repo {
  readonly root: string;
  readonly tree: string;
  readonly diff: string;
  file(name: string): string;
  cleanup(): void;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args],
    { cwd, encoding: 'utf8' },
  );
}

function put(tree: string, files: Files): void {
  for (const [name, text] of Object.entries(files)) {
    const full = path.join(tree, name);
    if (text === null) rmSync(full, { force: true });
    else {
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, text);
    }
  }
}

/** Build a repository: `base` committed, then `patch` (null deletes a file) committed; diff written. */
export function makeRepo(base: Files, patch: Files, opts: { linkModules?: boolean } = {}): Repo {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-test-'));
  const tree = path.join(root, 'tree');
  mkdirSync(tree);
  git(tree, 'init', '-q');
  put(tree, base);
  if (opts.linkModules) {
    symlinkSync(WORKSPACE_MODULES, path.join(tree, 'node_modules'));
    writeFileSync(path.join(tree, '.gitignore'), 'node_modules\ndist\n');
  }
  git(tree, 'add', '-A');
  git(tree, 'commit', '-q', '-m', 'base', '--allow-empty');
  put(tree, patch);
  git(tree, 'add', '-A');
  git(tree, 'commit', '-q', '-m', 'patch', '--allow-empty');
  const diff = path.join(root, 'changes.diff');
  writeFileSync(diff, git(tree, 'diff', '--no-color', 'HEAD~1', 'HEAD'));
  return {
    root,
    tree,
    diff,
    file: (name) => path.join(root, name),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Run the real binary (asynchronously, so tests overlap). */
export function runBin(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
