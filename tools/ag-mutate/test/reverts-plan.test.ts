// Hunks and their reverts, without running anything: `-U0` hunks from a diff's line numbers,
// the baseline text put back, comment-only hunks skipped, hunks that only parse together merged.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseUnifiedDiff } from '@adversary-gate/core';
import { jsCode } from '../src/engines/js-code.js';
import { judgedReverts, REVERT_BUDGET_FLOOR } from '../src/revert-plan.js';
import { hunkHeader, hunksOf, revertEdit } from '../src/hunks.js';
import { narrowedHunks } from '../src/revert-narrow.js';
import { revertSites } from '../src/reverts.js';
import { wholeFileRevert } from '../src/whole-file-revert.js';

function diffOf(before: string, after: string): string {
  // A -U0 diff by hand is error-prone; the model only needs line numbers and removed text.
  const a = before.split('\n').slice(0, -1);
  const b = after.split('\n').slice(0, -1);
  const out = ['diff --git a/f.js b/f.js', '--- a/f.js', '+++ b/f.js', `@@ -1,${a.length} +1,${b.length} @@`];
  // Longest common subsequence, so unchanged lines are context.
  const n = a.length;
  const m = b.length;
  const l = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      l[i]![j] = a[i] === b[j] ? l[i + 1]![j + 1]! + 1 : Math.max(l[i + 1]![j]!, l[i]![j + 1]!);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push(` ${a[i]}`);
      i++;
      j++;
    } else if (j >= m || (i < n && l[i + 1]![j]! >= l[i]![j + 1]!)) out.push(`-${a[i++]}`);
    else out.push(`+${b[j++]}`);
  }
  return `${out.join('\n')}\n`;
}

const jsCheck = (text: string) => async (texts: readonly string[]) =>
  texts.map((x) => ({ parses: jsCode('f.js', x) !== null, same: jsCode('f.js', x) === jsCode('f.js', text) }));

const BEFORE = `function div(a, b) {\n  if (b === 0) throw new Error('zero');\n  return a / b;\n}\nfunction add(a, b) {\n  return a - b;\n}\n`;
const AFTER = `function div(a, b) {\n  return a / b;\n}\nfunction add(a, b) {\n  // sums\n  return a + b;\n}\n`;

test('hunks are the runs of removed and added lines, with git headers', (t) => {
  const file = parseUnifiedDiff(diffOf(BEFORE, AFTER)).files[0]!;
  const hunks = hunksOf(file);
  t.deepEqual(
    hunks.map((h) => [hunkHeader(h, h), h.removed]),
    [
      ['@@ -2 +1,0 @@', ["  if (b === 0) throw new Error('zero');"]],
      ['@@ -6 +5,2 @@', ['  return a - b;']],
    ],
  );
});

test('a revert puts the baseline lines back: a deletion before its line, a change in place', (t) => {
  const hunks = hunksOf(parseUnifiedDiff(diffOf(BEFORE, AFTER)).files[0]!);
  const apply = (k: number) => {
    const e = revertEdit(AFTER, hunks, k, k);
    return AFTER.slice(0, e.start) + e.replacement + AFTER.slice(e.end);
  };
  t.is(
    apply(0),
    `function div(a, b) {\n  if (b === 0) throw new Error('zero');\n  return a / b;\n}\nfunction add(a, b) {\n  // sums\n  return a + b;\n}\n`,
  );
  t.is(apply(1), `function div(a, b) {\n  return a / b;\n}\nfunction add(a, b) {\n  return a - b;\n}\n`);
  const all = revertEdit(AFTER, hunks, 0, 1);
  t.is(AFTER.slice(0, all.start) + all.replacement + AFTER.slice(all.end), BEFORE);
});

test('a hunk whose revert leaves the code as it is gets no revert mutant', async (t) => {
  const before = `function f(x) {\n  return x + 1;\n}\n`;
  const after = `// one more\nfunction f(x) {\n  return (x + 1);\n}\n`;
  const hunks = hunksOf(parseUnifiedDiff(diffOf(before, after)).files[0]!);
  t.is(hunks.length, 2);
  t.deepEqual(await revertSites('f.js', after, hunks, jsCheck(after)), []);
});

