/**
 * What the Python judge measured of one function (records/judge.ts), read as the rules'
 * evidence: its footprint and its survivors' verdicts, decided by rules.ts as JavaScript's are.
 * @module
 */
import type { FootprintFunction } from '@adversary-gate/schemas';
import type { FunctionAnswers } from '../records/judge.js';
import { equivalenceVerdict, footprintFindings, footprintNotJudged, PYTHON, type EquivalenceAnswer } from './rules.js';

/** The footprint's measures of a function whose footprint was asked (`file`, `function` aside). */
type Measures = Omit<FootprintFunction, 'file' | 'function'>;

/** The footprint of `f` (undefined: it was not asked). */
export function pythonFootprint(f: FunctionAnswers): Measures | undefined {
  const fp = f.footprint;
  if (fp === null) return undefined;
  const counts = {
    recorded_calls: f.recorded_calls,
    kept_calls: f.kept_calls,
    distinct_calls: f.distinct.length,
    unpicklable_calls: f.unpicklable_calls,
  };
  if (fp.problem !== null) return { ...counts, ...footprintNotJudged(fp.problem) };
  const measures = footprintFindings(
    {
      calls: f.calls,
      unique: f.distinct,
      parameters: fp.parameters ?? { positional: [], other: 0 },
      hasBaseline: fp.baseline_literals !== null,
      baselineLiterals: fp.baseline_literals ?? fp.unguarded_literals ?? { ints: [], strs: [] },
      ...(fp.baseline_literals === null && fp.unguarded_literals !== null ? { unguarded: true } : {}),
      twice: fp.twice ?? { first: null, second: null, old: null },
      runner: fp.runner,
      ...(fp.special !== null ? { special: fp.special } : {}),
      contracts: fp.contracts,
    },
    PYTHON,
  );
  return { ...counts, ...measures };
}

/** The verdict of each of `f`'s survivors asked about, by site index. */
export function pythonVerdicts(f: FunctionAnswers): [number, EquivalenceAnswer][] {
  const eq = f.equivalence;
  if (eq === null) return [];
  return Object.entries(eq.mutants).map(([id, mutant]) => [
    Number(id),
    equivalenceVerdict(
      {
        texts: eq.inputs,
        k: f.distinct.length,
        unrecordable: f.unpicklable_calls,
        problem: eq.problem,
        live: eq.live,
        reference: eq.reference,
        mutant,
      },
      PYTHON,
    ),
  ]);
}
