// Replaced collaborators judged against the real ones: a replacement's answer of a kind the real
// one cannot give is a finding; other values of the same kind, a partial fake, absence, a mock
// object, a failure the real one can have, or an answer that is not steady are not.
import test from 'ava';
import { contractFindings, contradiction, type Contract, type Shape } from '../src/apart/contract-rules.js';

const INT: Shape = { t: 'int' };
const FLOAT: Shape = { t: 'float' };
const NONE: Shape = { t: 'none' };
const map = (keys: Record<string, Shape>): Shape => ({ t: 'map', keys, items: [] });
const seq = (...items: Shape[]): Shape => ({ t: 'seq', items });

test('a wider number, another kind, a key the real one lacks: contradictions', (t) => {
  t.is(contradiction(FLOAT, INT), 'a float where the real one answers an int');
  t.is(contradiction({ t: 'str' }, INT), 'a str where the real one answers an int');
  t.is(
    contradiction(map({ a: INT }), { t: 'object', type: 'shop.Rate' }),
    'a map {a} where the real one answers a shop.Rate',
  );
  t.regex(
    contradiction(map({ price: FLOAT }), map({ cents: INT, name: { t: 'str' } })) ?? '',
    /"price", which the real one's \{cents, name\} lacks/,
  );
  t.is(
    contradiction(map({ cents: FLOAT }), map({ cents: INT, name: { t: 'str' } })),
    'at "cents": a float where the real one answers an int',
  );
  t.is(contradiction(seq(FLOAT), seq(INT)), 'an item: a float where the real one answers an int');
  t.is(contradiction({ t: 'raise', type: 'KeyError' }, NONE), 'raised KeyError where the real one answers None');
});

test('the same kind with other values, a partial fake, absence, a mock, a declared failure: no contradiction', (t) => {
  t.is(contradiction(INT, INT), null);
  t.is(contradiction(INT, FLOAT), null, 'an int is a float in the numeric tower');
  t.is(contradiction({ t: 'bool' }, INT), null);
  t.is(contradiction(map({ cents: INT }), map({ cents: INT, name: { t: 'str' } })), null, 'a subset of the keys');
  t.is(contradiction(map({ id: INT }), NONE), null, 'a fake record where the empty real store answers None');
  t.is(contradiction(NONE, INT), null);
  t.is(contradiction({ t: 'mock' }, INT), null);
  t.is(contradiction(seq(INT), { t: 'iter' }), null);
  t.is(contradiction(seq(), seq(INT)), null);
  t.is(contradiction({ t: 'object', type: 'tests.Fake' }, { t: 'object', type: 'shop.Rate' }), null);
  t.is(contradiction({ t: 'raise', type: 'NotFound' }, NONE, ['NotFound']), null);
});

const contract = (calls: Contract['calls'], extra: Partial<Contract> = {}): Contract => ({
  name: 'fx.rate',
  problem: null,
  unpicklable: 0,
  mock_answers: 0,
  raises: [],
  calls,
  ...extra,
});

test('a finding needs the real answer steady: the same twice, a value', (t) => {
  const steady = { answer: 'value 92', shape: INT };
  const { findings, notes } = contractFindings(
    [
      contract([
        { text: "fx.rate('EUR')", mock: FLOAT, real: [steady, steady] },
        { text: "fx.rate('GBP')", mock: FLOAT, real: [steady, { answer: 'value 93', shape: INT }] },
        {
          text: "fx.rate('XYZ')",
          mock: FLOAT,
          real: [
            { answer: 'raise KeyError', shape: null },
            { answer: 'raise KeyError', shape: null },
          ],
        },
      ]),
    ],
    3,
  );
  t.deepEqual(
    findings.map((f) => [f.kind, f.call]),
    [['mock_contradicted', "fx.rate('EUR')"]],
  );
  t.regex(
    findings[0]!.detail,
    /replacement of fx\.rate answered a float where the real one answers an int \(real: value 92\)/,
  );
  t.deepEqual(notes, []);
});

test('a real collaborator that could not be asked is a note, never a finding', (t) => {
  const { findings, notes } = contractFindings(
    [
      contract([], { problem: 'the real fx.rate could not be found: KeyError' }),
      contract([{ text: "fx.rate('EUR')", mock: FLOAT, real: null }]),
    ],
    3,
  );
  t.deepEqual(findings, []);
  t.deepEqual(notes, [
    'the real fx.rate could not be found: KeyError',
    'the real fx.rate could not be called on the calls its replacement answered',
  ]);
});
