import test from 'ava';
import { codes, decideWith, golden } from './helpers/golden.js';

const finding = (kind: string, path: string, line: number | null) => ({
  kind,
  path,
  line,
  detail: `${kind} at ${path}`,
});

test('edited expectations, placeholders, runner hooks and redefined assertions hold as TAMPER_SUSPECTED, with their lines', (t) => {
  const g = golden();
  g.oracle.tampering = [
    finding('expectation_changed', 'test.js', 25),
    finding('expectation_changed', 'test.js', 45),
    finding('placeholder_test', 'test/a.test.js', 9),
    finding('runner_hook_added', 'tests/test_x.py', 1),
    finding('assertion_redefined', 'test/helpers/setup.js', 2),
  ];
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['TAMPER_SUSPECTED']);
  const message = v.reasons[0]!.message;
  t.regex(message, /existing expectations edited with the source \(review each\): test\.js:25, test\.js:45/);
  t.regex(message, /placeholder tests that cannot fail: test\/a\.test\.js:9/);
  t.regex(message, /plugins or hooks registered from test code: tests\/test_x\.py:1/);
  t.regex(message, /assertions redefined or stubbed: test\/helpers\/setup\.js:2/);
});

test('the older kinds still read one by one in the same reason, and an honest oracle has none', (t) => {
  const g = golden();
  g.oracle.tampering = [finding('assertion_removed', 'test/a.test.js', 3)];
  t.regex(decideWith(g).reasons[0]!.message, /assertion_removed test\/a\.test\.js:3/);
  t.deepEqual(codes(decideWith(golden())), []);
});

test("a freeze entry carrying the article's last_signature is valid evidence, not FREEZE_INVALID", (t) => {
  const g = golden();
  g.oracle.freeze.entries = [
    {
      index: 0,
      nodeid: 'test/calc.test.js::adds',
      expires: '2026-12-31',
      covers: ['src/other.js'],
      last_signature: 'AssertionError',
      status: 'valid',
    },
  ];
  t.deepEqual(codes(decideWith(g)), []);
});
