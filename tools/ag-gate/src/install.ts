/**
 * The install step: each side's dependencies installed once, in its own copy of the tree
 * (a side whose package files equal the other's shares the install), then the gate's own
 * tools the project lacks (jest-junit, c8, @vitest/coverage-v8) into the gate's folder, never
 * the project's; every install under the isolated regime with its own timeout. Each tree's
 * `node_modules` becomes a link to its side's packages, which belong to root from then on.
 * @module
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import {
  copyTree,
  JS_PACKAGE_FILES,
  readInside,
  runningAsRoot,
  searchablePath,
  type GateTool,
} from '@adversary-gate/core';
import { logEnd } from './faults.js';
import { corepackFault, lendCorepack, type CorepackCopy } from './install-corepack.js';
import { holdCache, installEnv, type InstallSettings } from './install-settings.js';
import { runIsolated, type IsolatedRun } from './isolated.js';

/** The files that decide what a side installs. */
export const PACKAGE_FILES = JS_PACKAGE_FILES;

/** The largest workspace package file compared. */
const MAX_PACKAGE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Whether the two trees' package files are byte-equal (both absent counts as equal): the
 * root's, and each workspace's (`workspaces`, folders relative to the root) package.json and
 * `.npmrc`, which the root's install reads too.
 */
export function samePackageFiles(a: string, b: string, workspaces: readonly string[] = []): boolean {
  const read = (tree: string, f: string) => {
    const file = path.join(tree, f);
    return existsSync(file) ? readFileSync(file) : null;
  };
  const same = PACKAGE_FILES.every((f) => {
    const [x, y] = [read(a, f), read(b, f)];
    return x === null || y === null ? x === y : x.equals(y);
  });
  // A workspace's files are read as data, never through a link: one that is not a regular
  // file on either side means the patch installs on its own.
  const readWorkspace = (tree: string, f: string): Buffer | null | false => {
    const r = readInside(tree, f, MAX_PACKAGE_FILE_BYTES);
    return r.ok ? r.data : r.problem === 'does not exist' ? null : false;
  };
  return (
    same &&
    workspaces
      .flatMap((w) => [`${w}/package.json`, `${w}/.npmrc`])
      .every((f) => {
        const [x, y] = [readWorkspace(a, f), readWorkspace(b, f)];
        if (x === false || y === false) return false;
        return x === null || y === null ? x === y : x.equals(y);
      })
  );
}

/**
 * Link each workspace's own `node_modules` in `tree` to the one the install at `deps` made
 * there (pnpm's links into the root's store, npm's packages it could not hoist), as the root's
 * is: a folder of the install, which belongs to root once it ran, reached by its real path.
 * Workspaces are folders relative to the root; one the tree or the install lacks is skipped.
 * Returns the install's folders linked (for the packages' digest).
 */
export function linkWorkspacePackages(deps: string, tree: string, workspaces: readonly string[]): string[] {
  const linked: string[] = [];
  for (const w of workspaces) {
    const from = path.join(deps, w, 'node_modules');
    const st = lstatSync(from, { throwIfNoEntry: false });
    const dir = lstatSync(path.join(tree, w), { throwIfNoEntry: false });
    if (st?.isDirectory() !== true || dir?.isDirectory() !== true) continue;
    const to = path.join(tree, w, 'node_modules');
    rmSync(to, { recursive: true, force: true });
    symlinkSync(from, to);
    linked.push(from);
  }
  return linked;
}

/** Where one run keeps what it installs. */
export interface InstallPlaces {
  /** The gate's work folder (outside the evidence). */
  readonly work: string;
  /** The gate's tools folder (its `node_modules` holds them). */
  readonly toolsDir: string;
  /** The gate's deadline: an install still running when it passes is stopped. */
  readonly signal?: AbortSignal;
  /** The caller's npm settings and the cache kept between runs (installs only). */
  readonly settings: InstallSettings;
}

/**
 * Run one install under the isolated regime, with the caller's npm settings, the cache held,
 * and a copy of the caller's corepack cache of its own (removed after); also says what that
 * copy was, for a failed install's fault line.
 */
