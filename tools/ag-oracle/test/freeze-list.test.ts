import test from 'ava';
import * as v from 'valibot';
import { FreezeFile, freezeEntries, judgeEntry } from '../src/freeze/freeze-list.js';

const ok = { nodeid: 'test/a.test.js::a', expires: '2026-12-01', covers: ['src/a.js'] };
const status = (raw: unknown, today = '2026-11-30') => judgeEntry(0, raw, today).status;

test('a complete entry before its expiry is valid, and stays valid on its expiry day', (t) => {
  t.is(status(ok), 'valid');
  t.is(status(ok, '2026-12-01'), 'valid');
  t.deepEqual(judgeEntry(3, ok, '2026-11-30'), { index: 3, ...ok, status: 'valid' });
});

test('an entry past its expiry is expired', (t) => {
  t.is(status(ok, '2026-12-02'), 'expired');
});

test('a missing or null nodeid, expires or covers is a missing field', (t) => {
  for (const key of ['nodeid', 'expires', 'covers'] as const) {
    const { [key]: _, ...rest } = ok;
    t.is(status(rest), 'missing_field', key);
    t.is(status({ ...ok, [key]: null }), 'missing_field', key);
  }
});

test('wrong types, empty values, impossible dates and unknown keys are malformed', (t) => {
  for (const bad of [
    { ...ok, expires: '2026-02-30' },
    { ...ok, expires: '31/12/2026' },
    { ...ok, expires: 20261231 },
    { ...ok, nodeid: '' },
    { ...ok, nodeid: 7 },
    { ...ok, covers: [] },
    { ...ok, covers: 'src/a.js' },
    { ...ok, covers: [''] },
    { ...ok, extends_forever: true },
    { ...ok, reason: 5 },
    'test/a.test.js::a',
    null,
    [ok],
  ]) {
    t.is(status(bad), 'malformed', JSON.stringify(bad));
  }
});

test('reason, owner and issue may accompany an entry', (t) => {
  t.is(status({ ...ok, reason: 'flaky on CI', owner: '@me', issue: 'https://example.com/1' }), 'valid');
});

test('the file is an array of entries or an object with entries', (t) => {
  t.deepEqual(freezeEntries(v.parse(FreezeFile, [ok])), [ok]);
  t.deepEqual(freezeEntries(v.parse(FreezeFile, { schema_version: 1, entries: [ok] })), [ok]);
  t.false(v.safeParse(FreezeFile, { entries: [ok], extra: 1 }).success);
  t.false(v.safeParse(FreezeFile, { schema_version: 2, entries: [] }).success);
  t.false(v.safeParse(FreezeFile, 'x').success);
});

test("the verdict-file article's entry shape (nodeid, expires, last_signature, covers) is valid, and last_signature is recorded", (t) => {
  const article = {
    nodeid: 'tests/test_net.py::test_retry',
    expires: '2026-12-31',
    last_signature: 'ConnectionResetError at net.py:88',
    covers: ['src/net.py'],
  };
  t.deepEqual(judgeEntry(0, article, '2026-11-30'), { index: 0, ...article, status: 'valid' });
  t.false(Object.hasOwn(judgeEntry(0, ok, '2026-11-30'), 'last_signature'), 'absent stays absent');
  // the next shape of the kind: the field with a wrong type is malformed, an unknown field still is
  t.is(status({ ...article, last_signature: 42 }), 'malformed');
  t.is(status({ ...article, signature: 'x' }), 'malformed');
});
