// Revert mutants (the baseline's code put back on one hunk) and the strength type-breaking kills
// cannot dilute. A surviving revert on a patch that changes tests holds STRENGTH_BELOW_FLOOR
// naming the hunk, an unjudged one STRENGTH_UNVERIFIED; on a patch whose tests are untouched (a
// refactor) survivors are expected and only reported. Killed type-breaking mutants never raise
// a strength that value-preserving mutants measured.
import test from 'ava';
import { parseUnifiedDiff } from '@adversary-gate/core';
import { sha256 } from '@adversary-gate/schemas';
import { DEFAULT_POLICY, type MutationArtefact } from '@adversary-gate/schemas';
import { decide } from '../src/index.js';
import { revertReasons } from '../src/rules/reverts.js';
import {
  codes,
  decideWith,
  defaultPolicy,
  DIFF_SHA,
  DIFF_TEXT,
  evidenceFile,
  golden,
  mutant,
} from './helpers/golden.js';

type Obj = Record<string, any>;

const revert = (status: string, over: Obj = {}): Obj => ({
  id: `r-${status}`,
  file: 'src/calc.js',
  hunk: '@@ -2 +2,2 @@',
  old_start: 2,
  old_lines: 1,
  new_start: 2,
  new_lines: 2,
  original: '  const sum = a + b;\n  return sum;\n',
  replacement: '  return a - b;\n',
  status,
  killed_by: status === 'killed' ? 'test/calc.test.js::adds' : null,
  function: 'add',
  ...over,
});

test('tests changed and a revert survived: HOLD STRENGTH_BELOW_FLOOR naming the hunk', (t) => {
  const g = golden();
  g.mutation.reverts = [revert('survived')];
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['STRENGTH_BELOW_FLOOR']);
  t.regex(v.reasons[0]!.message, /test\/calc\.test\.js/);
  t.regex(v.reasons[0]!.message, /src\/calc\.js @@ -2 \+2,2 @@ in add\(\)/);
  const uncovered = golden();
  uncovered.mutation.reverts = [revert('no_coverage')];
  t.deepEqual(codes(decideWith(uncovered)), ['STRENGTH_BELOW_FLOOR']);
});

test('a surviving revert judged to change no answer holds nothing beside a killed revert; alone, or distinguished, it holds', (t) => {
  const same = { verdict: 'probably_equivalent', recorded_calls: 4, inputs: 40, note: 'same outcome on every input' };
  const cache = revert('survived', { id: 'r-cache', hunk: '@@ -5,0 +6,2 @@', equivalence: same });
  const g = golden();
  g.mutation.reverts = [revert('killed'), cache];
  t.is(decideWith(g).verdict, 'ACCEPT', 'a memo cache beside a pinned fix');
  const alone = golden();
  alone.mutation.reverts = [cache];
  t.deepEqual(codes(decideWith(alone)), ['STRENGTH_BELOW_FLOOR'], 'nothing else the tests see changed: no no-op fix');
  const told = golden();
  told.mutation.reverts = [
    revert('killed'),
    { ...cache, equivalence: { ...same, verdict: 'distinguished', note: 'a neighbour input differs' } },
  ];
  t.deepEqual(codes(decideWith(told)), ['STRENGTH_BELOW_FLOOR'], 'a hunk that changes an answer no test looks at');
  const file = golden();
  file.mutation.reverts = [revert('killed'), { ...cache, scope: 'file', function: null }];
  t.deepEqual(codes(decideWith(file)), ['EVIDENCE_INVALID'], 'a whole file put back is never asked: a forged answer');
  const guard = golden();
  guard.mutation.reverts = [revert('killed'), { ...cache, added_guard: true, old_lines: 0 }];
  t.deepEqual(codes(decideWith(guard)), ['STRENGTH_BELOW_FLOOR'], 'an added guard goes by its own rule');
});

