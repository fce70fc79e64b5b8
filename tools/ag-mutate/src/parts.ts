/**
 * Strength per part of the patch: per changed file and per function in it, so a weak spot
 * cannot hide behind a well-tested neighbour; and the changed executable lines that no
 * mutant measured.
 * @module
 */
import { strengthOfMutants } from '@adversary-gate/core';
import type { FileStrength, Mutant, MutationArtefact } from '@adversary-gate/schemas';

type Counts = MutationArtefact['counts'];

/** Count one mutant of `status` into `counts` (`equivalent` only when some are). */
export function tally(counts: Counts, status: Mutant['status']): void {
  if (status === 'equivalent') counts.equivalent = (counts.equivalent ?? 0) + 1;
  else counts[status]++;
}
type Unmutated = NonNullable<MutationArtefact['unmutated_lines']>;

const zero = (): Counts => ({ killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 });

/** (killed + timeout) / (killed + timeout + survived + no_coverage); null when nothing counted. */
export function strengthOf(counts: Counts): number | null {
  const caught = counts.killed + counts.timeout;
  const denominator = caught + counts.survived + counts.no_coverage;
  return denominator === 0 ? null : caught / denominator;
}

/** Per file (sorted), and per named function in it (sorted): counts and strength (ag-core's rule over its own mutants). Module-level mutants count for the file only. */
export function strengthByFile(mutants: readonly Mutant[]): FileStrength[] {
  const files = new Map<
    string,
    { counts: Counts; own: Mutant[]; functions: Map<string, { counts: Counts; own: Mutant[] }> }
  >();
  for (const m of mutants) {
    const f = files.get(m.file) ?? {
      counts: zero(),
      own: [],
      functions: new Map<string, { counts: Counts; own: Mutant[] }>(),
    };
    files.set(m.file, f);
    tally(f.counts, m.status);
    f.own.push(m);
    if (m.function != null) {
      const c = f.functions.get(m.function) ?? { counts: zero(), own: [] };
      f.functions.set(m.function, c);
      tally(c.counts, m.status);
      c.own.push(m);
    }
  }
  return [...files.keys()].sort().map((file) => {
    const f = files.get(file)!;
    return {
      file,
      suite_strength: strengthOfMutants(f.own),
      counts: f.counts,
      functions: [...f.functions.keys()].sort().map((name) => {
        const fn = f.functions.get(name)!;
        return { name, suite_strength: strengthOfMutants(fn.own), counts: fn.counts };
      }),
    };
  });
}

/**
 * The executable changed lines (per file) on which no mutant that runs starts: the score
 * says nothing about them. `reached` holds `file\0line` of every runnable mutant.
 */
export function unmutatedLines(
  executable: ReadonlyMap<string, readonly number[]>,
  reached: ReadonlySet<string>,
): Unmutated {
  const out: Unmutated = [];
  for (const file of [...executable.keys()].sort()) {
    const lines = executable.get(file)!.filter((n) => !reached.has(`${file}\0${n}`));
    if (lines.length > 0) out.push({ file, lines: [...lines].sort((a, b) => a - b) });
  }
  return out;
}
