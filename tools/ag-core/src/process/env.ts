/**
 * The child environment: an allowlist, never the caller's secrets.
 * @module
 */
import { sha256 } from '@adversary-gate/schemas';

type Sha256Digest = `sha256:${string}`;

/** Options for the child environment. */
export interface ChildEnvOptions {
  /** A fresh, empty directory to use as HOME. */
  readonly home: string;
  /** Names of caller variables to pass through (`--pass-env`). */
  readonly passEnv?: readonly string[];
  /** Exported as AG_SEED when set. */
  readonly seed?: number | null;
  /** Extra fixed variables (e.g. the runner's own switches). */
  readonly extra?: Readonly<Record<string, string>>;
  /** The caller's environment to read pass-through names from (default: process.env). */
  readonly from?: NodeJS.ProcessEnv;
}

/**
 * Build the allowlisted environment: PATH, HOME, LANG, TZ=UTC, the caller's CI when it has one,
 * plus what is passed. Nothing here changes what the suite would see under `npm test` or
 * `python3 -m pytest` on the same machine: no colour switch is forced either way (a project's
 * FORCE_COLOR or colour tests behave as they do for its authors), and CI is set only where the
 * caller runs under CI, with the caller's value.
 */
export function childEnv(opts: ChildEnvOptions): Record<string, string> {
  const from = opts.from ?? process.env;
  const env: Record<string, string> = {
    PATH: from.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: opts.home,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
  };
  if (from.CI !== undefined) env.CI = from.CI;
  for (const name of opts.passEnv ?? []) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  if (opts.seed !== undefined && opts.seed !== null) env.AG_SEED = String(opts.seed);
  for (const [k, v] of Object.entries(opts.extra ?? {})) env[k] = v;
  return env;
}

/**
 * A digest of what `--pass-env` hands the tests: each name (sorted, once) with its value in
 * `from`, or null when unset. Two tools that give the same digest gave their tests the same
 * caller variables; the values themselves are never written anywhere.
 */
export function passedEnvSha256(passEnv: readonly string[], from: NodeJS.ProcessEnv = process.env): Sha256Digest {
  const names = [...new Set(passEnv)].sort();
  return sha256(JSON.stringify(names.map((name) => [name, from[name] ?? null])));
}
