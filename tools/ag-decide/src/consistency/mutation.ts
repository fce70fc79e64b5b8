/**
 * Invariants of mutation.json, including a cross-check against the diff itself.
 * @module
 */
import { strengthTally } from '@adversary-gate/core';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { sameRatio } from './changed-lines.js';

/** The first broken invariant, or null. `sourceLines` is what the diff says changed. */
export function mutationProblem(
  m: MutationArtefact,
  sourceLines: Map<string, ReadonlySet<number>>,
  addedLines: Map<string, ReadonlySet<number>>,
): string | null {
  const tally: Record<string, number> = { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 };
  const ids = new Set<string>();
  for (const mutant of m.mutants) {
    if (ids.has(mutant.id)) return `mutant ${mutant.id} appears twice`;
    ids.add(mutant.id);
    tally[mutant.status] = (tally[mutant.status] ?? 0) + 1;
    const equivalent = mutant.equivalence?.verdict === 'probably_equivalent';
    if ((mutant.status === 'equivalent') !== equivalent)
      return `mutant ${mutant.id} is ${mutant.status} but its differential check says ${mutant.equivalence?.verdict ?? 'nothing'}`;
    if (mutant.equivalence !== undefined && mutant.status !== 'equivalent' && mutant.status !== 'survived')
      return `mutant ${mutant.id} is ${mutant.status}, yet it carries a differential check (only survivors are checked)`;
    if (!addedLines.get(mutant.file)?.has(mutant.line))
      return `mutant ${mutant.id} is on ${mutant.file}:${mutant.line}, not an added line of this diff`;
  }
  for (const key of ['killed', 'survived', 'timeout', 'stillborn', 'no_coverage', 'equivalent'] as const) {
    if ((tally[key] ?? 0) !== (m.counts[key] ?? 0))
      return `counts.${key} is ${m.counts[key] ?? 0} but ${tally[key] ?? 0} mutants have that status`;
  }
  if (m.counts.equivalent === 0) return 'counts.equivalent is 0: it is left out when no mutant is equivalent';
  // ag-core's rule: type-breaking kills count only where nothing else was measured.
  const { caught, missed } = strengthTally(m.mutants);
  const denominator = caught + missed;
  if (m.suite_strength === null) {
    if (m.reason === null) return 'suite_strength is null without a reason';
    if (m.reason === 'no_source_changed' && sourceLines.size > 0)
      return `reason no_source_changed, yet the diff changes source: ${[...sourceLines.keys()][0]}`;
    if (m.reason === 'dead_code_only' && ([...sourceLines.values()].some((l) => l.size > 0) || m.mutants.length > 0))
      return 'reason dead_code_only, yet the diff adds source lines or mutants are listed';
    if (m.reason === 'no_executable_change' && m.mutants.length > 0)
      return `reason no_executable_change, yet ${m.mutants.length} mutants are listed`;
    if (m.reason === 'no_executable_change' && (m.unmutated_lines ?? []).length > 0)
      return 'reason no_executable_change, yet unmutated executable lines are listed';
  } else {
    if (m.reason !== null) return 'a reason is given for a strength that is not null';
    if (denominator === 0) return 'a strength with no killed or survived mutant';
    if (!sameRatio(m.suite_strength, caught / denominator))
      return `suite_strength ${m.suite_strength} is not caught/(caught+missed) over the mutants that count (${caught}/${denominator})`;
  }
  for (const f of m.dead_files ?? []) {
    if (addedLines.get(f)?.size !== 0 || m.deleted_files.includes(f))
      return `dead file ${f} is no file this diff deletes, or is also listed among the deleted files`;
  }
  return (
    canaryProblem(m, addedLines) ??
    revertProblem(m, addedLines) ??
    probeProblem(m, addedLines) ??
    partsProblem(m, sourceLines)
  );
}

/** Reverts are no mutants (in no count): one id each, in a file of this diff, a killer only when killed. */
function revertProblem(m: MutationArtefact, changedFiles: Map<string, ReadonlySet<number>>): string | null {
  const ids = new Set([...m.mutants, ...(m.canaries ?? [])].map((x) => x.id));
  for (const r of m.reverts ?? []) {
    if (ids.has(r.id)) return `revert ${r.id} appears twice, or is also listed as a mutant or canary`;
    ids.add(r.id);
    if (!changedFiles.has(r.file)) return `revert ${r.id} is in ${r.file}, a file this diff does not change`;
    if (r.killed_by !== null && r.status !== 'killed') return `revert ${r.id} is ${r.status}, yet names a killer`;
    if (r.equivalence !== undefined && (r.status !== 'survived' || r.scope === 'file'))
      return `revert ${r.id} carries an equivalence answer, yet is ${r.scope === 'file' ? 'a whole file put back' : r.status}`;
    if (r.added_guard === true && (r.old_lines !== 0 || r.new_lines === 0 || r.scope === 'file'))
      return `revert ${r.id} is marked an added guard, yet its hunk is no pure addition of one hunk`;
  }
  return null;
}