test('hunks whose reverts parse only together are reverted together', async (t) => {
  const before = `function f(x) {\n  g(x);\n  h(x);\n  return x;\n}\n`;
  const after = `function f(x) {\n  try {\n  g(x);\n  h(x);\n  } catch {}\n  return x;\n}\n`;
  const hunks = hunksOf(parseUnifiedDiff(diffOf(before, after)).files[0]!);
  t.is(hunks.length, 2);
  const sites = await revertSites('f.js', after, hunks, jsCheck(after));
  t.is(sites.length, 1);
  t.is(sites[0]!.revert!.header, '@@ -2,2 +2,4 @@');
  t.true(sites[0]!.parses);
  t.is(after.slice(0, sites[0]!.start) + sites[0]!.replacement + after.slice(sites[0]!.end), before);
});

test('a run of hunks that never parses is one stillborn revert', async (t) => {
  const before = `function f(x) {\n  return x;\n}\n`;
  const after = `function f(x) {\n  return x + 1;\n}\n`;
  const hunks = hunksOf(parseUnifiedDiff(diffOf(before, after)).files[0]!);
  const sites = await revertSites('f.js', after, hunks, async (texts) =>
    texts.map(() => ({ parses: false, same: false })),
  );
  t.deepEqual(
    sites.map((s) => [s.revert!.header, s.parses]),
    [['@@ -2 +2 @@', false]],
  );
});

test('the budget bounds the reverts apart from the mutants, at least 16 run, the rest are recorded not_run', async (t) => {
  const n = REVERT_BUDGET_FLOOR + 2;
  const fn = (k: number, op: string) => `export function f${k}(x) {\n  return x ${op} ${k};\n}\n`;
  const before = Array.from({ length: n }, (_, k) => fn(k, '+')).join('');
  const after = Array.from({ length: n }, (_, k) => fn(k, '-')).join('');
  const model = parseUnifiedDiff(diffOf(before, after));
  const plan = (max: number | null) =>
    judgedReverts({
      files: ['f.js'],
      texts: new Map([['f.js', after]]),
      tree: '/nonexistent',
      model,
      python: 'python3',
      spots: [],
      max,
      shard: null,
    });
  const bounded = await plan(1);
  // The hunks' first 16, and the file's whole-file revert apart from them.
  t.is(bounded.run.length, REVERT_BUDGET_FLOOR + 1);
  t.deepEqual(
    bounded.run.filter((s) => s.revert!.scope === 'file').map((s) => s.revert!.header),
    [`@@ -2,${3 * n - 2} +2,${3 * n - 2} @@`],
  );
  const records = bounded.records(new Map());
  t.is(records.length, n + 1);
  t.deepEqual(
    records.slice(REVERT_BUDGET_FLOOR + 1).map((r) => r.hunk),
    [`@@ -${3 * n - 4} +${3 * n - 4} @@`, `@@ -${3 * n - 1} +${3 * n - 1} @@`],
  );
  t.is((await plan(null)).run.length, n + 1);
  t.is((await plan(40)).run.length, n + 1);
});

