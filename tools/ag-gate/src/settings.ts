/**
 * What one gate run is asked to do: the flags, then the `AG_*` variables of the environment
 * (the names every pipeline and the GitHub Action already use), then the defaults. A value
 * given (a flag, or a variable that is set, even empty) overrides what is detected; an
 * undefined one leaves the detected command in charge.
 * @module
 */
import path from 'node:path';
import { UsageError } from '@adversary-gate/core';
import { defaultInstallCache } from './install-settings.js';

/** The settings of one run, read and checked. */
export interface Settings {
  readonly base: string;
  readonly head: string;
  readonly out: string;
  readonly testCommand?: string;
  readonly fullSuiteCommand?: string;
  readonly coverageCommand?: string;
  readonly coverageReport?: string;
  readonly junit?: string;
  readonly installCommand?: string;
  readonly installTimeout: number;
  /** The folder of package caches kept between runs (installs only); null: a fresh cache per install. */
  readonly installCache: string | null;
  readonly rounds: number;
  readonly timeout: number;
  /** Seconds for the whole run, past which it stops and holds (default: see {@link defaultDeadline}). */
  readonly deadline: number;
  /** Where `deadline` came from, in words (`--deadline`/`AG_DEADLINE`, or the default as derived). */
  readonly deadlineSource: string;
  readonly mutateMax: number;
  /** ag-mutate's `--line-budget`: the default budget also gives every changed line a mutant, up to this many lines; 0 when `--mutate-max` was set. */
  readonly mutateLineBudget: number;
  readonly python: string;
  readonly policy?: string;
  readonly sandbox: 'none' | 'bwrap';
  readonly binDir?: string;
  readonly maxProcesses?: number;
  /** Variables of the caller's environment every run of the project's code gets too (TZ, LANG, a CI's own). */
  readonly passEnv: readonly string[];
  /** K/N: run as mutation shard K of N only. */
  readonly shard?: { readonly k: number; readonly n: number };
  readonly quiet: boolean;
  /** Who speaks on stderr (`ag-gate`, or the pipeline file that wraps it). */
  readonly who: string;
}

/** Each setting: its flag and its environment variable. */
export const SETTING_NAMES = {
  base: ['base', 'AG_BASE'],
  head: ['head', 'AG_HEAD'],
  out: ['out', 'AG_OUT'],
  testCommand: ['test-command', 'AG_TEST_COMMAND'],
  fullSuiteCommand: ['full-suite-command', 'AG_FULL_SUITE_COMMAND'],
  coverageCommand: ['coverage-command', 'AG_COVERAGE_COMMAND'],
  coverageReport: ['coverage-report', 'AG_COVERAGE_REPORT'],
  junit: ['junit', 'AG_JUNIT'],
  installCommand: ['install-command', 'AG_INSTALL_COMMAND'],
  installTimeout: ['install-timeout', 'AG_INSTALL_TIMEOUT'],
  installCache: ['install-cache', 'AG_INSTALL_CACHE'],
  rounds: ['rounds', 'AG_ROUNDS'],
  timeout: ['timeout', 'AG_TIMEOUT'],
  deadline: ['deadline', 'AG_DEADLINE'],
  mutateMax: ['mutate-max', 'AG_MUTATE_MAX'],
  python: ['python', 'AG_PYTHON'],
  policy: ['policy', 'AG_POLICY'],
  sandbox: ['sandbox', 'AG_SANDBOX'],
  binDir: ['bin-dir', 'AG_BIN_DIR'],
  maxProcesses: ['max-processes', 'AG_MAX_PROCESSES'],
  passEnv: ['pass-env', 'AG_PASS_ENV'],
  shard: ['shard', 'AG_MUTATE_SHARD'],
} as const;

type Name = keyof typeof SETTING_NAMES;
type Raw = Readonly<Record<string, unknown>>;

/** The flag's value, else the variable's (set counts, even empty), else undefined. */
function pick(flags: Raw, env: NodeJS.ProcessEnv, name: Name): string | undefined {
  const [flag, variable] = SETTING_NAMES[name];
  const given = flags[flag];
  if (typeof given === 'string') return given;
  return env[variable];
}

/** A value that means "not given" when empty (a ref, a number, a path). */
function nonEmpty(flags: Raw, env: NodeJS.ProcessEnv, name: Name): string | undefined {
  const v = pick(flags, env, name);
  return v === undefined || v === '' ? undefined : v;
}

/** The default mutant budget, raised to one mutant per changed line for up to {@link DEFAULT_LINE_BUDGET} lines. */
const DEFAULT_MUTANTS = 20;
/** The most changed lines the default budget gives a mutant each: past it, a diff's strength leaves lines out (a HOLD). */
const DEFAULT_LINE_BUDGET = 200;