/** Equality probes are no mutants (in no count): one id each, in a file this diff adds lines to, a killer only when killed. */
function probeProblem(m: MutationArtefact, addedLines: Map<string, ReadonlySet<number>>): string | null {
  const ids = new Set([...m.mutants, ...(m.canaries ?? []), ...(m.reverts ?? [])].map((x) => x.id));
  for (const p of m.equality_probes ?? []) {
    if (ids.has(p.id)) return `equality probe ${p.id} appears twice, or is also listed as a mutant, canary or revert`;
    ids.add(p.id);
    if (!addedLines.has(p.file)) return `equality probe ${p.id} is in ${p.file}, a file this diff adds no line to`;
    if (p.killed_by !== null && p.status !== 'killed')
      return `equality probe ${p.id} is ${p.status}, yet names a killer`;
  }
  return null;
}

/**
 * Canaries are no mutants (in no count); one that was killed or timed out voids the strength:
 * `canary_killed` needs such a canary, and a strength may not stand beside one.
 */
function canaryProblem(m: MutationArtefact, addedLines: Map<string, ReadonlySet<number>>): string | null {
  const canaries = m.canaries ?? [];
  const ids = new Set(m.mutants.map((x) => x.id));
  for (const c of canaries) {
    if (ids.has(c.id)) return `canary ${c.id} is also listed as a mutant`;
    ids.add(c.id);
    if (!addedLines.has(c.file)) return `canary ${c.id} is in ${c.file}, a file this diff adds no line to`;
    if (c.killed_by !== null && c.status !== 'killed') return `canary ${c.id} is ${c.status}, yet names a killer`;
  }
  const killed = canaries.filter((c) => c.status === 'killed' || c.status === 'timeout');
  if (m.reason === 'canary_killed' && killed.length === 0) return 'reason canary_killed, yet no canary was killed';
  if (m.suite_strength !== null && killed.length > 0)
    return `canary ${killed[0]!.id} was ${killed[0]!.status === 'timeout' ? 'timed out' : 'killed'}, yet a strength is given`;
  return null;
}

/** by_file must be the mutants' own tally; unmutated lines must be changed source lines no runnable mutant starts on. */
function partsProblem(m: MutationArtefact, sourceLines: Map<string, ReadonlySet<number>>): string | null {
  if (m.by_file !== undefined) {
    const key = (file: string, fn: string | null) => `${file}\0${fn ?? ''}`;
    const want = new Map<string, Record<string, number>>();
    const bump = (k: string, status: string) => {
      const c = want.get(k) ?? { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 };
      c[status] = (c[status] ?? 0) + 1;
      want.set(k, c);
    };
    for (const x of m.mutants) {
      bump(key(x.file, null), x.status);
      if (x.function != null) bump(key(x.file, x.function), x.status);
    }
    let parts = 0;
    for (const f of m.by_file) {
      for (const [k, counts] of [
        [key(f.file, null), f.counts],
        ...f.functions.map((fn) => [key(f.file, fn.name), fn.counts] as const),
      ] as const) {
        parts++;
        if (JSON.stringify(want.get(k)) !== JSON.stringify(counts))
          return `by_file counts for ${k.replace('\0', ' ')} are not its mutants' tally`;
      }
    }
    if (parts !== want.size) return 'by_file leaves out a file or function that has mutants';
  }
  if (m.unmutated_lines !== undefined) {
    const reached = new Set(m.mutants.filter((x) => x.status !== 'stillborn').map((x) => `${x.file}\0${x.line}`));
    for (const u of m.unmutated_lines) {
      for (const line of u.lines) {
        if (!sourceLines.get(u.file)?.has(line))
          return `unmutated line ${u.file}:${line} is not a changed source line of this diff`;
        if (reached.has(`${u.file}\0${line}`)) return `unmutated line ${u.file}:${line} has a mutant`;
      }
    }
  }
  return null;
}
