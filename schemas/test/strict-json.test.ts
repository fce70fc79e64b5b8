import test from 'ava';
import * as v from 'valibot';
import { LoadError, parseStrictJson, validateOrThrow } from '../src/index.js';

test('a raw control character inside a string value is refused (JSON allows it only escaped)', (t) => {
  const error = t.throws(() => parseStrictJson('f.json', '{"id":"m0\u0000x"}'), { instanceOf: LoadError });
  t.is(error?.code, 'E_EVIDENCE_MALFORMED');
  t.regex(error?.message ?? '', /^f\.json: not valid JSON: unescaped control character in a string at line 1/);
});

test('a raw control character inside a key is refused', (t) => {
  const error = t.throws(() => parseStrictJson('f.json', '{"no\u0001deid":1}'), { instanceOf: LoadError });
  t.is(error?.code, 'E_EVIDENCE_MALFORMED');
});

test('escaped control characters and raw tabs between tokens still read', (t) => {
  t.deepEqual(parseStrictJson('f.json', '{\t"a":\n"x\\u0000\\t\\n"}'), { a: 'x\u0000\t\n' });
});

test('a refusal that quotes a received value holding a newline stays on one line', (t) => {
  const schema = v.strictObject({ outcome: v.picklist(['passed', 'failed']) });
  const error = t.throws(() => validateOrThrow('r.json', schema, parseStrictJson('r.json', '{"outcome":"TAP version 13\\npassed"}')), { instanceOf: LoadError });
  t.false(error?.message.includes('\n'), error?.message);
  t.true(error?.message.includes('TAP version 13\\npassed'), error?.message);
});

test('a refusal naming a key with a newline stays on one line', (t) => {
  const unknown = t.throws(() => validateOrThrow('r.json', v.strictObject({}), parseStrictJson('r.json', '{"a\\nb":1}')), { instanceOf: LoadError });
  t.false(unknown?.message.includes('\n'), unknown?.message);
  const duplicate = t.throws(() => parseStrictJson('r.json', '{"a\\nb":1,"a\\nb":2}'), { instanceOf: LoadError });
  t.is(duplicate?.code, 'E_DUPLICATE_KEY');
  t.false(duplicate?.message.includes('\n'), duplicate?.message);
});

test('a refusal quoting a huge value is cut to a readable line', (t) => {
  const error = t.throws(() => validateOrThrow('r.json', v.strictObject({ n: v.number() }), { n: 'x'.repeat(100_000) }), { instanceOf: LoadError });
  t.true((error?.message.length ?? Infinity) < 600);
});
