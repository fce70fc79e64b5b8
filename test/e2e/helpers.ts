import type { ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDemoRepo } from '../../pipelines/demo/repo.mjs';
import { PROJECTS } from '../../pipelines/demo/scenarios.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A real git repository: the demo project's baseline commit, then one of its patches; removed when the test ends. */
export function demoRepo(t: ExecutionContext, project: 'js' | 'py', patch: string): string {
  const repo = buildDemoRepo(project, patch);
  t.teardown(() => rmSync(repo, { recursive: true, force: true }));
  return repo;
}

/** The demo's JavaScript project settings, with a mutant budget of 8. */
export const JS_ENV: Readonly<Record<string, string>> = { ...PROJECTS.js.env, AG_MUTATE_MAX: '8' };

/** A counting semaphore: at most `n` tasks at once, in arrival order. */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next)
        next(); // the slot passes straight to the next task
      else active -= 1;
    }
  };
}

/**
 * The file's slots: the tests of a file run concurrently, but each pipeline has its own
 * parallelism, so two run at a time per file (AG_E2E_JOBS), and ava runs two files at once
 * (the adversarial file, itself two at a time, first).
 */
export const slots = limiter(Math.max(1, Number(process.env.AG_E2E_JOBS ?? 2) || 2));

/** What a process did. */
export interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run a command to its end (killed after `timeoutMs`, code null, when given); never rejects. */
export function exec(
  cmd: string,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
  timeoutMs?: number,
): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', (e) => resolve({ code: null, stdout, stderr: `${stderr}${e.message}` }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Run a command in one of the file's slots, killed after 240 s (code null); never rejects. */
export function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Exit> {
  return slots(() => exec(cmd, args, cwd, env, 240_000));
}
