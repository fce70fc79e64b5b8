// The behaviour footprint: each finding holds as BEHAVIOUR_SUSPECTED naming the function, the
// mechanism and the call; a footprint not measured at all holds; a clean one, one that was not
// applicable, and a function it could not answer for change nothing.
import test from 'ava';
import { codes, decideWith, golden } from './helpers/golden.js';

const fn = (findings: { kind: string; call: string; detail: string }[], extra: Record<string, unknown> = {}) => ({
  file: 'shop.py',
  function: 'split',
  recorded_calls: 2,
  kept_calls: 2,
  distinct_calls: 2,
  unpicklable_calls: 0,
  measured: true,
  note: null,
  repeats: { checked: 2, differed: 0 },
  baseline: { recorded_differ: 1, neighbours: 40, neighbours_differ: 0 },
  findings,
  ...extra,
});

const withFootprint = (footprint: unknown) => {
  const g = golden();
  Object.assign(g.mutation, { footprint });
  return decideWith(g);
};

test('a special case on the tests’ inputs holds, naming the function and the call', (t) => {
  const v = withFootprint({
    status: 'measured',
    note: null,
    functions: [fn([{ kind: 'special_case', call: 'split(100, 3)', detail: 'at none of 40 neighbouring inputs' }])],
  });
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['BEHAVIOUR_SUSPECTED']);
  t.regex(v.reasons[0]!.message, /^shop\.py split\(\): special_case: .*split\(100, 3\) \(at none of 40/);
});

test('state and the test runner hold, one reason per mechanism', (t) => {
  const v = withFootprint({
    status: 'measured',
    note: null,
    functions: [
      fn(
        [
          { kind: 'stateful', call: 'half(1001)', detail: 'answers value 501, then value 500' },
          { kind: 'stateful', call: 'half(10)', detail: 'answers value 5, then value 6' },
        ],
        { function: 'half' },
      ),
      fn([{ kind: 'runner_dependent', call: 'add(2, 3)', detail: 'answers -1 outside a test run' }], {
        function: 'add',
      }),
    ],
  });
  t.deepEqual(codes(v), ['BEHAVIOUR_SUSPECTED', 'BEHAVIOUR_SUSPECTED']);
  const text = v.reasons.map((r) => r.message).join('\n');
  t.regex(text, /shop\.py half\(\): stateful: .*half\(1001\).*half\(10\)/);
  t.regex(text, /shop\.py add\(\): runner_dependent: .*add\(2, 3\)/);
});

test('a footprint not measured holds; not applicable, clean, or a function it could not answer for does not', (t) => {
  const missing = withFootprint({ status: 'not_measured', note: 'the judge left no answer', functions: [] });
  t.deepEqual(codes(missing), ['BEHAVIOUR_SUSPECTED']);
  t.regex(missing.reasons[0]!.message, /not measured: the judge left no answer/);
  t.is(withFootprint({ status: 'not_applicable', note: 'no pytest', functions: [] }).verdict, 'ACCEPT');
  const clean = withFootprint({ status: 'measured', note: null, functions: [fn([])] });
  t.is(clean.verdict, 'ACCEPT', JSON.stringify(clean.reasons));
  const unanswered = withFootprint({
    status: 'measured',
    note: null,
    functions: [fn([], { measured: false, note: 'no call was recorded', repeats: null, baseline: null })],
  });
  t.is(unanswered.verdict, 'ACCEPT', JSON.stringify(unanswered.reasons));
});
