// The cases' git repositories: the demo project's baseline (plus the case's own baseline
// files) as one commit, then the agent's commit on top. Unlike the demo's builder, a file
// may also be a symbolic link, which some attacks need.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../e2e/helpers.js';

/** One file of a tree: its text, a symbolic link, or null to delete it. */
export type FileSpec = string | null | { readonly symlink: string };
/** Files to put into a tree, by repository path. */
export type Files = Readonly<Record<string, FileSpec>>;

/** Write (or delete, or link) files under `dir`. */
export function putTree(dir: string, files: Files): void {
  for (const [rel, spec] of Object.entries(files)) {
    const full = path.join(dir, rel);
    rmSync(full, { force: true });
    if (spec === null) continue;
    mkdirSync(path.dirname(full), { recursive: true });
    if (typeof spec === 'string') writeFileSync(full, spec);
    else symlinkSync(spec.symlink, full);
  }
}

/**
 * A temporary git repository on `main` with two commits: `project`'s demo baseline plus
 * `base`, then `patch` on top (the agent's commit). Returns its directory.
 */
export function buildCaseRepo(project: 'js' | 'py', base: Files, patch: Files, message: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `ag-adv-${project}-`));
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=adv', '-c', 'user.email=adv@example.invalid', '-c', 'core.autocrlf=false', ...args],
      { cwd: dir, stdio: 'pipe' },
    );
  cpSync(path.join(ROOT, 'pipelines/demo/projects', project, 'base'), dir, { recursive: true });
  putTree(dir, base);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'baseline');
  putTree(dir, patch);
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', message);
  return dir;
}