async function runInstall(
  dir: string,
  command: string,
  timeoutSeconds: number,
  log: string,
  places: InstallPlaces,
  online = false,
): Promise<{ readonly run: IsolatedRun; readonly corepack: CorepackCopy }> {
  const { npmrc } = places.settings;
  let cache = places.settings.cache;
  const release = cache === null ? null : await holdCache(cache);
  // As root the install runs as a fresh uid, which must be able to enter the cache folder.
  if (cache !== null && runningAsRoot() && searchablePath(cache) !== cache) {
    process.stderr.write(
      `ag-gate: the install cache ${cache} lies under a folder other users cannot enter: not used\n`,
    );
    cache = null;
  }
  // Made before the run, so it is handed to the install's uid with the rest of what it writes.
  const corepack = lendCorepack(places.settings.corepackHome, places.work, dir, command);
  const lend = [...(cache === null ? [] : [cache]), ...(corepack.home === null ? [] : [corepack.home])];
  try {
    const run = await runIsolated(dir, command, {
      timeoutSeconds,
      log,
      scratch: places.work,
      extraEnv: {
        ...installEnv(places.settings, cache, command, corepack.home),
        ...(online && cache !== null ? ASK_THE_REGISTRY : {}),
      },
      ...(npmrc === null ? {} : { homeFiles: { '.npmrc': npmrc } }),
      ...(lend.length === 0 ? {} : { lend }),
      ...(places.signal === undefined ? {} : { signal: places.signal }),
    });
    return { run, corepack };
  } finally {
    if (corepack.home !== null) rmSync(corepack.home, { recursive: true, force: true });
    release?.();
  }
}

/** The package managers' settings that make an install revalidate what the cache holds. */
const ASK_THE_REGISTRY = { npm_config_prefer_offline: 'false', npm_config_prefer_online: 'true' };

/**
 * Did the install fail because the cache's copy of a package's metadata lacks the version the
 * lock file names (published since the cache was filled)? Offline first, npm and pnpm answer
 * from that copy and give up: npm's `ETARGET` ("No matching version found"), pnpm's
 * `ERR_PNPM_NO_MATCHING_VERSION`.
 */
export function staleMetadata(log: string): boolean {
  return /\bETARGET\b|npm error notarget|No matching version found for|ERR_PNPM_NO_MATCHING_VERSION/.test(log);
}

/** A failed install: its text for the fault line and its log. */
export interface InstallFailure {
  readonly text: string;
  readonly log: string;
}

/**
 * Install `tree`'s dependencies with `command` in a copy at `work/deps-<side>`, and make
 * `tree/node_modules` a link to the result. Null when it installed.
 */
export async function installSide(
  side: 'baseline' | 'patch',
  tree: string,
  command: string,
  timeoutSeconds: number,
  places: InstallPlaces,
): Promise<InstallFailure | null> {
  const deps = path.join(places.work, `deps-${side}`);
  const log = `${deps}.log`;
  await copyTree(tree, deps);
  let { run: r, corepack } = await runInstall(deps, command, timeoutSeconds, log, places);
  if (r.status !== 0 && places.settings.cache !== null && staleMetadata(logEnd(log))) {
    // The cache's metadata predates a version the lock names: once more, asking the registry.
    process.stderr.write(
      `ag-gate: the install of the ${side} met package metadata older than its lock file in the cache; once more, asking the registry\n`,
    );
    rmSync(deps, { recursive: true, force: true });
    await copyTree(tree, deps);
    ({ run: r, corepack } = await runInstall(deps, command, timeoutSeconds, log, places, true));
  }
  if (r.status !== 0)
    return {
      text: `the install of the ${side} (${command}) exited ${r.status}${corepackFault(log, corepack)}, so no test ran`,
      log,
    };
  const packages = path.join(deps, 'node_modules');
  if (!existsSync(packages)) mkdirSync(packages);
  rmSync(path.join(tree, 'node_modules'), { recursive: true, force: true });
  symlinkSync(packages, path.join(tree, 'node_modules'));
  return null;
}

/** Link the patch tree to the baseline's install (equal package files). */
export function shareInstall(places: InstallPlaces, patchTree: string): void {
  symlinkSync(path.join(places.work, 'deps-baseline', 'node_modules'), path.join(patchTree, 'node_modules'));
}

const SPEC = /^@?[A-Za-z0-9._/-]+@[A-Za-z0-9.+-]+$/;

/**
 * `name@version` for each tool; a `=DEP` version is the version of DEP installed in the first
 * of the `packages` folders that holds it (a workspace's own, then the root's).
 */
