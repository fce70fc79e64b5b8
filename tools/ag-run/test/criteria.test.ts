import test from 'ava';
import type { Execution, TestResult } from '@adversary-gate/schemas';
import { findTest, judgeCriteria, type Observations } from '../src/criteria.js';

const ex = (
  side: 'baseline' | 'patch',
  outcome: Execution['outcome'],
  tests: TestResult[] | null,
  round = 1,
): Execution => ({
  command: 'c',
  side,
  round,
  exit_code: outcome === 'PASS' ? 0 : outcome === 'FAIL' ? 1 : null,
  signal: null,
  timed_out: false,
  outcome,
  kind: outcome.toLowerCase(),
  tests,
  stdout_tail: '',
  stderr_tail: '',
  stdout_bytes: 0,
  stderr_bytes: 0,
  truncated: false,
  leftover_processes: 0,
});
const T = (id: string, outcome: TestResult['outcome']): TestResult => ({ id, outcome });

const obs: Observations = {
  baseline: [ex('baseline', 'FAIL', [T('a.py::fixme', 'failed'), T('a.py::keep', 'passed')])],
  patchRounds: [
    [1, 2].map((r) =>
      ex('patch', 'PASS', [T('a.py::fixme', 'passed'), T('a.py::keep', 'passed'), T('a.py::added', 'passed')], r),
    ),
  ],
  fullPatch: null,
};
const crit = (kind: 'fix' | 'new' | 'keep', tests: string[]) => ({ criteria: [{ id: 'AC', text: 't', kind, tests }] });
const proven = (kind: 'fix' | 'new' | 'keep', tests: string[], o = obs) =>
  judgeCriteria(crit(kind, tests), o)[0]!.proven;

test('fix: failed on the baseline, passed every round', (t) => {
  t.true(proven('fix', ['a.py::fixme']));
  t.false(proven('fix', ['a.py::keep']));
  t.false(proven('fix', ['a.py::added']));
});

test('new: absent on the baseline, passed every round', (t) => {
  t.true(proven('new', ['a.py::added']));
  t.false(proven('new', ['a.py::fixme']));
});

test('keep: passed on the baseline and every round', (t) => {
  t.true(proven('keep', ['a.py::keep']));
  t.false(proven('keep', ['a.py::fixme']));
});

test('a criterion naming no test, or a test missing from a round, is unproven and says why', (t) => {
  const none = judgeCriteria(crit('fix', []), obs)[0]!;
  t.false(none.proven);
  t.regex(none.why, /names no test/);
  const gap: Observations = {
    ...obs,
    patchRounds: [[obs.patchRounds[0]![0]!, ex('patch', 'PASS', [T('a.py::keep', 'passed')], 2)]],
  };
  t.false(proven('fix', ['a.py::fixme'], gap));
  t.false(proven('keep', ['a.py::nowhere']));
});

test('a baseline without per-test report cannot prove anything', (t) => {
  t.false(proven('fix', ['a.py::fixme'], { ...obs, baseline: [ex('baseline', 'FAIL', null)] }));
});

test('every criterion gets its own line', (t) => {
  const r = judgeCriteria(
    { criteria: [crit('fix', ['a.py::fixme']).criteria[0]!, { id: 'AC-2', text: 'x', kind: 'keep', tests: [] }] },
    obs,
  );
  t.deepEqual(
    r.map((c) => [c.id, c.proven]),
    [
      ['AC', true],
      ['AC-2', false],
    ],
  );
});

test('a file::name criterion matches a report that carries names only (node TAP)', (t) => {
  t.deepEqual(findTest([T('adds', 'passed')], 'test/calc.test.js::adds'), T('adds', 'passed'));
  t.is(findTest([T('x.py::adds', 'passed')], 'test/calc.test.js::adds'), undefined);
});
