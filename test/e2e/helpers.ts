import type { ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
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

/** Run a command; never throws. */
export function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 240_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