test('a hunk judged to change no answer still holds when its own mutants show inputs that never reached it', (t) => {
  const same = { verdict: 'probably_equivalent', recorded_calls: 4, inputs: 40, note: 'same outcome on every input' };
  const cache = revert('survived', {
    id: 'r-cache',
    hunk: '@@ -5,0 +6,2 @@',
    new_start: 6,
    new_lines: 2,
    equivalence: same,
  });
  const withMutants = (...ms: Obj[]) => {
    const g = golden();
    g.mutation.reverts = [revert('killed'), cache];
    g.mutation.mutants = ms;
    return revertReasons(g.mutation as MutationArtefact, DEFAULT_POLICY, ['test/calc.test.js']).map((r) => r.code);
  };
  const eq = (id: string, line: number, operator: string) => ({
    ...mutant(id, line, 'equivalent'),
    operator,
    equivalence: { ...same },
  });
  t.deepEqual(withMutants(mutant('m1', 6, 'killed'), eq('m2', 7, 'AssignedValue')), []);
  for (const [why, m] of [
    ['a comparison no input told apart (`n > 12`)', eq('m2', 7, 'EqualityOperator')],
    ['a number no input told apart', eq('m2', 7, 'NumberLiteral')],
  ] as const)
    t.deepEqual(withMutants(mutant('m1', 6, 'killed'), m), ['STRENGTH_BELOW_FLOOR'], why);
  t.deepEqual(withMutants(mutant('m1', 6, 'no_coverage')), ['STRENGTH_BELOW_FLOOR'], 'a line of it no test runs');
  t.deepEqual(withMutants(mutant('m1', 6, 'survived')), ['STRENGTH_BELOW_FLOOR'], 'a survivor the check told apart');
});

test('tests changed and a whole-file revert survived (hunks that compensate): HOLD naming the file at once', (t) => {
  const g = golden();
  g.mutation.reverts = [
    revert('killed'),
    revert('survived', { id: 'r-file', scope: 'file', hunk: '@@ -2,3 +2,4 @@', function: null }),
  ];
  const v = decideWith(g);
  t.deepEqual(codes(v), ['STRENGTH_BELOW_FLOOR']);
  t.regex(v.reasons[0]!.message, /src\/calc\.js @@ -2,3 \+2,4 @@ \(every hunk of the file at once\)/);
});

test('tests changed and the revert killed: ACCEPT (the twin)', (t) => {
  const g = golden();
  g.mutation.reverts = [revert('killed')];
  const v = decideWith(g);
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
});

test('tests changed and a revert not judged (stillborn, left out by the budget): HOLD STRENGTH_UNVERIFIED', (t) => {
  for (const status of ['stillborn', 'not_run']) {
    const g = golden();
    g.mutation.reverts = [revert(status)];
    const v = decideWith(g);
    t.deepEqual(codes(v), ['STRENGTH_UNVERIFIED'], status);
    t.regex(v.reasons[0]!.message, status === 'not_run' ? /budget/ : /did not compile/);
  }
});

test('a floor of 0 disables the revert rule with the strength', (t) => {
  const g = golden();
  g.mutation.reverts = [revert('survived')];
  const policy = defaultPolicy();
  const off = { ...policy, policy: { ...policy.policy, floors: { ...policy.policy.floors, suite_strength: 0 } } };
  t.deepEqual(codes(decideWith(g, off)), []);
});

/** The golden set on the same diff without its test file: a refactor. */
function refactor(reverts: Obj[]) {
  const text = DIFF_TEXT.slice(0, DIFF_TEXT.indexOf('diff --git a/test/'));
  const sha = sha256(text);
  const g = golden();
  g.mutation.reverts = reverts;
  const evidence = Object.entries(g).map(([kind, content]) => {
    const rebound = JSON.parse(JSON.stringify(content).replaceAll(DIFF_SHA, sha)) as Obj;
    return evidenceFile(`${kind}.json`, rebound);
  });
  return decide({
    diff: { file: 'changes.diff', sha256: sha, model: parseUnifiedDiff(text) },
    evidence,
    policy: defaultPolicy(),
    tool: { name: 'ag-decide', version: '0.1.0' },
  });
}

