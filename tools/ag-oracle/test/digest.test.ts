import test from 'ava';
import { compareManifests, manifestDigest } from '../src/fixtures/digest.js';
import type { Manifest } from '../src/fixtures/manifest.js';

const m = (entries: [string, 'file' | 'symlink', string][]): Manifest => ({
  absent: false,
  entries: entries.map(([path, type, value]) => ({ path, type, value })),
});
const absent: Manifest = { absent: true, entries: [] };

test('equal manifests give equal digests and no listed difference', (t) => {
  const c = compareManifests('fx', m([['fx/a', 'file', 'aa']]), m([['fx/a', 'file', 'aa']]));
  t.is(c.expected, c.actual);
  t.deepEqual([c.added, c.removed, c.changed, c.symlinks], [[], [], [], []]);
});

test('added, removed and changed entries are listed; a type change is a change', (t) => {
  const c = compareManifests(
    'fx',
    m([
      ['fx/a', 'file', 'aa'],
      ['fx/b', 'file', 'bb'],
      ['fx/c', 'file', 'cc'],
    ]),
    m([
      ['fx/a', 'file', 'aa'],
      ['fx/c', 'symlink', 'cc'],
      ['fx/d', 'file', 'dd'],
    ]),
  );
  t.not(c.expected, c.actual);
  t.deepEqual([c.added, c.removed, c.changed, c.symlinks], [['fx/d'], ['fx/b'], ['fx/c'], ['fx/c']]);
});

test('a renamed file changes the digest even with the same bytes', (t) => {
  t.not(manifestDigest(m([['fx/a', 'file', 'aa']])), manifestDigest(m([['fx/b', 'file', 'aa']])));
});

test('an empty root and an absent one differ, and the difference is listed', (t) => {
  t.not(manifestDigest(absent), manifestDigest(m([])));
  const gone = compareManifests('fx', m([]), absent);
  t.deepEqual(gone.removed, ['fx']);
  const made = compareManifests('fx', absent, m([]));
  t.deepEqual(made.added, ['fx']);
});

test('a root absent on both sides digests equal', (t) => {
  const c = compareManifests('fx', absent, absent);
  t.is(c.expected, c.actual);
  t.deepEqual([c.added, c.removed, c.changed], [[], [], []]);
});
