/**
 * A test title the patch reworded with the test's body unchanged (ag-oracle finds them), and
 * the rule that ties one to a rename pair of test ids (ag-decide applies it).
 * @module
 */
import { fileOfId } from './flaky.js';

/** A reworded title in one test file (`from_path`: the file's baseline path, when the patch moved it). */
export interface RetitledTest {
  readonly path: string;
  readonly from_path?: string;
  readonly from: string;
  readonly to: string;
}

/**
 * True when the run's rename pair `from → to` (test ids) is one reworded title: `to` is `from`
 * with one occurrence of the old title replaced by the new one.
 */
export function isRetitle(ids: RenamePair, t: RetitledTest): boolean {
  return retitledIds(ids, t).includes(ids.to);
}

/** A run's rename pair of test ids (`file`: the test file, when the run names it). */
interface RenamePair {
  readonly from: string;
  readonly to: string;
  readonly file?: string | null;
}

/** The ids `ids.from` becomes with one occurrence of `t`'s old title replaced by its new one. */
function retitledIds(ids: RenamePair, t: RetitledTest): string[] {
  if (t.from === '') return [];
  const was = t.from_path ?? t.path;
  // The run names the file a pair was found in by the patch's path (a moved file's new one).
  const file = ids.file ?? fileOfId(ids.from);
  if (file !== null && file !== was && file !== t.path) return [];
  let from = ids.from;
  if (t.from_path !== undefined) {
    // A moved file: the id names the baseline's path, which becomes the patch's.
    if (!from.startsWith(`${was}::`)) return [];
    from = t.path + from.slice(was.length);
    if (t.from === t.to) return [from];
  }
  const out: string[] = [];
  for (let i = from.indexOf(t.from); i >= 0; i = from.indexOf(t.from, i + 1))
    out.push(from.slice(0, i) + t.to + from.slice(i + t.from.length));
  return out;
}

/**
 * The rename pairs no reworded title explains. A pair that is one reworded title is explained;
 * so are pairs the run matched otherwise among several reworded titles (old titles paired with
 * the wrong new ones): when the old ids of a set of pairs, each retitled, are exactly their new
 * ids, one for one, the set is a permutation of reworded titles.
 */
export function unexplainedRenames<P extends RenamePair>(pairs: readonly P[], retitled: readonly RetitledTest[]): P[] {
  const rest = pairs.filter((r) => !retitled.some((t) => isRetitle(r, t)));
  const tos = new Set(rest.map((r) => r.to));
  const targets = rest.map((r) => retitled.flatMap((t) => retitledIds(r, t)).filter((id) => tos.has(id)));
  const group = rest.flatMap((r, i) => (targets[i]!.length === 1 ? [{ r, target: targets[i]![0]! }] : []));
  const reached = new Set(group.map((g) => g.target));
  const closed = group.filter((g) => reached.has(g.r.to));
  const closedTargets = new Set(closed.map((g) => g.target));
  const permutation =
    closed.length > 0 && closedTargets.size === closed.length && closed.every((g) => closedTargets.has(g.r.to));
  return permutation ? rest.filter((r) => !closed.some((g) => g.r === r)) : rest;
}
