import test from 'ava';
import fc from 'fast-check';
import { LcovParser } from '../src/reports/lcov.js';
import { createLcovScanner, lcovCandidate } from '../src/reports/lcov-scan.js';
import { makeMatcher } from '../src/paths/match.js';
import { normaliseReportPath } from '../src/paths/normalise.js';
import type { ReportData, WantsPath } from '../src/reports/types.js';
import { feed, table } from './helpers/feed.js';

const DIFF = ['src/a.ts', 'packages/x/src/b.ts', 'lib.py'];
const ROOT = '/ci/repo';
const wants: WantsPath = makeMatcher(DIFF, ROOT).wants;

/** Scan `bytes` cut at `cuts`, then parse the kept records. */
function viaScan(bytes: Buffer, cuts: readonly number[] = [], limit = 1 << 20): ReportData {
  const scanner = createLcovScanner(lcovCandidate(DIFF, ROOT), limit);
  const points = [...new Set([0, ...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length])].sort(
    (a, b) => a - b,
  );
  for (let i = 0; i + 1 < points.length; i++) scanner.write(Buffer.from(bytes.subarray(points[i], points[i + 1])));
  return LcovParser.fromScan('cov.info', wants, scanner.end());
}

/** The outcome of a parse: its table and file count, or its error message. */
function outcome(parse: () => ReportData): string {
  try {
    const data = parse();
    return JSON.stringify({ files: table(data), count: data.fileCount });
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

const names = [
  'src/a.ts',
  '/ci/repo/src/a.ts',
  'C:\\w\\packages\\x\\src\\b.ts',
  './lib.py',
  '../x/src/b.ts',
  'other/a.ts',
  'x/lib.py',
  'src/b.ts',
  'file:///ci/repo/lib.py',
  'src/./a.ts',
  'a.ts/',
  '',
];
const lines = [
  'DA:1,1',
  'DA:2,0',
  'DA:3,5,abc',
  'DA:x,1',
  'FN:1,f',
  'LF:2',
  '',
  'TN:',
  '<xml>',
  'end_of_record',
  'DA:9007199254740993,1',
  // the byte-level fast path's edges: leading zeros, 15 and 16 digits, empty fields, a checksum with a CR or a non-ASCII character, tags it does not use
  'DA:007,01',
  'DA:0,4',
  'DA:123456789012345,1',
  'DA:1234567890123456,2',
  'DA:,1',
  'DA:1,',
  'DA:1,2,',
  'DA:1,2,x\ry',
  'DA:1,2,\u00e9',
  'DA:1,2\u2028',
  'DA:1 ,2',
  ' DA:1,1',
  'DAX:1,1',
  'BRDA:1,0,0,-',
  'D:1',
  'SF',
  'da:1,1',
];
const record = fc.tuple(fc.constantFrom(...names), fc.array(fc.constantFrom(...lines), { maxLength: 5 }), fc.boolean());
const lcovText = fc
  .tuple(
    fc.array(fc.constantFrom('TN:', '', 'VER:2'), { maxLength: 2 }),
    fc.array(record, { maxLength: 6 }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([head, records, crlf, finalNewline]) => {
    const out: string[] = [...head];
    for (const [name, body, closed] of records) out.push(`SF:${name}`, ...body, ...(closed ? ['end_of_record'] : []));
    const text = out.join(crlf ? '\r\n' : '\n');
    return finalNewline ? `${text}\n` : text;
  });

test('scanning then parsing the kept records gives what the streaming parser gives, results and refusals alike', (t) => {
  fc.assert(
    fc.property(lcovText, fc.array(fc.nat(), { maxLength: 6 }), (text, rawCuts) => {
      const bytes = Buffer.from(text);
      const cuts = rawCuts.map((c) => (bytes.length === 0 ? 0 : c % bytes.length));
      t.is(
        outcome(() => viaScan(bytes, cuts)),
        outcome(() => feed(new LcovParser('cov.info', wants), bytes)),
      );
    }),
    { numRuns: 2000 },
  );
});

test('every single cut point of a report gives the same answer', (t) => {
  const text =
    'TN:\nSF:other/a.ts\nDA:1,1\nend_of_record\nSF:src/a.ts\r\nDA:4,2\r\nend_of_record\nSF:zzz.ts\nDA:1,1\nend_of_record\n';
  const expected = outcome(() => feed(new LcovParser('cov.info', wants), text));
  for (let i = 1; i < text.length; i++)
    t.is(
      outcome(() => viaScan(Buffer.from(text), [i])),
      expected,
      `cut at ${i}`,
    );
});

test('records no changed file can claim are stepped over without keeping their bytes, a run of them as one entry', (t) => {
  const scanner = createLcovScanner(lcovCandidate(DIFF, null), 1 << 20);
  scanner.write(
    Buffer.from(
      'TN:\nSF:other/a.ts\nDA:1,1\nend_of_record\nSF:other/b.ts\nend_of_record\nSF:src/a.ts\nDA:4,2\nend_of_record\nSF:other/c.ts\nend_of_record\n',
    ),
  );
  const scan = scanner.end();
  t.deepEqual(
    scan.records.map((r) => [r.name, r.bytes?.toString() ?? null, r.count]),
    [
      ['other/a.ts', null, 2],
      ['src/a.ts', 'SF:src/a.ts\nDA:4,2\nend_of_record\n', 1],
      ['other/c.ts', null, 1],
    ],
  );
  t.is(scan.head.toString(), 'TN:\n');
});

test('the scanner gives up (overflow) when the kept bytes pass its limit', (t) => {
  const scanner = createLcovScanner(lcovCandidate(DIFF, null), 16);
  scanner.write(Buffer.from('SF:src/a.ts\nDA:1,1\nDA:2,1\nend_of_record\n'));
  t.true(scanner.overflow);
});

const segment = fc.constantFrom(
  'src',
  'a.ts',
  'b.ts',
  'x',
  'packages',
  'lib.py',
  '.',
  '..',
  '',
  'C:',
  'ci',
  'repo',
  'file:',
  'A.TS',
);
const reportName = fc
  .tuple(
    fc.constantFrom('', '/', './', '../', 'C:/', 'c:\\', '/C:/', 'file:///', 'file://'),
    fc.array(segment, { minLength: 1, maxLength: 5 }),
    fc.constantFrom('/', '\\'),
  )
  .map(([lead, segs, sep]) => lead + segs.join(sep));
const diffPath = fc
  .array(fc.constantFrom('src', 'a.ts', 'b.ts', 'x', 'packages', 'lib.py', 'repo'), { minLength: 1, maxLength: 4 })
  .map((s) => s.join('/'));

test('the candidate test accepts every report path the matcher accepts', (t) => {
  let wanted = 0;
  fc.assert(
    fc.property(
      fc.array(diffPath, { minLength: 1, maxLength: 4 }),
      fc.constantFrom(null, '/ci/repo', 'C:/ci', '/ci'),
      reportName,
      (paths, root, name) => {
        if (!makeMatcher(paths, root).wants(normaliseReportPath(name))) return;
        wanted++;
        t.true(lcovCandidate(paths, root)(name), `${name} under ${root} for ${paths.join(' ')}`);
      },
    ),
    { numRuns: 20000 },
  );
  t.true(wanted > 0, 'the generated paths never reached a case the matcher accepts');
});

test('the candidate test refuses plain paths of other files, so their records are not kept', (t) => {
  const candidate = lcovCandidate(['packages/p0/more.py'], null);
  t.false(candidate('packages/p1/more.py'));
  t.false(candidate('/abs/packages/p1/more.py'));
  t.true(candidate('/abs/packages/p0/more.py'));
  t.true(candidate('p0/more.py'));
  t.true(candidate('more.py'));
});
