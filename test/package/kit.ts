/**
 * A user's shell for the packaging tests: their environment (nothing from the npx that
 * started ava, no gate setting, no node_modules/.bin of this checkout on PATH), commands run in
 * it, the demo's repositories, and what a verdict on one must say.
 */
import type { ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDemoRepo } from '../../pipelines/demo/repo.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** gate.mk composes the tools by hand: nothing is detected, so the commands are given. */
export const MK_SETTINGS = [
  'TEST_COMMAND=node --test',
  'COVERAGE_COMMAND=mkdir -p coverage && node --test --experimental-test-coverage --test-reporter=lcov --test-reporter-destination=coverage/lcov.info',
  'COVERAGE_REPORT=coverage/lcov.info',
];
export const RANGE = ['--base', 'main~1', '--head', 'main'];

/** The environment of a user's shell: nothing from the npx that started ava, no gate setting. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|AG_|GITHUB_)/i.test(k) || k === 'INIT_CWD' || k === 'NODE_OPTIONS') continue;
    env[k] = v;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !dir.split(path.sep).includes('node_modules'))
    .join(path.delimiter);
  env.npm_config_update_notifier = 'false';
  return { ...env, ...extra };
}

export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly said: string;
}

export function run(file: string, args: readonly string[], cwd: string, extra: Record<string, string> = {}): Ran {
  const r = spawnSync(file, args, {
    cwd,
    encoding: 'utf8',
    env: userEnv(extra),
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const said =
    `${[file, ...args].join(' ')} exited ${r.status}${r.error ? ` (${r.error.message})` : ''}\n${r.stdout}\n${r.stderr}`.slice(
      -6000,
    );
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', said };
}

export function npm(args: string[], cwd: string): string {
  const r = run('npm', args, cwd);
  if (r.status !== 0) throw new Error(r.said);
  return r.stdout;
}

/** The demo's repository for `patch` (base commit main~1, patch commit main), moved to `dir`. */
export function demoRepoAt(dir: string, patch: 'clean' | 'break'): void {
  renameSync(buildDemoRepo('js', patch), dir);
  chmodSync(dir, 0o755);
}

const git = (cwd: string, args: string[]) => run('git', args, cwd).stdout;

/** What every verdict on `repo`'s main~1..main must name as its subject, from git itself. */
export function subjectOf(repo: string) {
  const diff = git(repo, ['diff', '--no-color', '--no-ext-diff', '--find-renames', 'main~1', 'main']);
  return {
    baseline_tree: git(repo, ['rev-parse', 'main~1^{tree}']).trim(),
    diff_sha256: `sha256:${createHash('sha256').update(diff).digest('hex')}`,
    patch_tree: git(repo, ['rev-parse', 'main^{tree}']).trim(),
  };
}

export interface Verdict {
  verdict: string;
  reasons: { code: string }[];
  evidence: { kind: string; status: string }[];
  subject: Record<string, string>;
}

export function verdictIn(out: string, r: Ran): Verdict {
  const file = path.join(out, 'verdict.json');
  if (!existsSync(file)) throw new Error(`no verdict.json in ${out}:\n${r.said}`);
  return JSON.parse(readFileSync(file, 'utf8')) as Verdict;
}

/** ACCEPT on the clean patch: exit 0, no reason, all four kinds of evidence read, the right subject. */
export function assertAccept(t: ExecutionContext, repo: string, out: string, r: Ran): void {
  const v = verdictIn(out, r);
  t.is(v.verdict, 'ACCEPT', r.said);
  t.deepEqual(
    v.reasons.map((x) => x.code),
    [],
    r.said,
  );
  t.is(r.status, 0, r.said);
  t.deepEqual(
    v.evidence.map((e) => `${e.kind}:${e.status}`).sort(),
    ['diffcov:read', 'mutation:read', 'oracle:read', 'run:read'],
    'every kind of evidence was made and read',
  );
  t.deepEqual(v.subject, subjectOf(repo), 'judged on main~1..main of the repository under test');
}