test('tests untouched (a refactor): a surviving revert is expected and only reported', (t) => {
  const v = refactor([revert('survived')]);
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
  t.is(v.evidence.find((e) => e.kind === 'mutation')?.status, 'read');
});

test('a dead file listed that the diff does not delete, or also as deleted, is EVIDENCE_INVALID', (t) => {
  for (const bad of [{ dead_files: ['src/calc.js'] }, { dead_files: ['src/gone.js'] }]) {
    const g = golden();
    Object.assign(g.mutation, bad);
    t.deepEqual(codes(decideWith(g)), ['EVIDENCE_INVALID'], JSON.stringify(bad));
  }
});

test('forged reverts are EVIDENCE_INVALID: a killer on a survivor, a file outside the diff, an id twice, a killed one answered equivalent', (t) => {
  for (const bad of [
    revert('survived', { killed_by: 'x' }),
    revert('killed', { file: 'src/other.js' }),
    revert('killed', { id: 'm1' }),
    revert('killed', { equivalence: { verdict: 'probably_equivalent', recorded_calls: 1, inputs: 1, note: 'x' } }),
  ]) {
    const g = golden();
    g.mutation.reverts = [bad];
    t.deepEqual(codes(decideWith(g)), ['EVIDENCE_INVALID'], JSON.stringify(bad));
  }
});

const tb = (id: string, line: number, status: string) => ({ ...mutant(id, line, status), breaks_type: true });

test('type-breaking kills do not raise a strength value-preserving mutants measured', (t) => {
  // mul tested by typeof only: `*`→`/` survived, the body emptied and `return undefined` died.
  const g = golden();
  Object.assign(g.mutation, {
    suite_strength: 0,
    counts: { killed: 2, survived: 1, timeout: 0, stillborn: 0, no_coverage: 0 },
    mutants: [mutant('m1', 2, 'survived'), tb('m2', 2, 'killed'), tb('m3', 3, 'killed')],
  });
  const v = decideWith(g);
  t.deepEqual(codes(v), ['STRENGTH_BELOW_FLOOR']);
  t.regex(v.reasons[0]!.message, /0 killed, 1 survived; 2 type-breaking kills not counted/);
  // Claiming the old diluted ratio (2/3) is refused.
  const diluted = golden();
  Object.assign(diluted.mutation, {
    suite_strength: 2 / 3,
    counts: { killed: 2, survived: 1, timeout: 0, stillborn: 0, no_coverage: 0 },
    mutants: [mutant('m1', 2, 'survived'), tb('m2', 2, 'killed'), tb('m3', 3, 'killed')],
  });
  t.deepEqual(codes(decideWith(diluted)), ['EVIDENCE_INVALID']);
});

test('the honest twin: a killed value-preserving mutant beside killed type-breaking ones is 1.0, ACCEPT', (t) => {
  const g = golden();
  Object.assign(g.mutation, {
    suite_strength: 1,
    counts: { killed: 3, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 },
    mutants: [mutant('m1', 2, 'killed'), tb('m2', 2, 'killed'), tb('m3', 3, 'killed')],
  });
  t.is(decideWith(g).verdict, 'ACCEPT');
});

test('only type-breaking mutants: they are the evidence, both ways', (t) => {
  const g = golden();
  Object.assign(g.mutation, {
    suite_strength: 0.5,
    counts: { killed: 1, survived: 1, timeout: 0, stillborn: 0, no_coverage: 0 },
    mutants: [tb('m1', 2, 'killed'), tb('m2', 3, 'survived')],
  });
  t.deepEqual(codes(decideWith(g)), ['STRENGTH_BELOW_FLOOR']);
});

