/**
 * The trusted tests judge the patched code, in the baseline's environment. For a patch that
 * changes any file that is not a test, the trusted tree is the baseline tree (its installed
 * packages) with the patch's changes to every other file applied on top: added and modified
 * files copied from the patch, deleted ones removed, renamed ones moved. Tests, runner
 * configuration and setup files, package manifests and lock files and anything under
 * `node_modules` stay as in the baseline (those the patch adds are absent). The full suite runs
 * there once; a baseline test that passed on the baseline and does not pass there is named: the
 * patch changes behaviour a trusted test pins, or made the tests pass by something the trusted
 * tree leaves out (an edited or added test, a setup file, a plugin, a dependency). For a patch
 * that changes only tests, the trusted tree is the patch tree with the test files it changed,
 * deleted or renamed put back in their baseline version.
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  copyTree,
  installedPackages,
  isWithin,
  JS_PACKAGE_FILES,
  readInside,
  removeTree,
  resolvedPath,
  retiredTests,
  type DiffModel,
  type FileClass,
  type RetiredTest,
} from '@adversary-gate/core';
import type { Execution, TestResult, TrustedTests } from '@adversary-gate/schemas';
import { measured } from './per-test.js';
import type { RenamedBack } from './trusted-renames.js';

/** One file the trusted tree takes from the baseline. */
export type TrustedFile = TrustedTests['files'][number];

/** One path of the trusted tree the patch changed. */
export type PathChange = NonNullable<TrustedTests['from_patch']>[number];

/** One change of the patch the trusted tree leaves out, and why. */
export type HeldBack = NonNullable<TrustedTests['held_back']>[number];

/** Why a path is held back. */
export type HeldBackKind = HeldBack['kind'];

/** What the trusted tree is built from, and what it takes from the patch. */
export interface TrustedPlan {
  /** `baseline`: the baseline tree with `fromPatch` applied; `patch`: the patch tree with `files` put back. */
  readonly tree: 'baseline' | 'patch';
  /** The changed files whose baseline version the trusted tree keeps, on the baseline path. */
  readonly files: readonly TrustedFile[];
  readonly fromPatch: readonly PathChange[];
  readonly heldBack: readonly HeldBack[];
  /** Test files deleted with the code they import: the trusted tree leaves them out too, and their tests are not missed. */
  readonly retired: readonly RetiredTest[];
  /** The patch's identifier renames the trusted tree's code undoes (`trusted-renames.ts`); absent when none. */
  readonly renamedBack?: RenamedBack;
}

/** Runner configuration: the baseline's decides how the trusted tests run. */
const RUNNER_CONFIG =
  /(^|\/)(pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|\.mocharc\.[a-z]+|(jest|vitest|ava)\.config\.[a-z]+|\.c8rc(\.[a-z]+)?|\.nycrc(\.[a-z]+)?)$/;

/** Setup code runners load by name wherever it lies: pytest's `conftest.py`, jest's and Create React App's setup files. */
const RUNNER_SETUP = /(^|\/)(conftest\.py|jest\.setup\.[^/]+|setupTests\.[^/]+)$/;

/** Package manifests and lock files: the trusted run uses the baseline's installed packages. */
const PACKAGE_FILE = new RegExp(
  `(^|/)(${[...JS_PACKAGE_FILES.map((f) => f.replace(/\./g, '\\.')), 'requirements[^/]*\\.txt', 'setup\\.py', 'setup\\.cfg', 'pyproject\\.toml', 'Pipfile[^/]*', 'poetry\\.lock'].join('|')})$`,
);

/** Anything under a `node_modules` directory. */
const INSTALLED = /(^|\/)node_modules(\/|$)/;

/** The files the patch changed, deleted or renamed that are tests (by `classify`) or runner configuration, on their baseline path. */
export function trustedFiles(diff: DiffModel, classify: (p: string) => FileClass): TrustedFile[] {
  return diff.files
    .filter(
      (f) =>
        f.oldPath !== null &&
        f.status !== 'copied' &&
        (classify(f.oldPath) === 'test' || RUNNER_CONFIG.test(f.oldPath)),
    )
    .map((f) => ({
      path: f.oldPath!,
      change: f.status as TrustedFile['change'],
      renamed_to: f.status === 'renamed' ? f.path : null,
    }))
    .sort((a, b) => byPath(a.path, b.path));
}

