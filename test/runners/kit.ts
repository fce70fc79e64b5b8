/**
 * One small project per runner, built as a git repository with real dependencies from the
 * registry (exact versions, a lock file made here), judged by gate.sh with no settings.
 * @module
 */
import type { ExecutionContext } from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MutationArtefact } from '@adversary-gate/schemas';

export { ROOT } from '../e2e/helpers.js';
import { ROOT } from '../e2e/helpers.js';
const GATE = path.join(ROOT, 'pipelines', 'gate.sh');

/**
 * One npm cache per project, for every install the gate runs on it. The gate installs as a
 * fresh uid each time, and npm writes its cache files for its own uid only: the test fills
 * the cache first (as itself) with every package the lock file and the gate's tools name and
 * opens it to every uid; the gate's installs find `npm` as a wrapper that, after each install,
 * opens what that install wrote (as its own uid), so that the next install, as another uid,
 * may append to the same index files. A cache shared by two projects judged at once would be
 * written by one project's warming while the other's gate installs from it.
 */
function projectCache(t: ExecutionContext): { cache: string; bin: string } {
  const cache = mkdtempSync(path.join(tmpdir(), 'ag-runner-npm-cache-'));
  const bin = mkdtempSync(path.join(tmpdir(), 'ag-runner-npm-bin-'));
  t.teardown(() => {
    rmSync(cache, { recursive: true, force: true });
    rmSync(bin, { recursive: true, force: true });
  });
  const npmPath = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  if (npmPath === '') throw new Error('npm is not on PATH');
  writeFileSync(
    path.join(bin, 'npm'),
    `#!/bin/sh\n"${npmPath}" "$@"\nstatus=$?\nchmod -R a+rwX "${cache}" 2>/dev/null\nexit $status\n`,
  );
  chmodSync(path.join(bin, 'npm'), 0o755);
  chmodSync(bin, 0o755);
  return { cache, bin };
}

/** The gate's tools as it installs them for these projects (ag-core's GATE_TOOL_VERSIONS, vitest's coverage-v8). */
const GATE_TOOLS = ['c8@10.1.3', 'jest-junit@16.0.0', '@vitest/coverage-v8@3.2.4', '@vitest/coverage-v8@4.1.12'];

/** The .npmrc every project carries: its cache, offline first, no logs. */
function npmrc(cache: string): string {
  return `cache=${cache}\nprefer-offline=true\nlogs-max=0\nupdate-notifier=false\nfund=false\naudit=false\n`;
}

/** Open the cache to every uid: what one install wrote (as its own uid) the next one may rewrite. */
function openCache(cache: string): void {
  const open = spawnSync('chmod', ['-R', 'a+rwX', cache]);
  if (open.status !== 0) throw new Error(`chmod -R a+rwX ${cache} failed`);
}

/** npm as the test runs it. */
function npm(cwd: string, args: string[]): void {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0)
    throw new Error(`npm ${args.slice(0, 3).join(' ')}… in ${cwd}: ${r.stderr.split('\n').slice(-10).join('\n')}`);
}

/** Every package tarball the lock file installs (its `resolved` URLs, aliases included), once each. */
function lockedPackages(dir: string): string[] {
  const lock = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as {
    packages?: Record<string, { resolved?: string }>;
  };
  const urls = Object.values(lock.packages ?? {}).flatMap((p) =>
    p.resolved?.startsWith('https://') ? [p.resolved] : [],
  );
  return [...new Set(urls)];
}

