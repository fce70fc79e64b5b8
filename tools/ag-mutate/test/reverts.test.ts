// Revert mutants end to end: each hunk with the baseline's code put back, judged as a mutant is
// and never counted; a deleted guard beside a tested addition survives its revert, the guard's
// own test kills it; comment-only hunks get none; the budget never drops one silently. And the
// strength that type-breaking kills cannot dilute.
import test from 'ava';
import { makeRepo, repoArgs, type Files } from './helpers/repo.js';
import { measured } from './helpers/artefact.js';

const PKG: Files = { 'package.json': '{"type":"module"}\n' };

const BASE = `export function div(a, b) {
  if (b === 0) throw new Error('division by zero');
  return a / b;
}
`;
const PATCHED = `export function div(a, b) {
  return a / b;
}

export function add(a, b) {
  return a + b;
}
`;
const ADD_TEST = `import test from 'node:test';
import assert from 'node:assert/strict';
import { add, div } from '../src/calc.js';
test('add', () => assert.equal(add(2, 3), 5));
test('div', () => assert.equal(div(6, 3), 2));
`;
const GUARD_TEST = `${ADD_TEST}test('div by zero is Infinity now', () => assert.equal(div(1, 0), Infinity));
`;

const run = (repo: ReturnType<typeof makeRepo>, extra: string[] = []) =>
  [...repoArgs(repo, 'node --test test/'), '--jobs', '2', '--canary-seed', '1', ...extra] as const;

