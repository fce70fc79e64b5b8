import test from 'ava';
import { UsageError } from '@adversary-gate/core';
import { repeatedArg as repeated } from '@adversary-gate/core';
import { parseOptions } from '../src/options.js';

const tool = { name: 'ag-diffcov', version: '0' };
const parse = (args: Record<string, unknown>, raw: string[] = []) =>
  parseOptions({ diff: 'd.diff', out: 'o.json', ...args }, raw, tool);

test('repeated --coverage flags are all kept, in order', (t) => {
  t.deepEqual(repeated(['--coverage', 'a.info', '--coverage=b.xml', '--', '--coverage', 'c'], 'coverage'), [
    'a.info',
    'b.xml',
  ]);
  t.throws(() => repeated(['--coverage'], 'coverage'), { instanceOf: UsageError });
  t.throws(() => repeated(['--coverage', '--out'], 'coverage'), { instanceOf: UsageError });
});

test('the source follows from the flags', (t) => {
  t.is(parse({}, ['--coverage', 'a.info']).options.source, 'computed');
  t.is(parse({}).options.source, 'none');
  t.is(parse({ 'coverage-source': 'none' }).options.source, 'none');
  const u = parse({ 'coverage-ratio': '0.75', 'coverage-source': 'untrusted' }).options;
  t.deepEqual([u.source, u.ratio], ['untrusted', 0.75]);
});

test('contradictory or incomplete flags are usage errors', (t) => {
  const bad: [Record<string, unknown>, string[]][] = [
    [{ 'coverage-ratio': '0.5' }, []],
    [{ 'coverage-ratio': '2', 'coverage-source': 'untrusted' }, []],
    [{ 'coverage-ratio': 'NaN', 'coverage-source': 'untrusted' }, []],
    [{ 'coverage-source': 'untrusted' }, []],
    [{ 'coverage-source': 'computed' }, []],
    [{ 'coverage-source': 'none' }, ['--coverage', 'a.info']],
    [{ 'coverage-source': 'guess' }, []],
    [{ format: 'clover' }, ['--coverage', 'a.info']],
    [{ root: '/x' }, []],
    [{ markdown: '-', out: '-' }, []],
  ];
  for (const [args, raw] of bad) t.throws(() => parse(args, raw), { instanceOf: UsageError }, JSON.stringify(args));
});