test("deletion only: every hunk's revert killed pins the deletion (no reason); a survivor leaves it not measured", (t) => {
  const deletion = (reverts: Obj[]) => {
    const g = golden();
    Object.assign(g.mutation, {
      suite_strength: null,
      reason: 'deletion_only',
      mutants: [],
      counts: { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 },
      reverts,
    });
    return decideWith(g);
  };
  t.is(deletion([revert('killed'), revert('timeout', { id: 'r2', hunk: '@@ -9 +8,0 @@' })]).verdict, 'ACCEPT');
  t.deepEqual(codes(deletion([revert('killed'), revert('survived', { id: 'r2', hunk: '@@ -9 +8,0 @@' })])), [
    'STRENGTH_NOT_MEASURED',
    'STRENGTH_BELOW_FLOOR',
  ]);
  t.deepEqual(codes(deletion([])), ['STRENGTH_NOT_MEASURED']);
});

/** A patch with a tested change (its revert killed) and an added `if` (a fast path) whose revert survived. */
function withGuard(over: Obj[] = [], guardOver: Obj = {}) {
  const g = golden();
  g.mutation.reverts = [
    revert('killed', { id: 'r-fix' }),
    revert('survived', {
      id: 'r-guard',
      hunk: '@@ -1,0 +2,2 @@',
      old_start: 1,
      old_lines: 0,
      new_start: 2,
      new_lines: 2,
      added_guard: true,
      ...guardOver,
    }),
  ];
  const condition = (id: string, replacement: string, status: string): Obj => ({
    ...mutant(id, 2, status),
    operator: 'ConditionalExpression',
    original: 'x === 0',
    replacement,
  });
  g.mutation.mutants = [
    condition('m-true', 'true', 'killed'),
    condition('m-false', 'false', 'equivalent'),
    { ...mutant('m-body', 3, 'killed'), operator: 'ReturnValue' },
    ...over,
  ];
  return withCounts(g);
}

const SAME = { verdict: 'probably_equivalent', recorded_calls: 3, inputs: 20, note: 'same outcome on every input' };

/** `g` with its mutants' killers, equivalence evidence, counts and strength made consistent. */
function withCounts(g: Obj): Obj {
  const counts: Obj = { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 };
  g.mutation.mutants = g.mutation.mutants.map(({ equivalence: _, ...m }: Obj) => ({
    ...m,
    killed_by: m.status === 'killed' ? 'adds' : null,
    ...(m.status === 'equivalent' ? { equivalence: SAME } : {}),
  }));
  for (const m of g.mutation.mutants) counts[m.status] = (counts[m.status] ?? 0) + 1;
  const d = counts.killed + counts.timeout + counts.survived + counts.no_coverage;
  g.mutation.counts = counts;
  g.mutation.suite_strength = (counts.killed + counts.timeout) / d;
  return g;
}

test('an added if whose condition made false is equivalent, its body pinned and another revert killed: its surviving revert holds nothing', (t) => {
  const v = decideWith(withGuard());
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
});

test('an added if still holds when its body has an unpinned part, its condition a connective no input told apart, or no other revert was killed', (t) => {
  const hold = (g: Obj, why: string) => t.deepEqual(codes(decideWith(g)), ['STRENGTH_BELOW_FLOOR'], why);
  hold(withGuard([{ ...mutant('m-body2', 3, 'equivalent'), operator: 'NumberLiteral' }]), 'body');
  hold(withGuard([{ ...mutant('m-or', 2, 'equivalent'), operator: 'LogicalOperator' }]), 'condition');
  hold(withGuard([], { added_guard: undefined }), 'no guard recorded');
  const alone = withGuard();
  alone.mutation.reverts = alone.mutation.reverts.filter((r: Obj) => r.id === 'r-guard');
  hold(alone, 'no other revert killed');
  const falseKilled = withGuard();
  falseKilled.mutation.mutants[1] = { ...falseKilled.mutation.mutants[1], status: 'killed' };
  hold(withCounts(falseKilled), 'condition made false killed');
  // the flag on a hunk that also removes lines is no guard: the evidence is refused
  t.deepEqual(codes(decideWith(withGuard([], { old_lines: 1 }))), ['EVIDENCE_INVALID']);
});
