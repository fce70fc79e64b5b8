/**
 * A project's own CI job, timed as its workflow runs it: a clean export of the commit, the
 * install from its lock file (`npm ci` where one exists, else `npm install`; lifecycle scripts
 * on, as in CI), then its test command and its coverage command where it has one. The npm
 * cache is the caller's (a CI job restores one too); run it twice and take the second for
 * "warm".
 *
 *   const seconds = await ciJobSeconds(repoDir, commit, { test: 'npm test' });  // null: it failed
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * @param {string} dir a clone of the project
 * @param {string} commit the commit the job runs on
 * @param {{ install?: string, test: string }} job the install (default: from the lock file) and
 *   the commands after it, as one shell command
 * @returns {{ seconds: number, ok: boolean, tail: string }}
 */
export function ciJob(dir, commit, job) {
  const tree = mkdtempSync(path.join(os.tmpdir(), 'ag-ci-job-'));
  try {
    execFileSync('sh', ['-c', 'git -C "$1" archive "$2" | tar -x -C "$3"', 'sh', dir, commit, tree]);
    const install =
      job.install ??
      (existsSync(path.join(tree, 'package.json'))
        ? existsSync(path.join(tree, 'package-lock.json'))
          ? 'npm ci --no-audit --no-fund'
          : 'npm install --no-audit --no-fund'
        : 'true');
    const started = process.hrtime.bigint();
    const r = spawnSync('sh', ['-c', `${install} && ${job.test}`], {
      cwd: tree,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
      timeout: 1_800_000,
      maxBuffer: 256 * 1024 * 1024,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    return { seconds, ok: r.status === 0, tail };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
