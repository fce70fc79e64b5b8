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
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { copyTree, readInside, type GateTool } from '@adversary-gate/core';
import { cacheEnv, holdCache, type InstallSettings } from './install-settings.js';
import { runIsolated, type IsolatedRun } from './isolated.js';

/** The files that decide what a side installs. */
export const PACKAGE_FILES = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  '.npmrc',
  '.yarnrc.yml',
] as const;

/** Whether the two trees' package files are byte-equal (both absent counts as equal). */
export function samePackageFiles(a: string, b: string): boolean {
  const read = (tree: string, f: string) => {
    const file = path.join(tree, f);
    return existsSync(file) ? readFileSync(file) : null;
  };
  return PACKAGE_FILES.every((f) => {
    const [x, y] = [read(a, f), read(b, f)];
    return x === null || y === null ? x === y : x.equals(y);
  });
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

/** Run one install under the isolated regime, with the caller's npm settings and the cache held. */
async function runInstall(
  dir: string,
  command: string,
  timeoutSeconds: number,
  log: string,
  places: InstallPlaces,
): Promise<IsolatedRun> {
  const { env, npmrc, cache } = places.settings;
  const release = cache === null ? null : await holdCache(cache);
  try {
    return await runIsolated(dir, command, {
      timeoutSeconds,
      log,
      scratch: places.work,
      extraEnv: cache === null ? env : { ...env, ...cacheEnv(cache, command) },
      ...(npmrc === null ? {} : { homeFiles: { '.npmrc': npmrc } }),
      ...(cache === null ? {} : { lend: [cache] }),
      ...(places.signal === undefined ? {} : { signal: places.signal }),
    });
  } finally {
    release?.();
  }
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
  const r = await runInstall(deps, command, timeoutSeconds, log, places);
  if (r.status !== 0)
    return { text: `the install of the ${side} (${command}) exited ${r.status}, so no test ran`, log };
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

/** `name@version` for each tool; a `=DEP` version is the version of DEP installed in `packages`. */
export function toolSpecs(tools: readonly GateTool[], packages: string): string[] {
  return tools.map((t) => {
    let version = t.version;
    if (version.startsWith('=')) {
      const dep = version.slice(1);
      const manifest = path.join(packages, dep, 'package.json');
      try {
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
  patchPackages: string,
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
  const r = await runInstall(dir, command, timeoutSeconds, log, places);
  if (r.status === 0) return null;
  return { text: `the gate's tool install (${specs.join(' ')}) exited ${r.status}, so no test ran`, log };
}

/**
 * Link the gate's tools `names` into `tree/node_modules` (a folder of links made by copyTree):
 * a scope folder that is a link becomes a folder of links first, so nothing is added inside
 * the installed packages.
 */
export function linkTools(tree: string, toolsDir: string, names: readonly string[]): void {
  const dest = path.join(tree, 'node_modules');
  for (const name of names) {
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
  }
}
