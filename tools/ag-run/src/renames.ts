/**
 * Renamed tests: a test lost on the patch while a new test appears in the same file (or in the
 * file the patch renamed it to) is a rename pair, not a loss. Pure: where a test lives is asked
 * of a locator.
 * @module
 */
import type { RenamedTest } from '@adversary-gate/schemas';

/**
 * The files (repository paths) a test's name is found in on one side; empty when unknown.
 * `extra` names files to look in beyond the ones the patch changed.
 */
export type Locator = (id: string, side: 'baseline' | 'patch', extra?: readonly string[]) => readonly string[];

/** The name a test file spells out for an id: its last segment, without pytest's parameters. */
export function nameOfId(id: string): string {
  const last = id.split('::').pop()!.split(' > ').pop()!;
  return last.replace(/\[.*\]$/, '').trim();
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) m.set(s.slice(i, i + 2), (m.get(s.slice(i, i + 2)) ?? 0) + 1);
  return m;
}

/** Dice similarity of two ids over character bigrams, in [0, 1]. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = bigrams(a);
  const y = bigrams(b);
  let common = 0;
  for (const [k, n] of x) common += Math.min(n, y.get(k) ?? 0);
  const total = Math.max(a.length - 1, 0) + Math.max(b.length - 1, 0);
  return total === 0 ? 0 : (2 * common) / total;
}

/**
 * Pair lost tests with added ones that live in the same file (after the diff's renames, old
 * path → new path). Each test takes part in at most one pair, the most similar ids first; the
 * lost tests left over stay lost.
 */
export function pairRenames(
  lost: readonly string[],
  added: readonly string[],
  locate: Locator,
  renamed: ReadonlyMap<string, string>,
): { renamed: RenamedTest[]; lost: string[] } {
  const candidates: { from: string; to: string; file: string; score: number }[] = [];
  for (const from of lost) {
    const before = new Set(locate(from, 'baseline').map((f) => renamed.get(f) ?? f));
    if (before.size === 0) continue;
    for (const to of added) {
      const file = locate(to, 'patch').find((f) => before.has(f));
      if (file !== undefined) candidates.push({ from, to, file, score: similarity(from, to) });
    }
  }
  candidates.sort(
    (a, b) =>
      b.score - a.score || (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0),
  );
  const usedFrom = new Set<string>();
  const usedTo = new Set<string>();
  const pairs: RenamedTest[] = [];
  for (const c of candidates) {
    if (usedFrom.has(c.from) || usedTo.has(c.to)) continue;
    usedFrom.add(c.from);
    usedTo.add(c.to);
    pairs.push({ from: c.from, to: c.to, file: c.file });
  }
  pairs.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  return { renamed: pairs, lost: lost.filter((id) => !usedFrom.has(id)) };
}
