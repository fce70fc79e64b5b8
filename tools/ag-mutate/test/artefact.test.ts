import test from 'ava';
import * as v from 'valibot';
import { MutationArtefact, type Mutant } from '@adversary-gate/schemas';
import { buildArtefact, countMutants, strengthOf } from '../src/artefact.js';

function mutant(id: string, status: Mutant['status'], line = 1): Mutant {
  return {
    id,
    file: 'a.js',
    line,
    column: 1,
    operator: 'op',
    original: 'a',
    replacement: 'b',
    status,
    killed_by: null,
  };
}

const BASE = {
  diffSha256: `sha256:${'0'.repeat(64)}` as const,
  inputs: [],
  faults: [],
  foreign: [],
  deleted: [],
  budget: null,
  shard: null,
  engine: 'ag-mutate' as const,
};

test('strength is (killed + timeout) over everything but stillborn, no coverage counting as survived', (t) => {
  const mutants = [
    mutant('1', 'killed'),
    mutant('2', 'timeout'),
    mutant('3', 'survived'),
    mutant('4', 'no_coverage'),
    mutant('5', 'stillborn'),
  ];
  const counts = countMutants(mutants);
  t.deepEqual(counts, { killed: 1, timeout: 1, survived: 1, no_coverage: 1, stillborn: 1 });
  t.is(strengthOf(counts), 0.5);
});

test('a run whose every mutant was stillborn has no score: no_mutants', (t) => {
  const a = buildArtefact({ ...BASE, mutants: [mutant('1', 'stillborn')], reason: null });
  t.is(a.suite_strength, null);
  t.is(a.reason, 'no_mutants');
  t.is(a.counts.stillborn, 1);
});

test('the artefact validates against the schema and is unverified with foreign or deleted files', (t) => {
  const a = buildArtefact({
    ...BASE,
    foreign: ['x.sql'],
    mutants: [mutant('2', 'killed', 3), mutant('1', 'survived', 2)],
    reason: null,
  });
  t.true(v.safeParse(MutationArtefact, a).success);
  t.true(a.suite_strength_unverified);
  t.deepEqual(
    a.mutants.map((m) => m.id),
    ['1', '2'],
  );
  t.is(a.suite_strength, 0.5);
});

test('a reason decided before counting wins over the mutants', (t) => {
  const a = buildArtefact({ ...BASE, mutants: [], reason: 'budget_zero', deleted: ['gone.js'] });
  t.is(a.suite_strength, null);
  t.is(a.reason, 'budget_zero');
  t.true(a.suite_strength_unverified);
});
