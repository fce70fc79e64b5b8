/**
 * What an install gets from the caller and nothing else does: the user's npm settings (their
 * npmrc, the variables it names, the registry, proxy and CA variables, corepack's registry,
 * token and keys), a package cache kept between runs, and where the caller's corepack cache is
 * (each install gets a copy of its own: install-corepack.ts). A test run never sees any of it:
 * the tests get the isolated environment alone.
 * @module
 */
import { spawn } from 'node:child_process';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runningAsRoot } from '@adversary-gate/core';

/** The caller's settings an install is given. */
export interface InstallSettings {
  /** Variables added to the install's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** The caller's npmrc, written as the install's `~/.npmrc`; null when there is none. */
  readonly npmrc: Buffer | null;
  /** The folder kept between runs that holds the package managers' caches; null: a fresh one per install. */
  readonly cache: string | null;
  /** The caller's corepack cache, copied for each install; null when there is none. */
  readonly corepackHome: string | null;
}

/** Variables that say where packages come from and how to reach it (any case). */
const PASSED = [
  /^npm_config_(registry|@[^:]+:registry|proxy|https[-_]proxy|no[-_]?proxy|cafile|ca|strict[-_]ssl|\/\/.+)$/i,
  /^(https?_proxy|no_proxy|all_proxy)$/i,
  /^NODE_EXTRA_CA_CERTS$/,
  // Where corepack fetches a package manager from and how it checks it.
  /^COREPACK_(NPM_REGISTRY|NPM_TOKEN|INTEGRITY_KEYS|DEFAULT_TO_LATEST|ENABLE_DOWNLOAD_PROMPT)$/,
];

/**
 * What corepack is told for every pnpm or yarn install unless the caller says otherwise: never
 * prompt, and with no `packageManager` field take the version this corepack knows as good
 * rather than ask the registry for the latest (whose signature a mirror may not carry, and
 * which changes from one run to the next).
 */
const COREPACK_DEFAULTS: Readonly<Record<string, string>> = {
  COREPACK_DEFAULT_TO_LATEST: '0',
  COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
};

/** The largest npmrc read. */
const MAX_NPMRC = 1024 * 1024;

/** The caller's npmrc: `npm_config_userconfig`, else `~/.npmrc`; a regular file only. */
function userNpmrc(env: NodeJS.ProcessEnv): Buffer | null {
  const file = env.npm_config_userconfig ?? env.NPM_CONFIG_USERCONFIG ?? path.join(env.HOME ?? os.homedir(), '.npmrc');
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (st === undefined || !st.isFile() || st.size > MAX_NPMRC) return null;
  return readFileSync(file);
}

/**
 * The caller's corepack home, as corepack finds it: `COREPACK_HOME`, else
 * `$XDG_CACHE_HOME/node/corepack`, else `~/.cache/node/corepack`. Null when it is not an
 * absolute path to a folder (no cache: nothing is lent). The caller names it, so its own path
 * may pass through links; nothing inside it is ever read through one.
 */
export function callerCorepackHome(env: NodeJS.ProcessEnv = process.env): string | null {
  const home =
    env.COREPACK_HOME ||
    path.join(env.XDG_CACHE_HOME || path.join(env.HOME || os.homedir(), '.cache'), 'node', 'corepack');
  if (!path.isAbsolute(home)) return null;
  try {
    return statSync(home).isDirectory() ? home : null;
  } catch {
    return null;
  }
}

/**
 * The default cache folder: as root `/var/cache/adversary-gate` (the installs run as fresh
 * uids, which could not enter root's 0700 home); else `$XDG_CACHE_HOME/adversary-gate`, else
 * `~/.cache/adversary-gate`.
 */
export function defaultInstallCache(env: NodeJS.ProcessEnv = process.env, asRoot = runningAsRoot()): string {
  if (asRoot) return '/var/cache/adversary-gate';
  return path.join(env.XDG_CACHE_HOME || path.join(env.HOME ?? os.homedir(), '.cache'), 'adversary-gate');
}

