// Builds the demo's real git repositories: the project's baseline commit, then the agent's
// commit. A patch is a stack of overlay folders (projects/<project>/patches/<layer>/),
// applied in order, each replacing whole files; PATCHES names the stack of each patch.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The overlay stack of each patch, per project. */
export const PATCHES = {
  js: {
    clean: ['clean'],
    break: ['clean', 'break'],
    skip: ['clean', 'break', 'skip'],
    weak: ['clean', 'weak'],
    oracle: ['clean', 'oracle'],
  },
  py: { clean: ['clean'], break: ['clean', 'break'] },
};

/** Write files into a tree; a null content deletes the file. */
export function putFiles(dir, files) {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(dir, rel);
    if (content === null) rmSync(full, { force: true });
    else {
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, content);
    }
  }
}

/**
 * A temporary git repository with two commits on `main`: the project's baseline (plus
 * `baseFiles`), then the named patch's overlays (plus `patchFiles`). Returns its directory.
 */
export function buildDemoRepo(
  project,
  patch,
  { baseFiles = {}, patchFiles = {}, message = `agent patch: ${patch}` } = {},
) {
  const layers = patch === null ? [] : PATCHES[project]?.[patch];
  if (layers === undefined) throw new Error(`unknown demo patch ${project}/${patch}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), `ag-demo-${project}-`));
  const projectDir = path.join(here, 'projects', project);
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=demo', '-c', 'user.email=demo@example.invalid', ...args], {
      cwd: dir,
      stdio: 'pipe',
    });
  cpSync(path.join(projectDir, 'base'), dir, { recursive: true });
  putFiles(dir, baseFiles);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'baseline');
  for (const layer of layers) cpSync(path.join(projectDir, 'patches', layer), dir, { recursive: true });
  putFiles(dir, patchFiles);
  git('add', '-A');
  git('commit', '-q', '-m', message);
  return dir;
}
