/**
 * The five tools the pipeline runs, found as installed packages (the gate's own
 * dependencies), or in a bin directory given instead (`--bin-dir`: a wrapper per tool).
 * The pipeline only starts them and keeps their evidence: it judges nothing itself.
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageDir } from '@adversary-gate/core';

export const TOOL_NAMES = ['ag-oracle', 'ag-run', 'ag-diffcov', 'ag-mutate', 'ag-decide'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** The executable of `tool`: in `binDir` when given, else the bin its package declares. */
export function toolPath(tool: ToolName, binDir: string | undefined): string {
  if (binDir !== undefined) return path.resolve(binDir, tool);
  const dir = installedPackage(`@adversary-gate/${tool}`);
  const bin = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin[
    tool
  ];
  if (bin === undefined) throw new Error(`@adversary-gate/${tool} declares no ${tool} bin`);
  return path.join(dir, bin);
}

/**
 * The folder of the tool package `name` (`@adversary-gate/ag-run`): beside this package, as
 * they lie in this repository (`tools/`), in the single `adversary-gate` package (`tools/`)
 * and installed as scoped packages (`@adversary-gate/`); else found as node finds it, in the
 * `node_modules` folders from this package's own folder up.
 */
function installedPackage(name: string): string {
  const own = packageDir(import.meta.url);
  const sibling = path.join(path.dirname(own), name.split('/').pop()!);
  if (existsSync(path.join(sibling, 'package.json'))) return sibling;
  let dir = own;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${name} is not installed beside ag-gate`);
    dir = parent;
  }
}

/** How one tool run ended. */
export interface ToolRun {
  /** The exit status; null when it died of a signal or could not start. */
  readonly status: number | null;
  /** Why it could not start, or null. */
  readonly spawnError: string | null;
}

/**
 * Run one tool with `args`, its stdout and stderr passed through (`quiet`: its stderr only).
 * Never rejects: a tool's exit is evidence for ag-decide, not the pipeline's business.
 */
export function runTool(
  file: string,
  args: readonly string[],
  opts: { readonly stdout?: 'inherit' | 'ignore'; readonly signal?: AbortSignal } = {},
): Promise<ToolRun> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', opts.stdout ?? 'inherit', 'inherit'] });
    // Stopped as a cancelled job stops a tool: SIGTERM (it kills the tests it started), then SIGKILL.
    const stop = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    };
    opts.signal?.addEventListener('abort', stop, { once: true });
    child.once('error', (e) => resolve({ status: null, spawnError: e.message }));
    child.once('close', (status) => {
      opts.signal?.removeEventListener('abort', stop);
      resolve({ status, spawnError: null });
    });
  });
}
