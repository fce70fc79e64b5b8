/**
 * Judge a patch with the real binary and keep the tampering findings of some kinds, as
 * `[kind, path:line, detail]`.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { OracleArtefact } from '@adversary-gate/schemas';
import { makeRepos, oracleArgs, runOracle, type Tree } from './repo.js';

export type Found = readonly [kind: string, where: string, detail: string];

/** Judge `changes` on `base` (no policy file unless the base has one); the findings of `kinds`. */
export async function findings(
  base: Tree,
  changes: Tree,
  kinds: readonly string[] = ['expectation_changed', 'placeholder_test'],
): Promise<Found[]> {
  const repos = await makeRepos(base, changes);
  const r = await runOracle(oracleArgs(repos));
  if (r.status !== 0) throw new Error(r.stderr);
  const a = v.parse(OracleArtefact, JSON.parse(readFileSync(repos.out, 'utf8')));
  return a.tampering
    .filter((f) => kinds.includes(f.kind))
    .map((f) => [f.kind, `${f.path}:${f.line}`, f.detail] as const);
}

/** `kind path:line` of each finding. */
export const where = (fs: readonly Found[]) => fs.map(([k, w]) => `${k} ${w}`);
