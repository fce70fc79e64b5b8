// The strength rule: type-breaking kills never raise a strength that value-preserving mutants
// measured; alone, they count both ways.
import test from 'ava';
import { strengthOfMutants, strengthTally, type StrengthMutant } from '../src/index.js';

const vp = (status: StrengthMutant['status']): StrengthMutant => ({ status });
const tb = (status: StrengthMutant['status']): StrengthMutant => ({ status, breaks_type: true });

test('mul tested by typeof: the value-preserving survivor alone decides, 0', (t) => {
  const mutants = [vp('survived'), tb('killed'), tb('killed')];
  t.deepEqual(strengthTally(mutants), { caught: 0, missed: 1, left_out: 2 });
  t.is(strengthOfMutants(mutants), 0);
});

test('padding with killed type-breaking mutants changes nothing', (t) => {
  const base = [vp('killed'), vp('survived'), tb('killed')];
  const padded = [...base, ...Array.from({ length: 20 }, () => tb('killed'))];
  t.is(strengthOfMutants(base), 0.5);
  t.is(strengthOfMutants(padded), 0.5);
});

test('a surviving type-breaking mutant lowers the strength; timeouts catch; stillborn and equivalent count nowhere', (t) => {
  t.is(strengthOfMutants([vp('killed'), tb('survived')]), 0.5);
  t.is(strengthOfMutants([vp('timeout'), tb('no_coverage'), vp('stillborn'), vp('equivalent')]), 0.5);
});

test('only type-breaking mutants: they count both ways; nothing counted: null', (t) => {
  t.is(strengthOfMutants([tb('killed'), tb('survived')]), 0.5);
  t.is(strengthOfMutants([vp('stillborn'), tb('killed')]), 1);
  t.is(strengthOfMutants([vp('stillborn')]), null);
  t.is(strengthOfMutants([]), null);
});
