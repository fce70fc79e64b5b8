import test from 'ava';
import type { Site } from '../src/engines/site.js';
import { effectiveBudget, judgingOrder, parseShard, selectSites, shardSites } from '../src/select.js';

function site(file: string, line: number, start: number, rank: number, replacement = 'x'): Site {
  return {
    file,
    line,
    column: 1,
    start,
    end: start + 1,
    operator: `op${rank}`,
    rank,
    original: 'o',
    replacement,
    parses: true,
  };
}

const SITES = [
  site('a.js', 1, 0, 5),
  site('a.js', 1, 1, 1),
  site('a.js', 1, 2, 3),
  site('a.js', 2, 10, 7),
  site('b.js', 1, 0, 2),
  site('b.js', 1, 1, 2),
];

test('every changed line gets its best-ranked mutant before any line gets a second', (t) => {
  const chosen = selectSites(SITES, 3);
  t.deepEqual(
    chosen.map((s) => `${s.file}:${s.line}:${s.rank}`),
    ['a.js:1:1', 'a.js:2:7', 'b.js:1:2'],
  );
});

test('the second round goes to the second-best of each line', (t) => {
  const chosen = selectSites(SITES, 5);
  t.deepEqual(
    chosen.map((s) => `${s.file}:${s.start}`),
    ['a.js:1', 'a.js:2', 'a.js:10', 'b.js:0', 'b.js:1'],
  );
});

test('no budget keeps every site, sorted by position; selection ignores input order', (t) => {
  t.is(selectSites(SITES, null).length, SITES.length);
  t.deepEqual(selectSites([...SITES].reverse(), 4), selectSites(SITES, 4));
});

test('the line budget raises a small budget to one mutant per line, within its bound', (t) => {
  t.is(effectiveBudget(SITES, 1, 0), 1, 'no line budget: --max alone');
  t.is(effectiveBudget(SITES, 1, 3), 3, 'three lines within a line budget of 3: one each');
  t.deepEqual(
    selectSites(SITES, effectiveBudget(SITES, 1, 3)).map((s) => `${s.file}:${s.line}`),
    ['a.js:1', 'a.js:2', 'b.js:1'],
  );
  t.is(effectiveBudget(SITES, 1, 2), 1, 'more lines than the line budget: --max alone');
  t.is(effectiveBudget(SITES, 5, 3), 5, 'a larger --max stands');
  t.is(effectiveBudget(SITES, null, 3), null, 'no --max: every site');
});

test('shards are disjoint, complete and deterministic', (t) => {
  const all = selectSites(SITES, null);
  const parts = [1, 2, 3].map((k) => shardSites(all, { index: k, count: 3 }));
  t.deepEqual(
    parts.flat().sort((a, b) => a.start - b.start || a.file.localeCompare(b.file)),
    [...all].sort((a, b) => a.start - b.start || a.file.localeCompare(b.file)),
  );
  t.is(new Set(parts.flat()).size, all.length);
  t.deepEqual(shardSites(all, null), all);
});

test('a shard is K/N with 1 ≤ K ≤ N', (t) => {
  t.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
  for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1/2/3', '-1/2', '']) t.is(parseShard(bad), null, bad);
});

test('judging orders: forward, reverse, and a shuffle that is a permutation fixed by its seed', (t) => {
  t.deepEqual(judgingOrder(4, { kind: 'forward' }), [0, 1, 2, 3]);
  t.deepEqual(judgingOrder(4, { kind: 'reverse' }), [3, 2, 1, 0]);
  const a = judgingOrder(50, { kind: 'shuffle', seed: 3 });
  t.deepEqual(
    [...a].sort((x, y) => x - y),
    judgingOrder(50, { kind: 'forward' }),
  );
  t.notDeepEqual(a, judgingOrder(50, { kind: 'forward' }));
  t.deepEqual(judgingOrder(50, { kind: 'shuffle', seed: 3 }), a);
  t.notDeepEqual(judgingOrder(50, { kind: 'shuffle', seed: 4 }), a);
});