test('a deleted guard beside a tested addition: its revert survives, the addition is pinned', async (t) => {
  const repo = makeRepo(
    { ...PKG, 'src/calc.js': BASE, 'test/calc.test.js': ADD_TEST.replace(/^test\('add'.*\n/m, '') },
    { 'src/calc.js': PATCHED, 'test/calc.test.js': ADD_TEST },
  );
  t.teardown(repo.cleanup);
  const m = await measured(t, run(repo), repo.file('m.json'));
  const reverts = m.reverts ?? [];
  // The new function `add` is a top-level addition: no revert (its mutants judge it).
  t.is(reverts.length, 1, JSON.stringify(reverts));
  const guard = reverts.find((r) => r.new_lines === 0)!;
  t.like(guard, { file: 'src/calc.js', hunk: '@@ -2 +1,0 @@', old_start: 2, old_lines: 1, status: 'survived' });
  t.is(guard.function, 'div');
  // Never counted: the strength is the mutants' own.
  t.is(
    m.counts.killed + m.counts.survived + m.counts.no_coverage + m.counts.timeout + m.counts.stillborn,
    m.mutants.length,
  );
});

test("the same patch whose new test pins the guard's removal kills its revert", async (t) => {
  const repo = makeRepo(
    { ...PKG, 'src/calc.js': BASE, 'test/calc.test.js': ADD_TEST.replace(/^test\('add'.*\n/m, '') },
    { 'src/calc.js': PATCHED, 'test/calc.test.js': GUARD_TEST },
  );
  t.teardown(repo.cleanup);
  const m = await measured(t, run(repo), repo.file('m.json'));
  t.deepEqual(
    (m.reverts ?? []).map((r) => r.status),
    ['killed'],
  );
});

test('a comment-only hunk gets no revert; each changed hunk gets one', async (t) => {
  const base = `export function f(x) {\n  return x + 1;\n}\n\nexport function g(x) {\n  return x * 2;\n}\n`;
  const patch = `// adds one\nexport function f(x) {\n  return x + 2;\n}\n\nexport function g(x) {\n  return x * 3;\n}\n`;
  const t0 = `import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { f, g } from '../src/f.js';\ntest('f', () => { assert.equal(f(1), 3); assert.equal(g(1), 3); });\n`;
  const repo = makeRepo({ ...PKG, 'src/f.js': base }, { 'src/f.js': patch, 'test/f.test.js': t0 });
  t.teardown(repo.cleanup);
  const m = await measured(t, run(repo), repo.file('m.json'));
  t.deepEqual(
    (m.reverts ?? []).map((r) => [r.hunk, r.status, r.scope ?? 'hunk']),
    [
      ['@@ -2 +3 @@', 'killed', 'hunk'],
      ['@@ -2,5 +3,5 @@', 'killed', 'file'],
      ['@@ -6 +7 @@', 'killed', 'hunk'],
    ],
  );
});

const MUL = `export function mul(a, b) {\n  const product = a * b;\n  return product;\n}\n`;
const TYPEOF = `import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { mul } from '../src/mul.js';\ntest('mul', () => assert.equal(typeof mul(2, 3), 'number'));\n`;
const REAL = `import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { mul } from '../src/mul.js';\ntest('mul', () => assert.equal(mul(2, 3), 6));\n`;

test('mul tested only by typeof: the type-breaking kills do not count, 0 of 1 (3 of 4 before)', async (t) => {
  const repo = makeRepo(PKG, { 'src/mul.js': MUL, 'test/mul.test.js': TYPEOF });
  t.teardown(repo.cleanup);
  const m = await measured(t, run(repo), repo.file('m.json'));
  // The case: three type-breaking kills and one survivor, 3/4 by the old ratio, 0 now.
  t.like(m.counts, { killed: 3, survived: 1 }, JSON.stringify(m.mutants));
  t.deepEqual(
    m.mutants.filter((x) => x.breaks_type === true).map((x) => x.status),
    ['killed', 'killed', 'killed'],
  );
  t.is(m.suite_strength, 0);
});

test('mul padded with lines whose mutants only break types: still 0', async (t) => {
  const padded = `export function mul(a, b) {\n  const x = Number(a);\n  const y = Number(b);\n  return x * y;\n}\n`;
  const repo = makeRepo(PKG, { 'src/mul.js': padded, 'test/mul.test.js': TYPEOF });
  t.teardown(repo.cleanup);
  const m = await measured(t, run(repo), repo.file('m.json'));
  t.true(m.mutants.filter((x) => x.breaks_type === true).length >= 4, JSON.stringify(m.mutants));
  t.is(m.suite_strength, 0);
});

test('mul with a real test: 1 of 1', async (t) => {
  const repo = makeRepo(PKG, { 'src/mul.js': MUL, 'test/mul.test.js': REAL });
  t.teardown(repo.cleanup);
  const m = await measured(t, run(repo), repo.file('m.json'));
  t.is(m.suite_strength, 1);
});

const SUBSCRIBERS = `export function normalize(email) {
  return email.trim().toLowerCase();
}

export function addSubscriber(list, email) {
  list.push(normalize(email));
  return true;
}

export function tag(email) {
  return 'user';
}
`;
const SUBSCRIBERS_FIXED = `const seen = new Map();

export function normalize(email) {
  const known = seen.get(email);
  if (known !== undefined) return known;
  const address = email.trim().toLowerCase();
  seen.set(email, address);
  return address;
}

export function addSubscriber(list, email) {
  const address = normalize(email);
  if (list.some((e) => normalize(e) === address)) return false;
  list.push(address);
  return true;
}

export function tag(email) {
  if (email === 'root@example.com') return 'admin';
  return 'user';
}
`;
const TAGS = `test('tags', () => {
  assert.equal(tag('a@x.io'), 'user');
  assert.equal(tag('b@x.io'), 'user');
  assert.equal(tag('c@x.io'), 'user');
});
`;
const SUBSCRIBER_TESTS = `import test from 'node:test';
import assert from 'node:assert/strict';
import { addSubscriber, tag } from '../src/subs.js';
test('adds once', () => {
  const l = [];
  assert.equal(addSubscriber(l, ' A@x.io'), true);
  assert.equal(addSubscriber(l, 'a@x.io '), false);
  assert.deepEqual(l, ['a@x.io']);
});
test('adds another', () => {
  const l = ['b@x.io'];
  assert.equal(addSubscriber(l, 'C@x.io'), true);
  assert.deepEqual(l, ['b@x.io', 'c@x.io']);
});
${TAGS}`;

test('a memo cache hunk beside a pinned fix: its surviving revert changes no answer; a special case on an untested input does', async (t) => {
  const base = `import test from 'node:test';
import assert from 'node:assert/strict';
import { addSubscriber, tag } from '../src/subs.js';
test('adds', () => { const l = []; addSubscriber(l, 'A@x.io'); assert.deepEqual(l, ['a@x.io']); });
${TAGS}`;
  const repo = makeRepo(
    { ...PKG, 'src/subs.js': SUBSCRIBERS, 'test/subs.test.js': base },
    { 'src/subs.js': SUBSCRIBERS_FIXED, 'test/subs.test.js': SUBSCRIBER_TESTS },
  );
  t.teardown(repo.cleanup);
  const m = await measured(t, run(repo), repo.file('m.json'));
  const reverts = m.reverts ?? [];
  const of = (fn: string) => reverts.filter((r) => r.function === fn && r.scope === undefined);
  t.true(
    of('addSubscriber').every((r) => r.status === 'killed'),
    JSON.stringify(reverts),
  );
  t.true(of('normalize').length > 0, JSON.stringify(reverts));
  for (const r of of('normalize')) {
    t.is(r.status, 'survived', JSON.stringify(r));
    t.is(r.equivalence?.verdict, 'probably_equivalent', JSON.stringify(r));
  }
  const [guard] = of('tag');
  t.is(guard?.status, 'survived', JSON.stringify(guard));
  t.is(guard?.equivalence?.verdict, 'distinguished', JSON.stringify(guard));
  t.regex(guard?.equivalence?.note ?? '', /root@example\.com/);
});

test('Python: a rename the tests follow kills its revert (the test file no longer collects without it)', async (t) => {
  const repo = makeRepo(
    {
      'calc.py': 'def foo(a):\n    return a + 1\n',
      'tests/test_calc.py': 'from calc import foo\n\n\ndef test_foo():\n    assert foo(1) == 2\n',
    },
    {
      'calc.py': 'def bar(a):\n    return a + 1\n',
      'tests/test_calc.py': 'from calc import bar\n\n\ndef test_bar():\n    assert bar(1) == 2\n',
    },
  );
  t.teardown(repo.cleanup);
  const m = await measured(
    t,
    [...repoArgs(repo, '/usr/bin/python3 -m pytest -q'), '--jobs', '2', '--canary-seed', '1'],
    repo.file('m.json'),
  );
  t.like(m.reverts?.[0], { hunk: '@@ -1 +1 @@', function: 'bar', status: 'killed', killed_by: 'tests/test_calc.py' });
});

test('Python: a test that ends the run with exit 2 on the revert (no collection error) does not kill it', async (t) => {
  const guarded = 'def div(a, b):\n    if b == 0:\n        raise ValueError("zero")\n    return a / b\n';
  const repo = makeRepo(
    {
      'calc.py': guarded,
      'tests/test_calc.py': 'from calc import div\n\n\ndef test_div():\n    assert div(6, 3) == 2\n',
    },
    {
      'calc.py': 'def div(a, b):\n    return a / b\n',
      'tests/test_calc.py':
        'import os\n\nfrom calc import div\n\n\ndef test_div():\n    assert div(6, 3) == 2\n    try:\n        div(1, 0)\n    except ValueError:\n        os._exit(2)\n    except ZeroDivisionError:\n        pass\n',
    },
  );
  t.teardown(repo.cleanup);
  const m = await measured(
    t,
    [...repoArgs(repo, '/usr/bin/python3 -m pytest -q'), '--jobs', '2', '--canary-seed', '1'],
    repo.file('m.json'),
  );
  // Only removed lines: no mutant, the revert alone judges the deletion.
  t.is(m.reason, 'deletion_only');
  t.like(m.reverts?.[0], { hunk: '@@ -2,2 +1,0 @@', status: 'survived', killed_by: null, ended: 'exit 2' });
});
