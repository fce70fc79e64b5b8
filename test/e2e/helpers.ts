import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDemoRepo } from '../../pipelines/demo/repo.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A real git repository: the demo project's baseline commit, then one of its patches. */
export function demoRepo(project: 'js' | 'py', patch: string): string {
  return buildDemoRepo(project, patch);
}

export const JS_ENV = {
  AG_TEST_COMMAND: 'node --test',
  AG_COVERAGE_COMMAND: 'mkdir -p coverage && node --test --experimental-test-coverage --test-reporter=lcov --test-reporter-destination=coverage/lcov.info',
  AG_COVERAGE_REPORT: 'coverage/lcov.info',
  AG_MUTATE_MAX: '8',
};

/** Run a command; never throws. */
export function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 240_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
