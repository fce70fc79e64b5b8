import test from 'ava';
import fc from 'fast-check';
import { InputError } from '@adversary-gate/core';
import { LcovParser } from '../src/reports/lcov.js';
import { all, feed, table } from './helpers/feed.js';

const LCOV = [
  'TN:',
  'SF:src/a.ts',
  'FN:1,f',
  'FNDA:1,f',
  'DA:1,1',
  'DA:2,0',
  'DA:3,5,abcChecksum==',
  'BRDA:2,0,0,0',
  'LF:3',
  'LH:2',
  'end_of_record',
  'TN:',
  'SF:skip/me.ts',
  'DA:1,1',
  'end_of_record',
  'SF:src/a.ts',
  'DA:2,3',
  'end_of_record',
  'SF:C:\\w\\src\\b.ts',
  'DA:7,0',
  'end_of_record',
  '',
].join('\n');

const wantsSrc = (p: { key: string }) => p.key.includes('src/');
const parse = (text: string, cuts: number[] = []) => feed(new LcovParser('cov.info', wantsSrc), text, cuts);

test('DA records give line hits; FN and BRDA are not folded into lines; repeated records keep the max', (t) => {
  const data = parse(LCOV);
  t.deepEqual(table(data), {
    'src/a.ts': [
      [1, 1],
      [2, 3],
      [3, 5],
    ],
    'C:/w/src/b.ts': [[7, 0]],
  });
  t.is(data.fileCount, 4);
  t.is(data.format, 'lcov');
});

test('records of files the diff does not touch are not kept', (t) => {
  t.false(parse(LCOV).files.has('skip/me.ts'));
});

test('the result does not depend on where the stream is cut', (t) => {
  const expected = table(parse(LCOV));
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: LCOV.length - 1 }), { maxLength: 12 }), (cuts) => {
      t.deepEqual(table(parse(LCOV, cuts)), expected);
    }),
    { numRuns: 300 },
  );
});

test('every single cut point, with an unwanted record before a wanted one, gives the same answer', (t) => {
  const text = 'SF:x/skip.ts\nDA:1,1\nend_of_record\nSF:src/k.ts\nDA:4,2\nend_of_record\n';
  for (let i = 1; i < text.length; i++) t.deepEqual(table(parse(text, [i])), { 'src/k.ts': [[4, 2]] }, `cut at ${i}`);
});

test('CRLF line endings are read', (t) => {
  t.deepEqual(table(parse('SF:src/a.ts\r\nDA:1,0\r\nend_of_record\r\n')), { 'src/a.ts': [[1, 0]] });
});

const refused: [string, string, RegExp][] = [
  ['a DA record outside a record', 'DA:1,1\n', /DA record outside any SF record/],
  ['a malformed DA record', 'SF:src/a.ts\nDA:x,1\nend_of_record\n', /malformed DA record in src\/a.ts/],
  ['a negative count', 'SF:src/a.ts\nDA:1,-1\nend_of_record\n', /malformed DA record/],
  ['a record cut before end_of_record', 'SF:src/a.ts\nDA:1,1\n', /truncated: SF record src\/a.ts/],
  ['an unwanted last record cut short', 'SF:zzz.ts\nDA:1,1\n', /truncated: the last record/],
  ['a line that is not lcov', 'SF:src/a.ts\n<xml>\nend_of_record\n', /not an lcov line/],
  [
    'an SF inside an open record',
    'SF:src/a.ts\nSF:src/b.ts\nend_of_record\n',
    /starts before src\/a.ts has end_of_record/,
  ],
];
for (const [what, text, message] of refused) {
  test(`refuses ${what}, naming the file`, (t) => {
    const error = t.throws(() => parse(text), { instanceOf: InputError });
    t.is(error?.file, 'cov.info');
    t.regex(error?.message ?? '', message);
  });
}

test('a report that names no file reads as empty (the caller records the fault)', (t) => {
  t.is(feed(new LcovParser('e.info', all), 'TN:\n').fileCount, 0);
});

test('every pair of cut points gives the same answer (tiny chunks included)', (t) => {
  const expected = JSON.stringify(table(parse(LCOV)));
  let bad = '';
  for (let i = 1; i < LCOV.length && bad === ''; i++) {
    for (let j = i + 1; j < LCOV.length && bad === ''; j++) {
      if (JSON.stringify(table(parse(LCOV, [i, j]))) !== expected) bad = `${i},${j}`;
    }
  }
  t.is(bad, '');
});

/** What the lcov format says of one line inside a record: the DA pattern, or any upper-case tag. */
function expectedOf(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.trim() === '') return 'nothing';
  if (text.startsWith('DA:')) {
    const m = /^DA:(\d+),(\d+)(?:,.*)?$/.exec(text);
    if (m === null) return 'malformed';
    if (!Number.isSafeInteger(Number(m[1])) || !Number.isSafeInteger(Number(m[2]))) return 'out of range';
    return Number(m[1]) > 0 ? `hit ${Number(m[1])} ${Number(m[2])}` : 'nothing';
  }
  return /^[A-Z]+:/.test(text) ? 'nothing' : 'not an lcov line';
}

function outcomeOf(line: string): string {
  try {
    const rows =
      table(feed(new LcovParser('cov.info', all), `SF:src/a.ts\n${line}\nend_of_record\n`))['src/a.ts'] ?? [];
    return rows.length === 0 ? 'nothing' : rows.map(([n, h]) => `hit ${n} ${h}`).join(' ');
  } catch (error) {
    const message = (error as Error).message;
    return message.includes('malformed DA')
      ? 'malformed'
      : message.includes('out of range')
        ? 'out of range'
        : message.includes('not an lcov line')
          ? 'not an lcov line'
          : message;
  }
}

test('a line read from its bytes means what the lcov patterns say it means (DA numbers, checksums, tags, stray characters)', (t) => {
  const char = fc.constantFrom('0', '1', '7', '9', ',', 'x', '=', ' ', '\r', '\t', 'é', '\u2028', 'A', 'D', ':');
  const line = fc
    .tuple(
      fc.constantFrom('DA:', 'DA:1', 'DA:12,', 'DA:1,0,', 'BRDA:', 'D:', 'Da:', 'X:', ''),
      fc.array(char, { maxLength: 20 }),
    )
    .map(([head, rest]) => head + rest.join(''));
  fc.assert(
    fc.property(line, (l) => {
      t.is(outcomeOf(l), expectedOf(l), JSON.stringify(l));
    }),
    { numRuns: 5000 },
  );
  for (const l of [
    'DA:123456789012345,999999999999999',
    'DA:9007199254740991,1',
    'DA:9007199254740993,1',
    'DA:1,9007199254740993',
    'DA:000000000000000001,2',
  ])
    t.is(outcomeOf(l), expectedOf(l), l);
});
