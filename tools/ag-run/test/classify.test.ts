import test from 'ava';
import type { Execution } from '@adversary-gate/schemas';
import { classifyClaim } from '../src/classify.js';

const ex = (outcome: Execution['outcome'], kind = outcome.toLowerCase()): Execution => ({
  command: 'c',
  side: 'patch',
  round: 1,
  exit_code: outcome === 'PASS' ? 0 : outcome === 'FAIL' ? 1 : null,
  signal: null,
  timed_out: outcome === 'TIMED_OUT',
  outcome,
  kind,
  tests: null,
  stdout_tail: '',
  stderr_tail: '',
  stdout_bytes: 0,
  stderr_bytes: 0,
  truncated: false,
  leftover_processes: 0,
});
const rounds = (...o: Execution['outcome'][]) => o.map((x) => ex(x));
const c = (b: Execution | null, p: Execution[], n = p.length) => {
  const r = classifyClaim(b, p, n);
  return `${r.status} ${r.class}`;
};

test('the peer exit matrix, read through our contract', (t) => {
  t.is(c(ex('PASS'), rounds('FAIL', 'FAIL', 'FAIL')), 'REFUTED regression');
  t.is(c(ex('PASS'), rounds('UNRUNNABLE', 'UNRUNNABLE', 'UNRUNNABLE')), 'UNVERIFIED unrunnable');
  t.is(c(ex('UNRUNNABLE'), rounds('UNRUNNABLE', 'UNRUNNABLE', 'UNRUNNABLE')), 'UNVERIFIED unrunnable');
  t.is(c(ex('UNRUNNABLE'), rounds('PASS', 'PASS', 'PASS')), 'UNVERIFIED baseline_red');
  t.is(c(ex('PASS'), rounds('FAIL', 'FAIL', 'UNRUNNABLE')), 'UNVERIFIED unrunnable');
});

test('rounds that disagree are flaky; all timed out is a hang, never REFUTED', (t) => {
  t.is(c(ex('PASS'), rounds('FAIL', 'PASS', 'FAIL')), 'UNVERIFIED flaky');
  t.is(c(ex('PASS'), rounds('TIMED_OUT', 'TIMED_OUT')), 'UNVERIFIED hang');
  t.is(c(ex('PASS'), rounds('TIMED_OUT', 'FAIL')), 'UNVERIFIED hang');
  t.is(c(ex('PASS'), rounds('TIMED_OUT', 'PASS')), 'UNVERIFIED flaky');
});

test('passing every round: fixed, still passing, new test', (t) => {
  t.is(c(ex('FAIL'), rounds('PASS', 'PASS')), 'VERIFIED fixed');
  t.is(c(ex('PASS'), rounds('PASS', 'PASS')), 'VERIFIED still_passing');
  t.is(c(ex('UNRUNNABLE', 'no_tests'), rounds('PASS', 'PASS')), 'VERIFIED new_test');
  t.is(c(ex('TIMED_OUT'), rounds('PASS', 'PASS')), 'UNVERIFIED baseline_red');
});

test('failing every round is REFUTED unless the baseline failed too', (t) => {
  t.is(c(ex('FAIL'), rounds('FAIL')), 'UNVERIFIED still_failing');
  t.is(c(ex('UNRUNNABLE', 'no_tests'), rounds('FAIL')), 'REFUTED new_bug');
  t.is(c(ex('TIMED_OUT'), rounds('FAIL')), 'REFUTED baseline_red');
});

test('fewer rounds than asked for is never VERIFIED', (t) => {
  t.is(c(ex('PASS'), rounds('PASS', 'PASS'), 3), 'UNVERIFIED unrunnable');
  t.is(c(ex('PASS'), [], 0), 'UNVERIFIED unrunnable');
});