/** Why the trusted tree keeps `p` as in the baseline; null when it takes the patch's version. */
export function heldBackKind(
  p: string,
  classify: (p: string) => FileClass,
  setupFiles: ReadonlySet<string>,
): HeldBackKind | null {
  if (INSTALLED.test(p)) return 'installed';
  if (PACKAGE_FILE.test(p)) return 'package';
  if (classify(p) === 'test') return 'test';
  if (RUNNER_CONFIG.test(p) || RUNNER_SETUP.test(p)) return 'runner_config';
  if (setupFiles.has(p)) return 'setup_file';
  return null;
}

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The path changes of one changed file: a rename is its old path deleted and its new path added; a copy adds its new path. */
function pathChanges(f: DiffModel['files'][number]): PathChange[] {
  switch (f.status) {
    case 'added':
    case 'copied':
      return [{ path: f.path, change: 'added' }];
    case 'deleted':
      return [{ path: f.oldPath ?? f.path, change: 'deleted' }];
    case 'renamed':
      return [
        { path: f.oldPath!, change: 'deleted' },
        { path: f.path, change: 'added' },
      ];
    default:
      return [{ path: f.path, change: 'modified' }];
  }
}

/**
 * What the trusted tree is built from: null when the patch changes nothing the trusted run
 * would see differently (it only adds test files, or changes nothing). A test file in
 * `retired` (deleted with the code it imports) is deleted there as in the patch: it could only
 * fail to load. A code file the patch renames stays at its baseline path as well, with its
 * patched content (`from`), so the baseline's tests that import it by that path judge the
 * patched code instead of failing to find it.
 */
export function planTrusted(
  diff: DiffModel,
  classify: (p: string) => FileClass,
  setupFiles: ReadonlySet<string>,
  retired: readonly RetiredTest[] = [],
): TrustedPlan | null {
  if (diff.files.length === 0) return null;
  const testOnly = diff.files.every(
    (f) => classify(f.path) === 'test' && (f.oldPath === null || classify(f.oldPath) === 'test'),
  );
  const sort = <T extends PathChange>(xs: T[]) =>
    xs.sort((a, b) => byPath(a.path, b.path) || byPath(a.change, b.change));
  if (testOnly) {
    const files = trustedFiles(diff, classify);
    if (files.length === 0) return null;
    const put = new Set(files.flatMap((f) => [f.path, ...(f.renamed_to === null ? [] : [f.renamed_to])]));
    const all = diff.files.flatMap(pathChanges);
    return {
      tree: 'patch',
      files,
      fromPatch: sort(all.filter((c) => !put.has(c.path))),
      heldBack: sort(all.filter((c) => put.has(c.path)).map((c) => ({ ...c, kind: 'test' as const }))),
      retired: [],
    };
  }
  const fromPatch: PathChange[] = [];
  const heldBack: HeldBack[] = [];
  const files: TrustedFile[] = [];
  const retiredPaths = new Set(retired.map((r) => r.path));
  const isCode = (p: string) => heldBackKind(p, classify, setupFiles) === null;
  for (const f of diff.files) {
    if (f.status === 'deleted' && retiredPaths.has(f.oldPath ?? f.path)) {
      fromPatch.push(...pathChanges(f));
      continue;
    }
    if (f.status === 'renamed' && isCode(f.oldPath!) && isCode(f.path)) {
      fromPatch.push({ path: f.oldPath!, change: 'modified', from: f.path }, { path: f.path, change: 'added' });
      continue;
    }
    for (const c of pathChanges(f)) {
      const kind = heldBackKind(c.path, classify, setupFiles);
      if (kind === null) {
        fromPatch.push(c);
        continue;
      }
      heldBack.push({ ...c, kind });
      // The baseline's version stays: a file the patch modified, deleted or renamed away.
      if (c.change === 'modified') files.push({ path: c.path, change: 'modified', renamed_to: null });
      else if (c.change === 'deleted')
        files.push(
          f.status === 'renamed'
            ? { path: c.path, change: 'renamed', renamed_to: f.path }
            : { path: c.path, change: 'deleted', renamed_to: null },
        );
    }
  }
  return {
    tree: 'baseline',
    files: files.sort((a, b) => byPath(a.path, b.path)),
    fromPatch: sort(fromPatch),
    heldBack: sort(heldBack),
    retired: retired.filter((r) => fromPatch.some((c) => c.path === r.path)),
  };
}

/**
 * The test files `diff` deletes with the code they import (ag-core's rule), read from the
 * baseline tree `baseline` (regular files only, up to 1 MiB: a link is not followed).
 */
export async function retiredOnBaseline(
  diff: DiffModel,
  baseline: string,
  classify: (p: string) => FileClass,
): Promise<RetiredTest[]> {
  return retiredTests(diff, {
    isRunnableTest: (p) => classify(p) === 'test',
    isTestFile: (p) => classify(p) === 'test',
    existsOnBaseline: async (p) => (await fs.lstat(inside(baseline, p)).catch(() => null)) !== null,
    readBaseline: async (p) => {
      const read = readInside(baseline, p, 1024 * 1024);
      return read.ok ? read.data.toString('utf8') : null;
    },
  });
}

