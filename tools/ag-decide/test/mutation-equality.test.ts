// Equality probes: each equality hook the patch adds or changes, made strict and judged as a
// mutant. A killed probe (a test passes only because the hook equates values that differ) holds
// EQUALITY_LOOSENED naming the hook and the test; a stillborn or unrun one is not measured
// (STRENGTH_UNVERIFIED beside ag-mutate's fault); a survivor says nothing. Probes are in no count.
import test from 'ava';
import { canary, codes, decideWith, golden } from './helpers/golden.js';

type Obj = Record<string, any>;

const probe = (status: string, over: Obj = {}): Obj => ({
  id: `e-${status}`,
  file: 'src/calc.js',
  line: 2,
  column: 3,
  hook: 'Money.equals',
  comparison: 'fields',
  original: '',
  replacement: 'if (!(…)(this, arguments[0])) return false; ',
  status,
  killed_by: status === 'killed' ? 'test/calc.test.js' : null,
  ...over,
});

test('a killed probe: HOLD EQUALITY_LOOSENED naming the hook (file:line, Class.method) and the killing test', (t) => {
  const g = golden();
  Object.assign(g.mutation, { equality_probes: [probe('killed')] });
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['EQUALITY_LOOSENED'], JSON.stringify(v.reasons));
  t.regex(v.reasons[0]!.message, /^src\/calc\.js:2 Money\.equals\(\): /);
  t.regex(v.reasons[0]!.message, /every field compared strictly\) test\/calc\.test\.js fails/);
  t.is(v.measurements.suite_strength?.value, 1, 'the strength stands: probes are in no count');
});

test('a probe timed out holds too; a baseline comparison is named as such', (t) => {
  const g = golden();
  Object.assign(g.mutation, { equality_probes: [probe('timeout', { comparison: 'baseline' })] });
  const v = decideWith(g);
  t.deepEqual(codes(v), ['EQUALITY_LOOSENED']);
  t.regex(v.reasons[0]!.message, /the baseline's own comparison\) the tests ran out of time/);
});

test('a killed probe of a hook left as it was names the field the patch added that it ignores', (t) => {
  const g = golden();
  Object.assign(g.mutation, {
    equality_probes: [probe('killed', { comparison: 'new_fields', fields: ['pre'], hook: 'Version.__eq__' })],
  });
  const v = decideWith(g);
  t.deepEqual(codes(v), ['EQUALITY_LOOSENED']);
  t.regex(
    v.reasons[0]!.message,
    /Version\.__eq__\(\): the equality hook ignores a field the patch adds to its class \(pre\)/,
  );
  t.regex(v.reasons[0]!.message, /its own comparison with pre equal too\) test\/calc\.test\.js fails/);
});

test('surviving and uncovered probes say nothing: ACCEPT', (t) => {
  const g = golden();
  Object.assign(g.mutation, { equality_probes: [probe('survived'), probe('no_coverage')] });
  const v = decideWith(g);
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
});

test('a stillborn probe is not a pass: its fault (PIPELINE_FAULT) and STRENGTH_UNVERIFIED naming the hook', (t) => {
  const g = golden();
  Object.assign(g.mutation, {
    equality_probes: [probe('stillborn')],
    faults: [
      {
        code: 'EQUALITY_PROBE_UNJUDGED',
        message: 'the equality probe of src/calc.js:2 Money.equals() did not compile or load here',
      },
    ],
  });
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['STRENGTH_UNVERIFIED', 'PIPELINE_FAULT'], JSON.stringify(v.reasons));
  t.regex(v.reasons[0]!.message, /src\/calc\.js:2 Money\.equals\(\) \(its probe did not compile or load\)/);
  t.regex(v.reasons[1]!.message, /EQUALITY_PROBE_UNJUDGED/);
  const dropped = golden();
  Object.assign(dropped.mutation, { equality_probes: [probe('not_run')] });
  t.deepEqual(codes(decideWith(dropped)), ['STRENGTH_UNVERIFIED'], 'the status alone holds, fault or none');
});

test('a killed canary voids the kills: the probe says nothing beside STRENGTH_NOT_MEASURED', (t) => {
  const g = golden();
  Object.assign(g.mutation, {
    suite_strength: null,
    reason: 'canary_killed',
    canaries: [canary('killed', 'test/calc.test.js')],
    equality_probes: [probe('killed')],
  });
  t.deepEqual(codes(decideWith(g)), ['STRENGTH_NOT_MEASURED']);
});

test('forged: a probe that is also a mutant, in a file the diff adds nothing to, or naming a killer it lacks, is EVIDENCE_INVALID', (t) => {
  for (const bad of [
    probe('survived', { id: 'm1' }),
    probe('survived', { file: 'src/other.js' }),
    probe('survived', { killed_by: 'test/calc.test.js' }),
  ]) {
    const g = golden();
    Object.assign(g.mutation, { equality_probes: [bad] });
    t.deepEqual(codes(decideWith(g)), ['EVIDENCE_INVALID'], JSON.stringify(bad));
  }
});
