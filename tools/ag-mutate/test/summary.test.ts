import test from 'ava';
import type { Mutant } from '@adversary-gate/schemas';
import { buildArtefact } from '../src/artefact.js';
import { summaryLine, survivorLines } from '../src/summary.js';

const mutant = (id: string, status: Mutant['status'], line: number): Mutant => ({
  id,
  file: 'src/a.js',
  line,
  column: 3,
  operator: 'EqualityOperator',
  original: '<',
  replacement: '<=',
  status,
  killed_by: null,
});

function artefact(mutants: Mutant[], foreign: string[] = []) {
  return buildArtefact({
    diffSha256: `sha256:${'0'.repeat(64)}`,
    inputs: [],
    faults: [],
    foreign,
    deleted: [],
    mutants,
    reason: null,
    budget: null,
    shard: null,
    engine: 'ag-mutate',
  });
}

test('the summary gives the strength, the counts and an unverified warning', (t) => {
  t.is(
    summaryLine(artefact([mutant('a', 'killed', 1), mutant('b', 'survived', 2)], ['x.sql'])),
    'ag-mutate: suite strength 0.5000: 1 killed, 0 timeout, 1 survived, 0 no coverage, 0 stillborn, UNVERIFIED source changed\n',
  );
  t.regex(summaryLine(artefact([])), /not measured \(no_mutants\)/);
});

test('survivors and uncovered mutants are listed with their replacement, fifty unless all are asked for', (t) => {
  const many = Array.from({ length: 60 }, (_, i) => mutant(`m${i}`, i % 2 ? 'survived' : 'no_coverage', i + 1));
  const lines = survivorLines(artefact(many), false).trimEnd().split('\n');
  t.is(lines.length, 51);
  t.is(lines[0], 'ag-mutate: no coverage src/a.js:1:3 EqualityOperator: - <  + <=');
  t.regex(lines[50]!, /and 10 more survivors/);
  t.is(survivorLines(artefact(many), true).trimEnd().split('\n').length, 60);
  t.is(survivorLines(artefact([mutant('k', 'killed', 1)]), false), '');
});