function inside(root: string, rel: string): string {
  const full = path.resolve(root, rel);
  if (full === path.resolve(root) || !isWithin(root, full)) throw new Error(`${rel} leaves the tree`);
  return full;
}

/** `rel`'s parent directory in `root`, created, and checked to resolve inside it (no link leads out). */
async function parentInside(root: string, rel: string): Promise<string> {
  const full = inside(root, rel);
  // Checked before anything is created: a link among the ancestors may lead anywhere.
  if (!isWithin(await fs.realpath(root), resolvedPath(path.dirname(full))))
    throw new Error(`${rel} leads out of the tree through a link`);
  await fs.mkdir(path.dirname(full), { recursive: true });
  return full;
}

/** Remove `rel` from `root` when it is there (through no link that leads out). */
async function removeInside(root: string, rel: string): Promise<void> {
  const full = inside(root, rel);
  const parent = await fs.realpath(path.dirname(full)).catch(() => null);
  if (parent === null) return;
  if (!isWithin(await fs.realpath(root), parent)) throw new Error(`${rel} leads out of the tree through a link`);
  await fs.rm(full, { force: true, recursive: true });
}

/** Copy `rel` (or `fromRel`) from the tree `from` to `rel` in the tree `to`: a symlink as a symlink, a file with its mode. */
async function copyInto(from: string, to: string, rel: string, fromRel = rel): Promise<void> {
  const src = inside(from, fromRel);
  const real = await fs.realpath(path.dirname(src));
  if (!isWithin(await fs.realpath(from), real)) throw new Error(`${fromRel} leads out of the tree through a link`);
  const dest = await parentInside(to, rel);
  await fs.rm(dest, { force: true, recursive: true });
  const st = await fs.lstat(src);
  if (st.isSymbolicLink()) await fs.symlink(await fs.readlink(src), dest);
  else if (st.isFile()) await fs.copyFile(src, dest);
  else throw new Error(`${rel} is not a file`);
}

/**
 * Build the trusted tree at `dest`. `patch` plan: the patch tree with `files` in their baseline
 * version (a renamed file's new path removed). `baseline` plan: the baseline tree, whose
 * `node_modules` leads to the baseline's installed packages, with `fromPatch` applied
 * (deletions first).
 */
export async function buildTrustedTree(
  patch: string,
  baseline: string,
  plan: TrustedPlan,
  dest: string,
): Promise<void> {
  if (plan.tree === 'patch') {
    await copyTree(patch, dest);
    for (const f of plan.files) {
      if (f.renamed_to !== null) await fs.rm(inside(dest, f.renamed_to), { force: true });
      await copyInto(baseline, dest, f.path);
    }
    return;
  }
  await copyTree(baseline, dest);
  // copyTree gives the copy a folder of links to the baseline's packages; one link to the
  // packages themselves resolves the same, and lets each execution's copy (and the sandbox,
  // which binds the folder a tree's node_modules leads to) reach them as for the baseline's runs.
  const packages = await installedPackages(baseline);
  if (packages !== null) {
    await removeTree(path.join(dest, 'node_modules'));
    await fs.symlink(packages, path.join(dest, 'node_modules'));
  }
  for (const c of plan.fromPatch.filter((x) => x.change === 'deleted')) await removeInside(dest, c.path);
  for (const c of plan.fromPatch.filter((x) => x.change !== 'deleted')) await copyInto(patch, dest, c.path, c.from);
}

/**
 * The baseline tests the trusted execution does not pass: passed on every baseline execution of
 * the command, and failed, errored, was skipped or was absent in the trusted run. Tests already
 * called regressions or flaky are left to those reasons.
 */
export function trustedFailures(
  baseline: readonly Execution[],
  trusted: Execution,
  leave: ReadonlySet<string>,
): TrustedTests['failed'] {
  const runs = baseline.filter(measured);
  if (runs.length === 0 || !measured(trusted)) return [];
  const seen = new Map<string, TestResult['outcome'][]>();
  for (const e of runs) for (const t of e.tests) seen.set(t.id, [...(seen.get(t.id) ?? []), t.outcome]);
  const now = new Map(trusted.tests.map((t) => [t.id, t.outcome]));
  const out: TrustedTests['failed'] = [];
  for (const [id, was] of [...seen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (leave.has(id) || was.length !== runs.length || !was.every((o) => o === 'passed')) continue;
    const outcome = now.get(id) ?? 'absent';
    if (outcome !== 'passed') out.push({ id, outcome });
  }
  return out;
}
