/**
 * Tiny real git repositories for end-to-end tests: a baseline commit, a patch commit, the diff.
 */
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunArtefact } from '@adversary-gate/schemas';

export const bin = fileURLToPath(new URL('../../bin/ag-run.js', import.meta.url));

export interface Repo {
  readonly dir: string;
  readonly baseline: string;
  readonly patch: string;
  readonly diff: string;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args],
    { cwd, stdio: 'pipe' },
  );

async function write(root: string, files: Readonly<Record<string, string | null>>) {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(root, rel);
    if (text === null) await fs.rm(file, { force: true });
    else {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, text);
    }
  }
}

const created: string[] = [];

/** A temporary directory removed by `removeTemporaries` (call it from `test.after.always`). */
export async function temporaryDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Remove every directory `makeRepo` and `temporaryDir` created in this test file. */
export async function removeTemporaries(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
}

/** Build baseline and patch trees (the patch = baseline + `changes`, `null` deletes) and their diff. */
export async function makeRepo(
  files: Readonly<Record<string, string>>,
  changes: Readonly<Record<string, string | null>>,
): Promise<Repo> {
  const dir = await temporaryDir('ag-run-e2e-');
  const baseline = path.join(dir, 'baseline');
  const patch = path.join(dir, 'patch');
  await fs.mkdir(baseline);
  git(baseline, 'init', '-q');
  await write(baseline, files);
  git(baseline, 'add', '-A');
  git(baseline, 'commit', '-qm', 'baseline');
  git(dir, 'clone', '-q', baseline, patch);
  await write(patch, changes);
  git(patch, 'add', '-A');
  git(patch, 'commit', '-qm', 'patch', '--allow-empty');
  const diff = path.join(dir, 'change.diff');
  await fs.writeFile(diff, git(patch, 'diff', 'HEAD~1', 'HEAD'));
  return { dir, baseline, patch, diff };
}

export interface AgResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly out: string;
  readonly run: RunArtefact | null;
}

/** Run the real binary with `--baseline/--patch/--diff/--out` filled in from `repo`. */
export async function agRun(
  repo: Repo,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<AgResult> {
  const out = path.join(repo.dir, `run-${Math.random().toString(36).slice(2)}.json`);
  const argv = [bin, '--baseline', repo.baseline, '--patch', repo.patch, '--diff', repo.diff, '--out', out, ...args];
  return spawnAg(argv, out, env);
}

/** Run the binary with exactly these arguments; `out` is where the artefact is expected. */
export function spawnAg(argv: readonly string[], out: string, env: NodeJS.ProcessEnv = process.env): Promise<AgResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => {
      fs.readFile(out, 'utf8').then(
        (text) => {
          let run: RunArtefact | null = null;
          try {
            run = JSON.parse(text) as RunArtefact;
          } catch {
            run = null;
          }
          resolve({ status, stdout, stderr, out, run });
        },
        () => resolve({ status, stdout, stderr, out, run: null }),
      );
    });
  });
}

/** A node:test file. */
export const nodeTest = (body: string) =>
  `const test = require('node:test');\nconst assert = require('node:assert');\n${body}\n`;

/** A one-function node project: calc.js and its test. */
export const calcProject = {
  'calc.js': 'exports.add = (a, b) => a + b;\n',
  'test/calc.test.js': nodeTest(
    `const { add } = require('../calc.js');\ntest('adds', () => assert.equal(add(1, 2), 3));\ntest('adds zero', () => assert.equal(add(0, 0), 0));`,
  ),
};