function whole(flags: Raw, env: NodeJS.ProcessEnv, name: Name, fallback: number, min: number): number {
  const v = nonEmpty(flags, env, name);
  if (v === undefined) return fallback;
  const [flag, variable] = SETTING_NAMES[name];
  if (!/^\d+$/.test(v) || Number(v) < min)
    throw new UsageError(`--${flag} (${variable}) must be a whole number of at least ${min}, got: ${v}`);
  return Number(v);
}

/** Parse K/N with 1 ≤ K ≤ N. @throws UsageError */
export function parseShard(text: string): { k: number; n: number } {
  const m = /^([1-9]\d*)\/([1-9]\d*)$/.exec(text);
  if (m === null || Number(m[1]) > Number(m[2]))
    throw new UsageError(`--shard (AG_MUTATE_SHARD) must be K/N with 1 <= K <= N, got: ${text}`);
  return { k: Number(m[1]), n: Number(m[2]) };
}

/**
 * The whole run's deadline when none is given: two installs at their limit, then thirty test
 * runs at theirs (the rounds, both sides' full suites, coverage and the mutants' baseline and
 * clean runs fit in that many on any suite whose runs stay under the per-run limit).
 */
export function defaultDeadline(installTimeout: number, timeout: number): number {
  return 2 * installTimeout + 30 * timeout;
}

/** Read the settings from citty's parsed flags and the environment. @throws UsageError */
export function readSettings(flags: Raw, env: NodeJS.ProcessEnv, who = 'ag-gate'): Settings {
  const sandbox = nonEmpty(flags, env, 'sandbox') ?? 'none';
  if (sandbox !== 'none' && sandbox !== 'bwrap')
    throw new UsageError(`--sandbox (AG_SANDBOX) must be none or bwrap, got: ${sandbox}`);
  const shard = nonEmpty(flags, env, 'shard');
  const optional = (name: Name) => pick(flags, env, name);
  const out = pick(flags, env, 'out') ?? '.adversary-gate';
  const installTimeout = whole(flags, env, 'installTimeout', 900, 1);
  const timeout = whole(flags, env, 'timeout', 120, 1);
  return {
    base: nonEmpty(flags, env, 'base') ?? 'origin/main',
    head: nonEmpty(flags, env, 'head') ?? 'HEAD',
    out,
    ...defined('testCommand', nonEmpty(flags, env, 'testCommand')),
    ...defined('fullSuiteCommand', nonEmpty(flags, env, 'fullSuiteCommand')),
    ...defined('coverageCommand', optional('coverageCommand')),
    ...defined('coverageReport', nonEmpty(flags, env, 'coverageReport')),
    ...defined('junit', optional('junit')),
    ...defined('installCommand', optional('installCommand')),
    installTimeout,
    installCache: cacheSetting(pick(flags, env, 'installCache'), env),
    rounds: whole(flags, env, 'rounds', 3, 1),
    timeout,
    deadline: whole(flags, env, 'deadline', defaultDeadline(installTimeout, timeout), 1),
    deadlineSource:
      nonEmpty(flags, env, 'deadline') === undefined
        ? `the default: 2 × the install timeout of ${installTimeout} s + 30 × the run timeout of ${timeout} s`
        : '--deadline (AG_DEADLINE)',
    mutateMax: whole(flags, env, 'mutateMax', DEFAULT_MUTANTS, 0),
    mutateLineBudget: nonEmpty(flags, env, 'mutateMax') === undefined ? DEFAULT_LINE_BUDGET : 0,
    python: nonEmpty(flags, env, 'python') ?? 'python3',
    ...defined('policy', nonEmpty(flags, env, 'policy')),
    sandbox,
    ...defined('binDir', nonEmpty(flags, env, 'binDir')),
    ...(nonEmpty(flags, env, 'maxProcesses') === undefined
      ? {}
      : { maxProcesses: whole(flags, env, 'maxProcesses', 1024, 1) }),
    ...(shard === undefined ? {} : { shard: parseShard(shard) }),
    passEnv: parsePassEnv(pick(flags, env, 'passEnv')),
    quiet: flags.quiet === true,
    who,
  };
}

/** `TZ,LANG`: variable names, comma-separated (none when unset or empty). */
function parsePassEnv(given: string | undefined): string[] {
  const names = (given ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  for (const n of names)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) throw new UsageError(`--pass-env takes variable names, got "${n}"`);
  return names;
}

/** The cache folder: given (empty: none), else the default one. */
function cacheSetting(given: string | undefined, env: NodeJS.ProcessEnv): string | null {
  if (given === '') return null;
  return path.resolve(given ?? defaultInstallCache(env));
}

function defined<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
