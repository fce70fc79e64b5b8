// Canaries: behaviour-neutral edits of changed functions that ag-mutate judged as mutants. A
// killed canary means the tests read the source text or recognise the run: the strength is not
// measured (HOLD STRENGTH_NOT_MEASURED, naming the canary and its killer). Canaries are in no
// count; an artefact that gives a strength beside a killed canary is refused.
import test from 'ava';
import { canary, codes, decideWith, golden } from './helpers/golden.js';

test('a killed canary: suite strength not measured (HOLD STRENGTH_NOT_MEASURED), naming the canary and the test', (t) => {
  const g = golden();
  Object.assign(g.mutation, {
    suite_strength: null,
    reason: 'canary_killed',
    canaries: [canary('killed', 'test/calc.test.js')],
    canary_seed: 7,
  });
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['STRENGTH_NOT_MEASURED'], JSON.stringify(v.reasons));
  t.regex(v.reasons[0]!.message, /canary_killed/);
  t.regex(v.reasons[0]!.message, /src\/calc\.js:2 add\(\) killed by test\/calc\.test\.js/);
  t.is(v.measurements.suite_strength?.value, null);
});

test('surviving canaries change nothing: the golden strength stands (they are in no count)', (t) => {
  const g = golden();
  Object.assign(g.mutation, { canaries: [canary('survived'), { ...canary('no_coverage'), id: 'c2' }], canary_seed: 1 });
  const v = decideWith(g);
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
  t.is(v.measurements.suite_strength?.value, 1);
});

test('forged: a strength beside a killed canary, or canary_killed with none killed, is EVIDENCE_INVALID', (t) => {
  const strength = golden();
  Object.assign(strength.mutation, { canaries: [canary('killed', 'test/calc.test.js')] });
  t.deepEqual(codes(decideWith(strength)), ['EVIDENCE_INVALID']);
  const none = golden();
  Object.assign(none.mutation, { suite_strength: null, reason: 'canary_killed', canaries: [canary('survived')] });
  t.deepEqual(codes(decideWith(none)), ['EVIDENCE_INVALID']);
  const timeout = golden();
  Object.assign(timeout.mutation, { canaries: [canary('timeout')] });
  t.deepEqual(codes(decideWith(timeout)), ['EVIDENCE_INVALID']);
});

test('forged: a canary that is also a mutant, or in a file the diff adds nothing to, is EVIDENCE_INVALID', (t) => {
  const twin = golden();
  Object.assign(twin.mutation, { canaries: [{ ...canary('survived'), id: 'm1' }] });
  t.deepEqual(codes(decideWith(twin)), ['EVIDENCE_INVALID']);
  const elsewhere = golden();
  Object.assign(elsewhere.mutation, { canaries: [{ ...canary('survived'), file: 'src/other.js' }] });
  t.deepEqual(codes(decideWith(elsewhere)), ['EVIDENCE_INVALID']);
});
