/**
 * Tiny real git repositories for end-to-end tests: a baseline commit, a patch commit,
 * and `git diff` between them written to a file beside the repository.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitPair } from '../../../ag-core/test/support/git-repo.js';

export const BIN = fileURLToPath(new URL('../../bin/ag-mutate.js', import.meta.url));
/** The workspace's node_modules (typescript lives there). */
export const WORKSPACE_MODULES = fileURLToPath(new URL('../../../../node_modules', import.meta.url));

export type Files = Record<string, string | null | { readonly symlink: string }>;

export interface Repo {
  readonly root: string;
  readonly tree: string;
  readonly diff: string;
  file(name: string): string;
  cleanup(): void;
}

/** Build a repository: `base` committed, then `patch` (null deletes a file) committed; diff written. */
export function makeRepo(base: Files, patch: Files, opts: { linkModules?: boolean } = {}): Repo {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-test-'));
  const tree = path.join(root, 'tree');
  const links: Files = opts.linkModules
    ? { node_modules: { symlink: WORKSPACE_MODULES }, '.gitignore': 'node_modules\ndist\n' }
    : {};
  const pair = commitPair(tree, { ...base, ...links }, patch);
  const diff = path.join(root, 'changes.diff');
  writeFileSync(diff, pair.diff);
  return {
    root,
    tree,
    diff,
    file: (name) => path.join(root, name),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The flags every run of a repository starts with: its diff, its tree, the test command. */
export function repoArgs(repo: Repo, command: string): string[] {
  return ['--diff', repo.diff, '--tree', repo.tree, '--test-command', command];
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
