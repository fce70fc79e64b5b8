/**
 * The strength rule, in one place: ag-mutate writes `suite_strength` with it, ag-decide
 * re-derives it from the listed mutants. Pure.
 *
 * A type-breaking mutant (`breaks_type`: a function body emptied, `return undefined`, a value
 * → `undefined`/`None`) dies on any test that runs it and uses the value, whatever that test
 * asserts: its kill says little, so it may lower the strength (a miss: not even the type of the
 * value is looked at) but never raise it. Every other counted mutant, the value-preserving
 * kind, counts both ways. Only where none of those was measured (no value-preserving mutant
 * that was killed, timed out, survived or went uncovered) do the type-breaking ones count both
 * ways: they are then the only evidence. So lines whose mutants only break types cannot raise a
 * score that value-preserving mutants measured.
 * @module
 */

/** What the rule reads of a mutant. */
export interface StrengthMutant {
  readonly status: 'killed' | 'survived' | 'timeout' | 'stillborn' | 'no_coverage' | 'equivalent';
  readonly breaks_type?: boolean | undefined;
}

/** The mutants the strength counts: caught (killed, timeout) and missed (survived, no coverage). */
export interface StrengthTally {
  readonly caught: number;
  readonly missed: number;
  /** Type-breaking mutants left out (killed ones beside value-preserving evidence). */
  readonly left_out: number;
}

const caught = (s: StrengthMutant['status']) => s === 'killed' || s === 'timeout';
const missed = (s: StrengthMutant['status']) => s === 'survived' || s === 'no_coverage';

/** Tally the mutants the strength counts (see the module). */
export function strengthTally(mutants: readonly StrengthMutant[]): StrengthTally {
  const counted = (m: StrengthMutant) => caught(m.status) || missed(m.status);
  const preserving = mutants.filter((m) => m.breaks_type !== true && counted(m));
  const breaking = mutants.filter((m) => m.breaks_type === true && counted(m));
  if (preserving.length === 0)
    return {
      caught: breaking.filter((m) => caught(m.status)).length,
      missed: breaking.filter((m) => missed(m.status)).length,
      left_out: 0,
    };
  const breakingMissed = breaking.filter((m) => missed(m.status)).length;
  return {
    caught: preserving.filter((m) => caught(m.status)).length,
    missed: preserving.filter((m) => missed(m.status)).length + breakingMissed,
    left_out: breaking.length - breakingMissed,
  };
}

/** caught / (caught + missed) under {@link strengthTally}; null when nothing counts. */
export function strengthOfMutants(mutants: readonly StrengthMutant[]): number | null {
  const t = strengthTally(mutants);
  return t.caught + t.missed === 0 ? null : t.caught / (t.caught + t.missed);
}