/** The settings an install gets, read from the caller's environment; `cache` null for none. */
export function installSettings(cache: string | null, env: NodeJS.ProcessEnv = process.env): InstallSettings {
  const npmrc = userNpmrc(env);
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && PASSED.some((p) => p.test(name))) passed[name] = value;
  // An npmrc names its secrets as ${VARIABLE}: those variables come along, and only those.
  for (const m of (npmrc?.toString('utf8') ?? '').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    const value = env[m[1]!];
    if (value !== undefined) passed[m[1]!] = value;
  }
  return { env: passed, npmrc, cache, corepackHome: callerCorepackHome(env) };
}

/** The package manager an install command runs (npm unless it starts with pnpm or yarn). */
export function installManager(command: string): 'npm' | 'pnpm' | 'yarn' {
  const m = /^\s*(?:corepack\s+)?(pnpm|yarn)\b/.exec(command)?.[1];
  return m === 'pnpm' || m === 'yarn' ? m : 'npm';
}

/**
 * A detected install whose package manager (pnpm or yarn) is not on the install's PATH, run
 * through corepack (which Node ships: it fetches the version the project's `packageManager`
 * names, else its own known-good one); as it is when the manager is there, corepack is not,
 * or the command is npm's. `onPath` says whether a program is found on the install's PATH.
 */
export function throughCorepack(command: string, onPath: (name: string) => boolean): string {
  const m = /^\s*(pnpm|yarn)\b/.exec(command);
  if (m === null || onPath(m[1]!) || !onPath('corepack')) return command;
  return `corepack ${command.trimStart()}`;
}

/**
 * The variables one install gets besides the isolated environment: for pnpm and yarn, corepack's
 * defaults (COREPACK_DEFAULTS), then the caller's `settings.env`, its manager's folder in the package cache `cache` (null: none), and `COREPACK_HOME` when it
 * was lent a copy of the caller's corepack cache (`corepackCopy`, null: none).
 */
export function installEnv(
  settings: InstallSettings,
  cache: string | null,
  command: string,
  corepackCopy: string | null,
): Record<string, string> {
  return {
    ...(installManager(command) === 'npm' ? {} : COREPACK_DEFAULTS),
    ...settings.env,
    ...(cache === null ? {} : cacheEnv(cache, command)),
    ...(corepackCopy === null ? {} : { COREPACK_HOME: corepackCopy }),
  };
}

/**
 * The variables that point the install command's package manager at its folder in `cache`
 * (only its own: npm warns about another manager's settings).
 */
export function cacheEnv(cache: string, command: string): Record<string, string> {
  const manager = installManager(command);
  // Offline first: what the cache holds is used without asking the registry again (a lock
  // file's packages are checked against its integrity; only what is missing is fetched).
  if (manager === 'pnpm')
    return { npm_config_store_dir: path.join(cache, 'pnpm-store'), npm_config_prefer_offline: 'true' };
  if (manager === 'yarn') return { YARN_CACHE_FOLDER: path.join(cache, 'yarn') };
  return { npm_config_cache: path.join(cache, 'npm'), npm_config_prefer_offline: 'true' };
}

/**
 * Hold the cache folder for one install (made when missing): an flock on the folder itself, so
 * two gates on one machine take turns; resolves to the function that lets it go.
 */
export async function holdCache(cache: string): Promise<() => void> {
  mkdirSync(cache, { recursive: true, mode: 0o755 });
  const fd = openSync(cache, 'r');
  const status = await new Promise<number | null>((resolve) => {
    const child = spawn('flock', ['3'], { stdio: ['ignore', 'ignore', 'ignore', fd] });
    child.once('error', () => resolve(null));
    child.once('close', resolve);
  });
  if (status !== 0) {
    closeSync(fd);
    throw new Error(`cannot lock the install cache ${cache}`);
  }
  return () => closeSync(fd);
}
