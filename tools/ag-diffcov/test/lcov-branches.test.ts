import test from 'ava';
import { LcovParser } from '../src/reports/lcov.js';
import { createLcovScanner, lcovCandidate } from '../src/reports/lcov-scan.js';
import { indexReports } from '../src/measure/report-index.js';
import { makeMatcher } from '../src/paths/match.js';
import { all, feed } from './helpers/feed.js';

const partOf = (text: string, cuts: number[] = []) => {
  const data = feed(new LcovParser('cov.info', all), text, cuts);
  return [...(data.files.get('src/a.js')?.partial ?? [])].sort((a, b) => a - b);
};
const record = (...lines: string[]) => ['SF:src/a.js', ...lines, 'end_of_record', ''].join('\n');

test('a run line on which a never-run block begins ran in part (`-` and `0` alike); a block with one branch taken did not', (t) => {
  const text = record(
    'BRDA:2,0,0,0', // Node: one branch per block, never taken
    'BRDA:3,1,0,-', // geninfo: the block's line never ran
    'BRDA:4,2,0,1',
    'BRDA:4,2,1,0', // one of the block's two branches taken
    'BRDA:5,3,0,0',
    'BRDA:5,4,0,7', // two blocks: one never ran
    'BRDA:6,5,0,0', // DA 0: already uncovered, not "in part"
    'DA:2,1',
    'DA:3,4',
    'DA:4,1',
    'DA:5,1',
    'DA:6,0',
  );
  t.deepEqual(partOf(text), [2, 3, 5]);
});

test("coverage.py's lcov (a jump not taken, written at the line it leads to): a block taken on another line marks nothing", (t) => {
  const text = record(
    'DA:10,1',
    'DA:11,1',
    'DA:12,1',
    'BRDA:11,3,0,-', // block 3 (line 10's exits): the jump to 11 never happened, but 11 ran by another way
    'BRDA:12,3,1,1',
    'BRDA:12,4,0,-', // block 4: a jump to 12 not taken, its other branch the function's exit (line 0), taken
    'BRDA:0,4,1,1',
  );
  t.deepEqual(partOf(text), []);
});

test('a function never called (FNDA 0) marks the run line it is declared on; lcov 2 `FN:<start>,<end>,<name>` too', (t) => {
  const text = record('FN:1,never', 'FN:3,5,old', 'FN:7,called', 'FNDA:0,never', 'FNDA:0,old', 'FNDA:2,called');
  const lines = ['DA:1,1', 'DA:3,1', 'DA:7,1'];
  t.deepEqual(partOf(record(...text.split('\n').slice(1, -2), ...lines)), [1, 3]);
});

test('a branch count that cannot be read counts as never taken; a BRDA whose line cannot be read is stepped over', (t) => {
  t.deepEqual(partOf(record('BRDA:2,0,0,x', 'BRDA:x,0,0,0', 'DA:2,1')), [2]);
});

test('the answer does not depend on where the stream is cut, nor on DA coming before BRDA', (t) => {
  const text = record('DA:2,1', 'DA:3,1', 'BRDA:2,0,0,0', 'BRDA:3,1,0,2');
  for (let i = 1; i < text.length; i++) t.deepEqual(partOf(text, [i]), [2], `cut at ${i}`);
});

test('repeated records and several reports: a line stays "in part" only while every run that ran it ran it in part', (t) => {
  const text = [
    record('BRDA:2,0,0,0', 'BRDA:3,1,0,0', 'DA:2,1', 'DA:3,1', 'DA:4,0'),
    record('BRDA:2,0,0,1', 'DA:2,1', 'DA:3,0', 'BRDA:4,1,0,0', 'DA:4,1'),
  ].join('');
  t.deepEqual(partOf(text), [3, 4]);
  const reports = [
    feed(new LcovParser('one.info', all), record('BRDA:5,0,0,0', 'DA:5,1', 'BRDA:6,0,0,0', 'DA:6,1')),
    feed(new LcovParser('two.info', all), record('DA:5,3', 'DA:6,0')),
  ];
  const { byPath } = indexReports(reports, makeMatcher(['src/a.js'], null));
  t.deepEqual([...(byPath.get('src/a.js')?.partial ?? [])], [6]);
});

test('records of files the diff does not touch are still stepped over unread', (t) => {
  const data = feed(
    new LcovParser('cov.info', (p) => p.key === 'src/a.js'),
    'SF:other.js\nBRDA:what,ever\nFN:\nend_of_record\n' + record('BRDA:1,0,0,0', 'DA:1,1'),
  );
  t.deepEqual([...data.files.keys()], ['src/a.js']);
  t.deepEqual([...(data.files.get('src/a.js')?.partial ?? [])], [1]);
});

test('the worker-thread path (scan, then parse the kept records) marks the same lines', (t) => {
  const text = [
    record('BRDA:2,0,0,0', 'DA:2,1', 'FN:3,f', 'FNDA:0,f', 'DA:3,2'),
    'SF:other.js\nDA:1,1\nend_of_record\n',
    record('BRDA:2,0,0,1', 'DA:2,1'),
  ].join('');
  const scanner = createLcovScanner(lcovCandidate(['src/a.js'], null), 1 << 20);
  scanner.write(Buffer.from(text));
  const data = LcovParser.fromScan('cov.info', all, scanner.end());
  t.deepEqual([...(data.files.get('src/a.js')?.partial ?? [])], [3]);
  t.deepEqual(partOf(text), [3]);
});
