/**
 * The folder a measurement works in: `jobs` isolated copies of the tree, a HOME per copy,
 * a scratch area for what the runs record, and the one way commands are run there (the
 * shared process runner, optionally inside bubblewrap).
 * @module
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArgv, childEnv, runProcess, sandboxReachedCommand, type ProcessResult } from '@adversary-gate/core';
import { PACKAGE_ROOT } from '../package-files.js';
import { TreeCopy } from './tree-copy.js';

/** Where the tree's dependency folders lead when they are links (a workspace's node_modules). */
function linkedDependencies(tree: string): string[] {
  const out: string[] = [];
  for (const name of ['node_modules', '.venv', 'venv']) {
    const dir = path.join(tree, name);
    try {
      if (lstatSync(dir).isSymbolicLink()) out.push(realpathSync(dir));
    } catch {
      // absent or dangling
    }
  }
  return out;
}

/** Copies, homes and scratch space in one fresh temporary folder, removed by `dispose`. */
export class Workspace {
  readonly dir: string;
  readonly copies: TreeCopy[] = [];
  readonly homes: string[] = [];
  /** Where runs record (coverage, selections); writable inside the sandbox. */
  readonly data: string;
  /** Harness problems met while running (recorded as faults). */
  readonly faults: string[] = [];

  constructor(
    readonly tree: string,
    count: number,
    readonly passEnv: readonly string[],
    readonly sandbox: 'none' | 'bwrap',
  ) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-'));
    this.data = path.join(this.dir, 'data');
    mkdirSync(this.data);
    for (let i = 0; i < count; i++) {
      this.copies.push(TreeCopy.create(tree, path.join(this.dir, `tree${i}`)));
      const home = path.join(this.dir, `home${i}`);
      mkdirSync(home);
      this.homes.push(home);
    }
  }

  /** A fresh folder under the scratch area. */
  scratch(name: string): string {
    const dir = path.join(this.data, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** The argv of a shell command in copy `i`, inside bubblewrap when asked for. */
  private argv(i: number, command: string): string[] {
    const argv = ['/bin/sh', '-c', command];
    if (this.sandbox === 'none') return argv;
    const root = this.copies[i]!.root;
    const wrapped = bwrapArgv(argv, { writable: [root, this.homes[i]!, this.data], chdir: root });
    // The sandbox's /tmp is empty: the original tree (the copy's dependency links point
    // into it), where its own dependency links lead, and this package stay readable, never writable.
    const readable = [path.resolve(this.tree), ...linkedDependencies(this.tree), PACKAGE_ROOT].filter((d) => existsSync(d)).flatMap((d) => ['--ro-bind', d, d]);
    const at = wrapped.indexOf('--bind');
    wrapped.splice(at < 0 ? wrapped.indexOf('--chdir') : at, 0, ...readable);
    return wrapped;
  }

  /** Run `command` with /bin/sh in copy `i` under the shared runner's limits. */
  async run(i: number, command: string, timeoutMs: number, extra: Record<string, string> = {}): Promise<ProcessResult> {
    const env = childEnv({ home: this.homes[i]!, passEnv: this.passEnv, extra: { PYTHONDONTWRITEBYTECODE: '1', ...extra } });
    const sandboxed = this.sandbox === 'bwrap';
    const r = await runProcess({ argv: this.argv(i, command), cwd: this.copies[i]!.root, env, timeoutMs, statusFd: sandboxed, sweep: !sandboxed });
    if (sandboxed && !r.timedOut && !r.outputCapHit && !sandboxReachedCommand(r.statusText ?? '')) {
      const why = r.stderrTail.trim().split('\n').pop() ?? '';
      this.faults.push(`the sandbox could not be built for a run of "${command}"${why ? `: ${why}` : ''}`);
      return { ...r, spawnError: 'sandbox setup failed' };
    }
    return r;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