/** Fill the cache with the project's packages and the gate's tools (with their dependencies), then open it to every uid. */
function warmCache(dir: string, cache: string): void {
  const packages = lockedPackages(dir);
  if (packages.length > 0) npm(dir, ['cache', 'add', ...packages]);
  const scratch = mkdtempSync(path.join(tmpdir(), 'ag-runner-tools-'));
  try {
    writeFileSync(path.join(scratch, 'package.json'), '{"name":"warm","version":"0.0.0","private":true}\n');
    writeFileSync(path.join(scratch, '.npmrc'), npmrc(cache));
    npm(scratch, ['install', '--no-save', '--no-package-lock', '--ignore-scripts', ...GATE_TOOLS]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  openCache(cache);
}

/** A project: its files at the baseline, the honest patch's and the bad patch's changed files. */
export interface Project {
  readonly files: Readonly<Record<string, string | object>>;
  readonly honest: Readonly<Record<string, string>>;
  readonly bad: Readonly<Record<string, string>>;
}

function git(repo: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

function write(repo: string, files: Readonly<Record<string, string | object>>): void {
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
    writeFileSync(path.join(repo, name), typeof body === 'string' ? body : `${JSON.stringify(body, null, 2)}\n`);
  }
}

/** The repository: `base` (with its lock file), `honest` and `bad` commits on top of it. */
export interface Repo {
  readonly dir: string;
  /** The project's npm cache and the folder of its `npm` wrapper, or null when it has no package.json. */
  readonly npm: { readonly cache: string; readonly bin: string } | null;
  readonly base: string;
  readonly honest: string;
  readonly bad: string;
}

/** Build the project as a git repository; a package.json gets a lock file from the registry first. */
export function buildRepo(t: ExecutionContext, project: Project): Repo {
  const dir = mkdtempSync(path.join(tmpdir(), 'ag-runner-repo-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'runners@adversary-gate.invalid');
  git(dir, 'config', 'user.name', 'runners');
  const js = 'package.json' in project.files;
  const npmCache = js ? projectCache(t) : null;
  // A project's own .npmrc lines come after the shared cache's.
  const own = typeof project.files['.npmrc'] === 'string' ? project.files['.npmrc'] : '';
  write(dir, npmCache !== null ? { ...project.files, '.npmrc': npmrc(npmCache.cache) + own } : project.files);
  if (npmCache !== null) {
    npm(dir, ['install', '--package-lock-only', '--ignore-scripts']);
    warmCache(dir, npmCache.cache);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'baseline');
  const base = git(dir, 'rev-parse', 'HEAD');
  const commit = (files: Readonly<Record<string, string>>, message: string) => {
    git(dir, 'checkout', '-q', base);
    write(dir, files);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', message);
    return git(dir, 'rev-parse', 'HEAD');
  };
  const honest = commit(project.honest, 'fix clamp above the range, with its test');
  const bad = commit(project.bad, 'break sum');
  return { dir, npm: npmCache, base, honest, bad };
}

/** What one gate run left. */
export interface Judged {
  readonly code: number | null;
  readonly stderr: string;
  readonly verdict: { verdict: string; reasons: { code: string; message: string }[] };
  readonly runJson: unknown;
  readonly detected: string;
  /** The installed packages' digests after the install and after the last run, or null when nothing was installed. */
  readonly packages: { readonly installed: string; readonly after: string } | null;
  readonly out: string;
}

const readJson = (file: string): unknown => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

/**
 * `gate.sh --base B --head H --out DIR` in the repository, with the environment as given
 * and no AG_* setting but `settings` (every one the caller's environment has is removed).
 */
export async function judge(
  t: ExecutionContext,
  repo: Repo,
  head: string,
  pathPrefix = '',
  settings: Readonly<Record<string, string>> = {},
): Promise<Judged> {
  const out = mkdtempSync(path.join(tmpdir(), 'ag-runner-out-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('AG_') && v !== undefined) env[k] = v;
  const prefix = [pathPrefix, repo.npm?.bin ?? ''].filter((p) => p !== '').join(':');
  if (prefix !== '') env['PATH'] = `${prefix}:${env['PATH'] ?? ''}`;
  Object.assign(env, settings);
  const evidence = path.join(out, 'evidence');
  if (repo.npm !== null) openCache(repo.npm.cache);
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn('sh', [GATE, '--base', repo.base, '--head', head, '--out', evidence], {
      cwd: repo.dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (c) => resolve({ code: c, stderr: err }));
  });
  const read = (name: string) =>
    existsSync(path.join(evidence, name)) ? readFileSync(path.join(evidence, name), 'utf8') : null;
  const installed = read('packages-installed.sha256');
  const after = read('packages-after.sha256');
  return {
    code,
    stderr,
    verdict: (readJson(path.join(evidence, 'verdict.json')) ?? { verdict: 'none', reasons: [] }) as Judged['verdict'],
    runJson: readJson(path.join(evidence, 'run.json')),
    detected: read('detected.txt') ?? '',
    packages: installed === null || after === null ? null : { installed, after },
    out: evidence,
  };
}

/** Every test id the executions in run.json hold (claims, full suite, reruns, trusted tests). */
export function testIds(j: Judged): string[] {
  const ids = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o['outcome'] === 'string' && 'tests' in o && Array.isArray(o['tests']))
        for (const t of o['tests'] as { id: string }[]) ids.add(t.id);
      for (const x of Object.values(o)) walk(x);
    }
  };
  walk(j.runJson);
  return [...ids].sort();
}

/** One line on a verdict for an assertion message: the verdict, its reasons, the gate's stderr tail. */
export function why(j: Judged): string {
  const reasons = j.verdict.reasons.map((r) => r.code).join(', ');
  return `${j.verdict.verdict} (${reasons}); gate.sh exit ${j.code}\n${j.stderr.split('\n').slice(-25).join('\n')}`;
}

/**
 * The assertions every runner's project shares: the honest patch is ACCEPTed with ids that
 * carry their files (the equal titles stay two tests), nothing was written into the installed
 * packages, and the bad patch is never ACCEPTed.
 */
export async function judgeBoth(
  t: ExecutionContext,
  project: Project,
  opts: {
    readonly ids: readonly [string, string];
    readonly fileOf: (id: string) => boolean;
    readonly pathPrefix?: string;
  },
): Promise<{ honest: Judged; bad: Judged }> {
  const repo = buildRepo(t, project);
  const honest = await judge(t, repo, repo.honest, opts.pathPrefix);
  t.is(honest.verdict.verdict, 'ACCEPT', why(honest));
  t.is(honest.code, 0, why(honest));
  const ids = testIds(honest);
  t.true(ids.length >= 4, `run.json holds the tests: ${ids.join(' | ')}`);
  for (const id of ids) t.true(opts.fileOf(id), `the id ${id} carries its file`);
  for (const id of opts.ids) t.true(ids.includes(id), `${id} is a test of its own among ${ids.join(' | ')}`);
  if ('package.json' in project.files && honest.packages !== null) {
    t.regex(honest.packages.installed, /^[0-9a-f]{64} {2}\S+deps-baseline\/node_modules$/m);
    t.is(honest.packages.after, honest.packages.installed, 'nothing was written into the installed packages');
  }
  const bad = await judge(t, repo, repo.bad, opts.pathPrefix);
  t.true(['REJECT', 'HOLD'].includes(bad.verdict.verdict), `the bad patch is never ACCEPTed: ${why(bad)}`);
  t.not(bad.code, 0);
  return { honest, bad };
}

/** The evidence's behaviour footprint (mutation.json's). */
const footprintOf = (j: Judged) =>
  (JSON.parse(readFileSync(path.join(j.out, 'mutation.json'), 'utf8')) as MutationArtefact).footprint;

/**
 * The behaviour footprint under the project's runner: the honest patch's changed function is
 * measured from the calls its tests made, with no finding; a patch answering the new test's
 * exact input (every argument keyed) and keeping the bug everywhere else holds, naming it.
 */
export async function judgeSpecialCase(t: ExecutionContext, project: Project): Promise<void> {
  const repo = buildRepo(t, {
    ...project,
    bad: {
      'src/lib.js': (project.files['src/lib.js'] as string).replace(
        '  if (x > hi) {',
        '  if (x === 15 && lo === 0 && hi === 10) return 10;\n  if (x > hi) {',
      ),
      'test/b.test.js': project.honest['test/b.test.js']!,
    },
  });
  const honest = await judge(t, repo, repo.honest);
  t.is(honest.verdict.verdict, 'ACCEPT', why(honest));
  const fixed = footprintOf(honest);
  t.is(fixed?.status, 'measured', JSON.stringify(fixed));
  t.deepEqual(
    fixed?.functions.map((f) => [f.function, f.measured, f.findings.length]),
    [['clamp', true, 0]],
  );
  const special = await judge(t, repo, repo.bad);
  t.is(special.verdict.verdict, 'HOLD', `${why(special)}\n${JSON.stringify(footprintOf(special))}`);
  t.true(
    special.verdict.reasons.some((r) => r.code === 'BEHAVIOUR_SUSPECTED' && /clamp\(\): special_case/.test(r.message)),
    why(special),
  );
}