test('the whole-file revert puts back every hunk revert at once, new definitions kept; none for a file of one', async (t) => {
  const hunks = hunksOf(parseUnifiedDiff(CAPPED_DIFF).files[0]!);
  const sites = await revertSites('f.js', CAPPED, hunks, jsCheck(CAPPED));
  const whole = await wholeFileRevert('f.js', CAPPED, sites, jsCheck(CAPPED));
  t.truthy(whole);
  t.is(whole!.revert!.scope, 'file');
  t.is(whole!.revert!.header, '@@ -4,4 +5,9 @@');
  t.deepEqual(
    whole!.revert!.parts!.map((p) => p.start),
    sites.map((s) => s.start),
  );
  const reverted = CAPPED.slice(0, whole!.start) + whole!.replacement + CAPPED.slice(whole!.end);
  t.is(
    reverted,
    CAPPED.replace(
      '  const capped = Math.min(pct, MAX);\n  return total * (1 - capped / 100);\n',
      '  return total * (1 - pct / 100);\n',
    ).replace('module.exports = { applyDiscount, formatTotal };', 'module.exports = { applyDiscount };'),
  );
  t.is(await wholeFileRevert('f.js', CAPPED, sites.slice(0, 1), jsCheck(CAPPED)), null, 'one hunk revert: none');
  const stillborn = sites.map((s, i) => (i === 0 ? { ...s, parses: false } : s));
  t.is(await wholeFileRevert('f.js', CAPPED, stillborn, jsCheck(CAPPED)), null, 'only one compiles: none');
});

test('a hunk that only adds whole top-level statements gets no revert; one inside a function does', async (t) => {
  const before = `import a from 'a';\nfunction f(x) {\n  return x;\n}\n`;
  const after = `import a from 'a';\nimport b from 'b';\nfunction f(x) {\n  if (x < 0) x = 0;\n  return x;\n}\n\nfunction g() {\n  return 1;\n}\n`;
  const hunks = hunksOf(parseUnifiedDiff(diffOf(before, after)).files[0]!);
  t.is(hunks.length, 3);
  const sites = await revertSites('f.js', after, hunks, jsCheck(after));
  t.deepEqual(
    sites.map((s) => s.revert!.header),
    ['@@ -2,0 +4 @@'],
  );
});

/** a03's diff as git aligns it: the old function's `}` closes the new one. */
const CAPPED = `'use strict';
const MAX = 50;

function applyDiscount(total, pct) {
  const capped = Math.min(pct, MAX);
  return total * (1 - capped / 100);
}

function formatTotal(amount) {
  return amount.toFixed(2);
}

module.exports = { applyDiscount, formatTotal };
`;
const CAPPED_DIFF = `diff --git a/f.js b/f.js
--- a/f.js
+++ b/f.js
@@ -1,0 +2 @@
+const MAX = 50;
@@ -4 +5,6 @@
-  return total * (1 - pct / 100);
+  const capped = Math.min(pct, MAX);
+  return total * (1 - capped / 100);
+}
+
+function formatTotal(amount) {
+  return amount.toFixed(2);
@@ -7 +13 @@
-module.exports = { applyDiscount };
+module.exports = { applyDiscount, formatTotal };
`;

test('a hunk that changes a function and then adds a new one reverts the change alone, keeping the new definition', async (t) => {
  const hunks = hunksOf(parseUnifiedDiff(CAPPED_DIFF).files[0]!);
  t.is(hunks.length, 3);
  const sites = await revertSites('f.js', CAPPED, hunks, jsCheck(CAPPED));
  t.deepEqual(
    sites.map((s) => s.revert!.header),
    ['@@ -4 +5,2 @@', '@@ -7 +13 @@'],
  );
  const reverted = CAPPED.slice(0, sites[0]!.start) + sites[0]!.replacement + CAPPED.slice(sites[0]!.end);
  t.is(
    reverted,
    CAPPED.replace(
      '  const capped = Math.min(pct, MAX);\n  return total * (1 - capped / 100);\n',
      '  return total * (1 - pct / 100);\n',
    ),
  );
  t.true(sites[0]!.parses);
  t.is(sites[0]!.function, null, 'no spots given: no name');
});

