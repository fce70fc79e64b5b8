/**
 * The two commits, as the tools see them: resolved refs, exports of exactly the commits
 * (`git archive`: no history, no other refs, no remotes) and the diff between them.
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { UsageError } from '@adversary-gate/core';

/** The work tree's top folder of the repository `cwd` is in. @throws UsageError */
export function repositoryRoot(cwd: string): string {
  const r = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new UsageError('not inside a git repository');
  return r.stdout.trim();
}

/** The commit `ref` names. @throws UsageError naming `what` */
export function resolveCommit(cwd: string, ref: string, what: string): string {
  const r = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd, encoding: 'utf8' });
  if (r.status !== 0 || r.stdout.trim() === '') throw new UsageError(`unknown ${what} ref: ${ref}`);
  return r.stdout.trim();
}

/** Export `commit` into the existing folder `dest` (git archive | tar -x). */
export function exportCommit(cwd: string, commit: string, dest: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const archive = spawn('git', ['archive', commit], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const tar = spawn('tar', ['-x', '-C', dest], { stdio: ['pipe', 'ignore', 'pipe'] });
    archive.stdout.pipe(tar.stdin);
    let errors = '';
    archive.stderr.on('data', (d: Buffer) => (errors += d.toString()));
    tar.stderr.on('data', (d: Buffer) => (errors += d.toString()));
    let pending = 2;
    let failed = false;
    const done = (status: number | null) => {
      if (status !== 0) failed = true;
      if (--pending > 0) return;
      if (failed) reject(new Error(`cannot export ${commit}: ${errors.trim() || 'git archive | tar failed'}`));
      else resolve();
    };
    archive.once('close', done);
    tar.once('close', done);
    archive.once('error', reject);
    tar.once('error', reject);
  });
}

/** Write `git diff base head` to `file`, whole or not at all (written aside, then renamed). */
export async function writeDiff(cwd: string, base: string, head: string, file: string): Promise<void> {
  const tmp = `${file}.tmp`;
  const git = spawn('git', ['diff', '--no-color', '--no-ext-diff', '--find-renames', base, head], {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    git.once('error', reject);
    git.once('close', resolve);
  });
  await pipeline(git.stdout, createWriteStream(tmp));
  const status = await exited;
  if (status !== 0) throw new Error(`git diff exited ${status}`);
  await rename(tmp, file);
}
