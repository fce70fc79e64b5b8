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
  const error = t.throws(
    () => validateOrThrow('r.json', schema, parseStrictJson('r.json', '{"outcome":"TAP version 13\\npassed"}')),
    { instanceOf: LoadError },
  );
  t.false(error?.message.includes('\n'), error?.message);
  t.true(error?.message.includes('TAP version 13\\npassed'), error?.message);
});

test('a refusal naming a key with a newline stays on one line', (t) => {
  const unknown = t.throws(
    () => validateOrThrow('r.json', v.strictObject({}), parseStrictJson('r.json', '{"a\\nb":1}')),
    { instanceOf: LoadError },
  );
  t.false(unknown?.message.includes('\n'), unknown?.message);
  const duplicate = t.throws(() => parseStrictJson('r.json', '{"a\\nb":1,"a\\nb":2}'), { instanceOf: LoadError });
  t.is(duplicate?.code, 'E_DUPLICATE_KEY');
  t.false(duplicate?.message.includes('\n'), duplicate?.message);
});

test('a refusal quoting a huge value is cut to a readable line', (t) => {
  const error = t.throws(
    () => validateOrThrow('r.json', v.strictObject({ n: v.number() }), { n: 'x'.repeat(100_000) }),
    { instanceOf: LoadError },
  );
  t.true((error?.message.length ?? Infinity) < 600);
});

const refusal = (text: string) => t0(() => parseStrictJson('f.json', text));
function t0(fn: () => unknown): { code: string; message: string } | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof LoadError
      ? { code: error.code, message: error.message }
      : { code: 'not a LoadError', message: String(error) };
  }
}

test('a key repeated anywhere is found, also when written with an escape or after strings full of brackets, quotes and colons', (t) => {
  t.is(refusal('{"a":1,"\\u0061":2}')?.code, 'E_DUPLICATE_KEY');
  t.regex(refusal('{"x":"{[\\":,]}","y":{"k":[1,{"k":2}],"k":3}}')?.message ?? '', /duplicate key "k" at line 1/);
  t.is(
    refusal('{"a":{"b":1},"c":{"b":1},"d":["a","a"]}'),
    null,
    'the same key in two objects, and equal strings in an array, are fine',
  );
  t.deepEqual(parseStrictJson('f.json', '{"x":"{[\\":,]}","a":[{"k":1},{"k":2}]}'), {
    x: '{[":,]}',
    a: [{ k: 1 }, { k: 2 }],
  });
});

test("every value the quick path lets through is exactly what the strict path builds; everything else gets the strict path's refusal with its line", (t) => {
  const value = {
    n: [0, 1.5, -2, 9007199254740991, 1e300],
    s: ['é', '\u2028', ''],
    o: { '10': 1, '2': 2, b: null, t: true },
    e: [],
  };
  t.deepEqual(parseStrictJson('f.json', JSON.stringify(value)), value);
  t.deepEqual(Object.keys(parseStrictJson('f.json', '{"b":1,"10":2,"2":3}') as object), ['2', '10', 'b']);
  t.deepEqual(
    parseStrictJson('f.json', '{"big":1e20}'),
    { big: 1e20 },
    'not written as an integer: the strict path reads it',
  );
  for (const [text, code] of [
    ['{"n":9007199254740993}', 'E_NUMBER'],
    ['{"n":-0}', 'E_NUMBER'],
    ['{"n":1e400}', 'E_NUMBER'],
    ['{"s":"\\ud800"}', 'E_ENCODING'],
    ['{"\\udc00":1}', 'E_ENCODING'],
    ['{"__proto__":{"x":1}}', 'E_FORBIDDEN_KEY'],
    ['[{"constructor":1}]', 'E_FORBIDDEN_KEY'],
    ['{"a":1,}', 'E_EVIDENCE_MALFORMED'],
  ] as const) {
    const r = refusal(`\n${text}`);
    t.is(r?.code, code, text);
    t.regex(r?.message ?? '', /line 2|not valid JSON/, text);
  }
});
