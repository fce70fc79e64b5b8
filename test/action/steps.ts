/**
 * Runs a composite action's steps the way a GitHub runner does, closely enough to adopt it
 * in a test: `${{ inputs.* }}`, `${{ github.* }}`, `${{ runner.temp }}` and
 * `${{ steps.<id>.outputs.<name> }}` substituted (and `a || b`: the first that is not empty),
 * each step's `if:` (an `inputs.x == 'y'` or `!=` comparison) evaluated, `env:` given, `run:`
 * run by bash in the workspace, and GITHUB_ENV / GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files
 * honoured. `uses: actions/cache@v4` is the cache a runner offers, kept in `cacheRoot`: its
 * `path` restored when `key` is there, saved after the last step when it was not (as the
 * action's post step does); with no `cacheRoot`, a cache that is never hit and never saved.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';

interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly shell?: string;
  readonly env?: Record<string, string>;
  readonly run?: string;
  readonly uses?: string;
  readonly with?: Record<string, string>;
}
interface Action {
  readonly inputs: Record<string, { default?: string; required?: boolean }>;
  readonly runs: { using: string; steps: Step[] };
}

export interface Runner {
  readonly workspace: string;
  readonly temp: string;
  readonly actionPath: string;
  readonly github: Record<string, string>;
  readonly env?: Record<string, string>;
  /** Run every step as this user (the runner's own account), with its HOME. */
  readonly user?: { readonly uid: number; readonly gid: number; readonly home: string };
  /** Ids of steps not to run (e.g. `install` when `env` names an installed AG_GATE). */
  readonly skip?: readonly string[];
  /** Where `actions/cache` keeps its entries, one folder per key; none: the cache is never hit. */
  readonly cacheRoot?: string;
}

export interface StepResult {
  readonly name: string;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The job's home: the runner user's, else a folder of the job's own under its temp folder. */
function jobHome(r: Runner): string {
  if (r.user !== undefined) return r.user.home;
  const home = path.join(r.temp, 'home');
  mkdirSync(home, { recursive: true });
  return home;
}

/** `name=value` lines (GITHUB_OUTPUT, GITHUB_ENV) as a record. */
function parseLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
  }
  return out;
}

/**
 * `uses: actions/cache@v4`: restore `path` from `r.cacheRoot/<key>` when there, else note it to
 * save after the last step. Any other action is not supported by the test runner.
 */
function cacheStep(r: Runner, step: Step, expand: (text: string) => string, toSave: [string, string][]): StepResult {
  if (step.uses !== 'actions/cache@v4') throw new Error(`uses: not supported by the test runner: ${step.uses}`);
  const key = expand(step.with?.['key'] ?? '');
  const home = jobHome(r);
  const at = expand(step.with?.['path'] ?? '').replace(/^~(?=\/)/, home);
  if (key === '' || at === '') throw new Error('actions/cache: key and path are required');
  const entry = r.cacheRoot === undefined ? undefined : path.join(r.cacheRoot, key);
  const hit = entry !== undefined && existsSync(entry);
  if (hit) cpSync(entry, at, { recursive: true });
  else toSave.push([key, at]);
  return { name: step.name ?? '', status: 0, stdout: hit ? `Cache restored from key: ${key}\n` : '', stderr: '' };
}

function substitute(text: string, values: (expr: string) => string): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) =>
    // `a || b`: the first operand that is not empty (a missing context value is empty), as on a runner.
    expr
      .split('||')
      .map((e) => values(e.trim()))
      .reduce((a, b) => (a === '' ? b : a), ''),
  );
}

/**
 * `text` with its `${{ github.* }}` expressions substituted as a runner does for `github`
 * (the context's fields by their path, e.g. `event.merge_group.head_sha`): an input's
 * default, a workflow's `ref:` or concurrency group.
 */
export function expand(text: string, github: Record<string, string>): string {
  return substitute(text, (e) => {
    if (e.startsWith('github.')) return github[e.slice(7)] ?? '';
    throw new Error(`expression not supported: ${e}`);
  });
}

