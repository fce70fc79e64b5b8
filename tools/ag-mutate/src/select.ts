/**
 * Which mutants run: every changed line gets its best-ranked mutant before any line gets
 * a second (`--max` spreads over lines), and `--shard K/N` takes a deterministic slice.
 * @module
 */
import type { Site } from './engines/site.js';

function byPosition(a: Site, b: Site): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return (
    a.start - b.start || a.end - b.end || (a.replacement < b.replacement ? -1 : a.replacement > b.replacement ? 1 : 0)
  );
}

/**
 * The budget in effect: `max`, raised to one mutant per line with a site when those lines
 * number at most `lineBudget` (`--line-budget`: a small budget never leaves a line of a
 * modest patch unmeasured); null (every site) stays null.
 */
export function effectiveBudget(sites: readonly Site[], max: number | null, lineBudget: number): number | null {
  if (max === null) return null;
  const lines = new Set(sites.map((s) => `${s.file}\0${s.line}`)).size;
  return lines <= lineBudget ? Math.max(max, lines) : max;
}

/**
 * Order sites round-robin over lines: round r takes the r-th best site of every line
 * (lower rank first, then position), lines in file and line order. The first `max` are
 * kept (all when max is null). The result is sorted by file and position.
 */
export function selectSites(sites: readonly Site[], max: number | null): Site[] {
  const lines = new Map<string, Site[]>();
  for (const site of sites) {
    const key = `${site.file}\0${String(site.line).padStart(10, '0')}`;
    const list = lines.get(key) ?? [];
    list.push(site);
    lines.set(key, list);
  }
  const keys = [...lines.keys()].sort();
  for (const key of keys) lines.get(key)!.sort((a, b) => a.rank - b.rank || byPosition(a, b));
  const chosen: Site[] = [];
  const limit = max ?? Number.POSITIVE_INFINITY;
  for (let round = 0; chosen.length < limit; round++) {
    let any = false;
    for (const key of keys) {
      const site = lines.get(key)![round];
      if (site === undefined) continue;
      any = true;
      if (chosen.length < limit) chosen.push(site);
    }
    if (!any) break;
  }
  return chosen.sort(byPosition);
}

/** The most mutant sites of added guards judged beyond the budget. */
export const GUARD_SITES = 16;

/**
 * `selected` with every site on the lines of an added guard (a revert site whose hunk only adds
 * one `if`: added-guard.ts) that the budget left out, when those number at most
 * {@link GUARD_SITES} in all; otherwise `selected` as it is. ag-decide reads a guard only from
 * all of its mutants. Sorted by file and position.
 */
export function withGuardSites(selected: readonly Site[], all: readonly Site[], reverts: readonly Site[]): Site[] {
  const guards = reverts.filter((r) => r.revert?.addedGuard === true);
  const chosen = new Set(selected);
  const onGuard = (s: Site) =>
    guards.some(
      (g) => g.file === s.file && s.line >= g.revert!.newStart && s.line < g.revert!.newStart + g.revert!.newLines,
    );
  const extra = all.filter((s) => !chosen.has(s) && onGuard(s));
  return extra.length === 0 || extra.length > GUARD_SITES ? [...selected] : [...selected, ...extra].sort(byPosition);
}

/** A shard: the K-th (1-based) of N. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Parse `K/N` (1 ≤ K ≤ N); null when malformed. */
export function parseShard(text: string): Shard | null {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) return null;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count)
    return null;
  return { index, count };
}

/** The sites of one shard: every N-th site of the selected list, starting at K-1. */
export function shardSites<T>(selected: readonly T[], shard: Shard | null): T[] {
  if (shard === null) return [...selected];
  return selected.filter((_, i) => i % shard.count === shard.index - 1);
}

/** The order in which the mutants are judged (`--order`); the artefact keeps the sites' own order. */
export type MutantOrder =
  { readonly kind: 'forward' } | { readonly kind: 'reverse' } | { readonly kind: 'shuffle'; readonly seed: number };

/** Parse `forward`, `reverse` or `shuffle:SEED` (SEED a non-negative integer); null when malformed. */
export function parseOrder(text: string): MutantOrder | null {
  if (text === 'forward' || text === 'reverse') return { kind: text };
  const m = /^shuffle:(\d{1,9})$/.exec(text);
  return m === null ? null : { kind: 'shuffle', seed: Number(m[1]) };
}

/** A small deterministic generator (mulberry32): the same seed gives the same shuffle everywhere. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The indices 0..n-1 in the judging order. */
export function judgingOrder(n: number, order: MutantOrder): number[] {
  const indices = Array.from({ length: n }, (_, i) => i);
  if (order.kind === 'reverse') return indices.reverse();
  if (order.kind === 'shuffle') {
    const next = generator(order.seed);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [indices[i], indices[j]] = [indices[j]!, indices[i]!];
    }
  }
  return indices;
}