test('a definition the hunk changes is never kept beside the one put back (no narrowing), JS and Python', (t) => {
  // `var RATE` changed under a changed comment: keeping the new line would define it twice.
  const js = { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, removed: ['// old', 'var RATE = 0.2;'] };
  t.deepEqual(narrowedHunks('f.js', '// new\nvar RATE = 0.25;\n', js), []);
  const py = { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, removed: ['# old', 'def f(x): return x'] };
  t.deepEqual(narrowedHunks('f.py', '# new\ndef f(x): return x + 1\n', py), []);
  // A new decorated function after a changed body line: narrowed to the lines before its decorator.
  const text = 'def f(x):\n    return x + 1\n\n\n@cache\ndef g(y):\n    return y\n';
  const added = { oldStart: 2, oldLines: 1, newStart: 2, newLines: 5, removed: ['    return x'] };
  t.deepEqual(
    narrowedHunks('f.py', text, added).map((h) => [h.newStart, h.newLines]),
    [
      [2, 3],
      [2, 2],
      [2, 1],
    ],
  );
});

test('a new function before a changed exports line: the exports line alone is put back', async (t) => {
  const before = `function a(s) {\n  return s;\n}\n\nmodule.exports = { a };\n`;
  const after = `function a(s) {\n  return s;\n}\n\n// slug\nfunction slugify(s) {\n  return s.trim();\n}\n\nmodule.exports = { a, slugify };\n`;
  const diff = `diff --git a/f.js b/f.js\n--- a/f.js\n+++ b/f.js\n@@ -5 +5,6 @@\n-module.exports = { a };\n+// slug\n+function slugify(s) {\n+  return s.trim();\n+}\n+\n+module.exports = { a, slugify };\n`;
  const hunks = hunksOf(parseUnifiedDiff(diff).files[0]!);
  const sites = await revertSites('f.js', after, hunks, jsCheck(after));
  t.deepEqual(
    sites.map((s) => s.revert!.header),
    ['@@ -5 +10 @@'],
  );
  const reverted = after.slice(0, sites[0]!.start) + sites[0]!.replacement + after.slice(sites[0]!.end);
  t.is(reverted, after.replace('module.exports = { a, slugify };', 'module.exports = { a };'));
  t.true(reverted.includes('function slugify'), 'the new function stays');
  t.is(before.split('\n').length, 6);
});

test('Python: a revert that loses a top-level name both sides define is widened over its neighbours until it keeps it', async (t) => {
  // A class rewritten as a dataclass: the class header changes in one hunk, its methods in
  // others. The header hunk's revert alone would nest the old methods in `_order` and leave
  // no `Version` (it compiles, and fails to load).
  const before = `import re\n\n\nclass Version:\n    def __init__(self, major):\n        self.major = major\n\n    def _key(self):\n        return (self.major,)\n\n    def __eq__(self, other):\n        return self._key() == other._key()\n\n    def __lt__(self, other):\n        return self._key() < other._key()\n\n\ndef parse(text):\n    return Version(int(text))\n`;
  const after = `import re\nfrom dataclasses import dataclass\n\n\ndef _order(v):\n    return (v.major, 1)\n\n\n@dataclass(frozen=True)\nclass Version:\n    major: int\n\n    def __lt__(self, other):\n        return _order(self) < _order(other)\n\n\ndef parse(text):\n    return Version(int(text))\n`;
  const dir = mkdtempSync(path.join(tmpdir(), 'ag-widen-'));
  try {
    writeFileSync(path.join(dir, 'm.py'), after);
    const model = parseUnifiedDiff(diffOf(before, after).replace(/f\.js/g, 'm.py'));
    const plan = await judgedReverts({
      files: ['m.py'],
      texts: new Map([['m.py', after]]),
      tree: dir,
      model,
      python: '/usr/bin/python3',
      spots: [],
      max: null,
      shard: null,
    });
    const reverted = plan.run.map((s) => after.slice(0, s.start) + s.replacement + after.slice(s.end));
    t.true(
      reverted.every((r) => /^class Version:/m.test(r)),
      'every revert keeps class Version',
    );
    t.true(
      plan.run.some((s) => s.revert!.scope === 'file'),
      'the whole-file revert is still made',
    );
    t.false(
      reverted.some((r) => r.includes('def _key') && !r.includes('def __eq__')),
      'the dead _key() alone gets no revert',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
