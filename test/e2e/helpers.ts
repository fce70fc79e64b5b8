import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEMO = path.join(ROOT, 'pipelines', 'demo');

/** A real git repository: the demo project's baseline commit, then one of its patches. */
export function demoRepo(project: 'js' | 'py', patch: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `ag-e2e-${project}-${patch}-`));
  cpSync(path.join(DEMO, 'projects', project, 'base'), dir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'baseline');
  cpSync(path.join(DEMO, 'projects', project, 'patches', patch), dir, { recursive: true });
  git('add', '-A');
  git('commit', '-q', '-m', `patch ${patch}`);
  return dir;
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