export function toolSpecs(tools: readonly GateTool[], packages: string | readonly string[]): string[] {
  const folders = typeof packages === 'string' ? [packages] : packages;
  return tools.map((t) => {
    let version = t.version;
    if (version.startsWith('=')) {
      const dep = version.slice(1);
      const manifest = folders.map((f) => path.join(f, dep, 'package.json')).find((m) => existsSync(m));
      try {
        if (manifest === undefined) throw new Error('absent');
        version = String((JSON.parse(readFileSync(manifest, 'utf8')) as { version: unknown }).version);
      } catch {
        throw new Error(`${t.name} must match ${dep}'s version, and the install holds no ${dep}`);
      }
    }
    const spec = `${t.name}@${version}`;
    if (!SPEC.test(spec)) throw new Error(`not a package and exact version: ${spec}`);
    return spec;
  });
}

/**
 * Install the gate's own tools into `toolsDir/node_modules` (exact versions, lifecycle scripts
 * off, the baseline's `.npmrc` when it has one as a regular file). Null when it installed.
 */
export async function installTools(
  tools: readonly GateTool[],
  baseline: string,
  patchPackages: string | readonly string[],
  timeoutSeconds: number,
  places: InstallPlaces,
): Promise<InstallFailure | null> {
  const dir = places.toolsDir;
  const log = `${dir}.log`;
  let specs: string[];
  try {
    specs = toolSpecs(tools, patchPackages);
  } catch (e) {
    writeFileSync(log, `${(e as Error).message}\n`);
    return { text: `the gate's tool install could not start (${(e as Error).message}), so no test ran`, log };
  }
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  // The folder is its own project: npm neither climbs to a package.json above it nor saves one.
  writeFileSync(path.join(dir, 'package.json'), '{"name":"adversary-gate-tools","version":"0.0.0","private":true}\n');
  const npmrc = readInside(baseline, '.npmrc', 1024 * 1024);
  if (npmrc.ok) writeFileSync(path.join(dir, '.npmrc'), npmrc.data);
  for (const spec of specs) process.stderr.write(`ag-gate: ${spec} (the project has none) into ${dir}/node_modules\n`);
  const command = `npm install --no-save --no-package-lock --ignore-scripts --no-audit --no-fund --save-exact ${specs.join(' ')}`;
  const { run: r, corepack } = await runInstall(dir, command, timeoutSeconds, log, places);
  if (r.status === 0) return null;
  return {
    text: `the gate's tool install (${specs.join(' ')}) exited ${r.status}${corepackFault(log, corepack)}, so no test ran`,
    log,
  };
}

/**
 * Link the gate's tools `tools` into `tree/node_modules` (a folder of links made by copyTree):
 * a scope folder that is a link becomes a folder of links first, so nothing is added inside
 * the installed packages there. A tool pinned to the version of a package DEP (`=DEP`) is
 * linked beside DEP's real folder too (besideAnchor): DEP may load it from its own location
 * rather than the project's (vitest 4 imports `@vitest/coverage-v8` so).
 */
export function linkTools(tree: string, toolsDir: string, tools: readonly GateTool[]): void {
  const dest = path.join(tree, 'node_modules');
  for (const { name, version } of tools) {
    const source = path.join(toolsDir, 'node_modules', name);
    if (!existsSync(source)) throw new Error(`the gate's tools hold no ${name}`);
    if (name.startsWith('@')) {
      const scope = path.join(dest, name.split('/')[0]!);
      const st = lstatSync(scope, { throwIfNoEntry: false });
      if (st?.isSymbolicLink() === true) {
        const target = path.resolve(path.dirname(scope), readlinkSync(scope));
        rmSync(scope);
        mkdirSync(scope);
        for (const entry of readdirSync(target)) symlinkSync(path.join(target, entry), path.join(scope, entry));
      } else if (st === undefined) mkdirSync(scope);
    }
    rmSync(path.join(dest, name), { force: true });
    symlinkSync(source, path.join(dest, name));
    if (version.startsWith('=')) besideAnchor(dest, version.slice(1), name, source);
  }
}

/**
 * Link `source` as `name` in the `node_modules` folder that holds the real `anchor` package
 * reached from `dest` (an npm install's own folder, or pnpm's `.pnpm/<anchor>@…/node_modules`),
 * unless something of that name is there already. Done before the installed packages are
 * digested, so the check after the runs counts the link as installed.
 */
function besideAnchor(dest: string, anchor: string, name: string, source: string): void {
  let real: string;
  try {
    real = realpathSync(path.join(dest, anchor));
  } catch {
    return; // the anchor is not installed: the tool's version could not have been taken from it
  }
  const folder = path.join(path.dirname(real), ...(anchor.startsWith('@') ? ['..'] : []));
  const at = path.join(folder, name);
  if (lstatSync(at, { throwIfNoEntry: false }) !== undefined) return;
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(source, at);
}
