// The cases' git repositories: the demo project's baseline (plus the case's own baseline
// files) as one commit, then the agent's commit on top. Unlike the demo's builder, a file
// may also be a symbolic link, which some attacks need.
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commitPair, type Files } from '../../tools/ag-core/test/support/git-repo.js';
import { ROOT } from '../e2e/helpers.js';

export type { Files };

/**
 * A temporary git repository on `main` with two commits: `project`'s demo baseline plus
 * `base`, then `patch` on top (the agent's commit). Returns its directory.
 */
export function buildCaseRepo(project: 'js' | 'py', base: Files, patch: Files, message: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `ag-adv-${project}-`));
  cpSync(path.join(ROOT, 'pipelines/demo/projects', project, 'base'), dir, { recursive: true });
  commitPair(dir, base, patch, { message });
  return dir;
}
