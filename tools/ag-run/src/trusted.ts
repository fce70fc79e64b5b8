/**
 * The trusted tests judge the patched code: every test file (and runner configuration) the
 * patch changes, deletes or renames is put back in its baseline version into a copy of the
 * patch tree, and the full suite runs there once. A baseline test that passed on the baseline
 * and does not pass there is named: the patch changes behaviour a trusted test pins, or weakened
 * the test that would have caught it. Tests the patch adds keep running as they are elsewhere.
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { copyTree, isWithin, type DiffModel, type FileClass } from '@adversary-gate/core';
import type { Execution, TestResult, TrustedTests } from '@adversary-gate/schemas';
import { measured } from './per-test.js';

/** One file the trusted tree takes from the baseline. */
export type TrustedFile = TrustedTests['files'][number];

/** Runner configuration: the baseline's decides how the trusted tests run. */
const RUNNER_CONFIG =
  /(^|\/)(pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|\.mocharc\.[a-z]+|(jest|vitest|ava)\.config\.[a-z]+|\.c8rc(\.[a-z]+)?|\.nycrc(\.[a-z]+)?)$/;

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
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function inside(root: string, rel: string): string {
  const full = path.resolve(root, rel);
  if (full === path.resolve(root) || !isWithin(root, full)) throw new Error(`${rel} leaves the tree`);
  return full;
}

/** Build the trusted tree at `dest`: the patch tree with `files` in their baseline version (a renamed file's new path removed). */
export async function buildTrustedTree(
  patch: string,
  baseline: string,
  files: readonly TrustedFile[],
  dest: string,
): Promise<void> {
  await copyTree(patch, dest);
  for (const f of files) {
    if (f.renamed_to !== null) await fs.rm(inside(dest, f.renamed_to), { force: true });
    const to = inside(dest, f.path);
    await fs.rm(to, { force: true, recursive: true });
    await fs.mkdir(path.dirname(to), { recursive: true });
    const from = inside(baseline, f.path);
    const st = await fs.lstat(from);
    if (st.isSymbolicLink()) await fs.symlink(await fs.readlink(from), to);
    else await fs.copyFile(from, to);
  }
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
