/**
 * What the tests' uids left where every uid may write, per side: each execution's sweep
 * (ag-core's `sweepLeftovers`, after its processes are gone) gathered into run.json's
 * `left_behind`, with what only the patch side left. ag-decide holds on the latter.
 * @module
 */
import type { Leftovers } from '@adversary-gate/core';
import { LEFT_BEHIND_LISTED, type LeftBehind } from '@adversary-gate/schemas';

/** One execution's side and what its uid left (null: it ran as the caller's uid, nothing was swept). */
export interface SweptRun {
  readonly side: 'baseline' | 'patch';
  readonly leftovers: Leftovers | null;
}

const listed = (paths: ReadonlySet<string>) => [...paths].sort().slice(0, LEFT_BEHIND_LISTED);

/** run.json's `left_behind`, or null when no execution was swept (the tests ran as the caller). */
export function leftBehind(runs: readonly SweptRun[]): LeftBehind | null {
  if (runs.length === 0 || runs.some((r) => r.leftovers === null)) return null;
  const of = (side: 'baseline' | 'patch') =>
    new Set(runs.filter((r) => r.side === side).flatMap((r) => r.leftovers!.paths));
  const baseline = of('baseline');
  const patch = of('patch');
  const patchOnly = new Set([...patch].filter((p) => !baseline.has(p)));
  return {
    baseline: listed(baseline),
    baseline_total: baseline.size,
    patch: listed(patch),
    patch_total: patch.size,
    patch_only: listed(patchOnly),
    patch_only_total: patchOnly.size,
  };
}