/** Run the action at `actionPath` with `with` inputs; returns each step's result, stopping at the first failure. */
export function runAction(
  r: Runner,
  withInputs: Record<string, string>,
): { steps: StepResult[]; outputs: Record<string, string>; summary: string; env: Record<string, string> } {
  const action = parse(readFileSync(path.join(r.actionPath, 'action.yml'), 'utf8')) as Action;
  if (action.runs.using !== 'composite') throw new Error('not a composite action');
  const envFile = path.join(r.temp, 'github_env');
  const outFile = path.join(r.temp, 'github_output');
  const summaryFile = path.join(r.temp, 'step_summary');
  for (const f of [envFile, outFile, summaryFile]) {
    writeFileSync(f, '');
    if (r.user !== undefined) chownSync(f, r.user.uid, r.user.gid);
  }
  const inputs: Record<string, string> = {};
  const stepOutputs: Record<string, Record<string, string>> = {};
  /** The cache entries to save after the last step, as actions/cache's post step does: [key, path]. */
  const toSave: [string, string][] = [];
  const expr = (e: string): string => {
    if (e.startsWith('inputs.')) return inputs[e.slice(7)] ?? '';
    if (e === 'github.action_path') return r.actionPath;
    if (e === 'runner.temp') return r.temp;
    if (e.startsWith('github.')) return r.github[e.slice(7)] ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e);
    if (output !== null) return stepOutputs[output[1] as string]?.[output[2] as string] ?? '';
    throw new Error(`expression not supported by the test runner: ${e}`);
  };
  for (const [name, spec] of Object.entries(action.inputs)) {
    const given = withInputs[name];
    if (given === undefined && spec.required === true) throw new Error(`input ${name} is required`);
    inputs[name] = given ?? substitute(spec.default ?? '', expr);
  }
  const steps: StepResult[] = [];
  const added: Record<string, string> = {};
  for (const step of action.runs.steps) {
    if (step.id !== undefined && r.skip?.includes(step.id) === true) continue;
    if (step.if !== undefined) {
      const m = /^inputs\.([\w-]+) (==|!=) '([^']*)'$/.exec(step.if.trim());
      if (m === null) throw new Error(`if: not supported by the test runner: ${step.if}`);
      if ((inputs[m[1] as string] === m[3]) !== (m[2] === '==')) continue;
    }
    if (step.uses !== undefined) {
      steps.push(cacheStep(r, step, (text) => substitute(text, expr), toSave));
      continue;
    }
    if (step.run === undefined) throw new Error(`a step with neither run nor uses: ${step.name ?? ''}`);
    // As another user, none of npm's settings for this process (its cache, its user config are root's).
    const inherited = Object.entries(process.env as Record<string, string>).filter(
      ([k]) => r.user === undefined || !/^npm_/i.test(k),
    );
    const env: Record<string, string> = {
      ...Object.fromEntries(inherited),
      ...r.env,
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: r.workspace,
      GITHUB_ACTION_PATH: r.actionPath,
      GITHUB_ENV: envFile,
      GITHUB_OUTPUT: outFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_TEMP: r.temp,
      // A job's own home, as on a fresh runner (npm's download cache kept: it only saves time).
      HOME: jobHome(r),
      ...(r.user === undefined
        ? { npm_config_cache: process.env['npm_config_cache'] ?? path.join(homedir(), '.npm') }
        : {}),
      ...added,
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(String(v), expr);
    writeFileSync(outFile, '');
    const res = spawnSync('bash', ['-e', '-c', substitute(step.run, expr)], {
      cwd: r.workspace,
      env,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      ...(r.user !== undefined ? { uid: r.user.uid, gid: r.user.gid } : {}),
    });
    steps.push({ name: step.name ?? '', status: res.status, stdout: res.stdout, stderr: res.stderr });
    for (const line of readFileSync(envFile, 'utf8').split('\n')) {
      const i = line.indexOf('=');
      if (i > 0) added[line.slice(0, i)] = line.slice(i + 1);
    }
    writeFileSync(envFile, '');
    if (step.id !== undefined && existsSync(outFile)) {
      appendFileSync(path.join(r.temp, `outputs-${step.id}`), readFileSync(outFile, 'utf8'));
      stepOutputs[step.id] = parseLines(readFileSync(outFile, 'utf8'));
    }
    if (res.status !== 0) break;
  }
  if (steps.every((st) => st.status === 0) && r.cacheRoot !== undefined)
    for (const [key, from] of toSave)
      if (existsSync(from)) cpSync(from, path.join(r.cacheRoot, key), { recursive: true });
  const outputs: Record<string, string> = {};
  for (const f of ['decide']) {
    const p = path.join(r.temp, `outputs-${f}`);
    if (!existsSync(p)) continue;
    for (const line of readFileSync(p, 'utf8').split('\n')) {
      const i = line.indexOf('=');
      if (i > 0) outputs[line.slice(0, i)] = line.slice(i + 1);
    }
  }
  return { steps, outputs, summary: readFileSync(summaryFile, 'utf8'), env: added };
}
