/**
 * Tiny real git repositories for end-to-end tests: a baseline commit, a patch commit, the diff.
 */
import { spawn } from 'node:child_process';
import { cpSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunArtefact } from '@adversary-gate/schemas';
import { commitPair, removeTempDirs, tempDir } from '../../../ag-core/test/support/git-repo.js';

export const bin = fileURLToPath(new URL('../../bin/ag-run.js', import.meta.url));

export interface Repo {
  readonly dir: string;
  readonly baseline: string;
  readonly patch: string;
  readonly diff: string;
}

/** A temporary directory removed by `removeTemporaries` (call it from `test.after.always`). */
export function temporaryDir(prefix: string): Promise<string> {
  return Promise.resolve(tempDir(prefix.replace(/-$/, '')));
}

/**
 * A folder every execution's uid may write in, inside one of the test's own that they cannot:
 * the sweep after each execution removes what a uid leaves where it could have written at the
 * top of /tmp, and the counter must outlive the executions.
 */
export async function sharedCounter(): Promise<string> {
  const holder = await temporaryDir('agrun-counter-');
  await fs.chmod(holder, 0o755);
  const counter = path.join(holder, 'counter');
  await fs.mkdir(counter);
  await fs.chmod(counter, 0o777); // the tests may run as a fresh uid
  return counter;
}

/** Remove every directory `makeRepo` and `temporaryDir` created in this test file. */
export function removeTemporaries(): Promise<void> {
  removeTempDirs();
  return Promise.resolve();
}

/** Build baseline and patch trees (the patch = baseline + `changes`, `null` deletes) and their diff. */
export async function makeRepo(
  files: Readonly<Record<string, string>>,
  changes: Readonly<Record<string, string | null>>,
): Promise<Repo> {
  const dir = await temporaryDir('ag-run-e2e-');
  const baseline = path.join(dir, 'baseline');
  const patch = path.join(dir, 'patch');
  const pair = commitPair(patch, files, changes, {
    between: () => cpSync(patch, baseline, { recursive: true, verbatimSymlinks: true }),
  });
  const diff = path.join(dir, 'change.diff');
  await fs.writeFile(diff, pair.diff);
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
