/**
 * The child environment: an allowlist, never the caller's secrets.
 * @module
 */

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

/** Build the allowlisted environment: PATH, HOME, LANG, TZ=UTC, CI=true, plus what is passed. */
export function childEnv(opts: ChildEnvOptions): Record<string, string> {
  const from = opts.from ?? process.env;
  const env: Record<string, string> = {
    PATH: from.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: opts.home,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    CI: 'true',
    NO_COLOR: '1',
  };
  for (const name of opts.passEnv ?? []) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  if (opts.seed !== undefined && opts.seed !== null) env.AG_SEED = String(opts.seed);
  for (const [k, v] of Object.entries(opts.extra ?? {})) env[k] = v;
  return env;
}
