/**
 * What ag-mutate says on stderr after a run: the score line and the survivors, so a
 * reviewer sees which assertion is missing without opening the artefact.
 * @module
 */
import type { MutationArtefact } from '@adversary-gate/schemas';
import { canaryKilledLine } from './canary.js';
import { revertName } from '@adversary-gate/core';
import { probeKilledLine } from './equality/probes.js';

const name = 'ag-mutate';

/** One stderr line: the strength (or why none) and the counts. */
export function summaryLine(m: MutationArtefact): string {
  const c = m.counts;
  const why =
    m.reason === 'baseline_red'
      ? "baseline_red: ag-mutate's own run of the unmutated patch tree failed"
      : m.reason === 'baseline_flaky'
        ? "baseline_flaky: ag-mutate's own runs of the unmutated patch tree disagreed"
        : m.reason === 'canary_killed'
          ? 'canary_killed: a test failed on a behaviour-neutral edit of a changed function, so the kills prove nothing'
          : m.reason;
  const score = m.suite_strength === null ? `not measured (${why})` : m.suite_strength.toFixed(4);
  const unverified = m.suite_strength_unverified ? ', UNVERIFIED source changed' : '';
  const equivalent = c.equivalent ? `, ${c.equivalent} probably equivalent` : '';
  return `${name}: suite strength ${score}: ${c.killed} killed, ${c.timeout} timeout, ${c.survived} survived, ${c.no_coverage} no coverage, ${c.stillborn} stillborn${equivalent}${unverified}\n`;
}

const SHOWN: Partial<Record<string, string>> = {
  survived: 'survived',
  no_coverage: 'no coverage',
  equivalent: 'probably equivalent',
};

/** Survivors, uncovered and probably equivalent mutants, one line each with original and replacement: the first 50, or all. */
export function survivorLines(m: MutationArtefact, all: boolean): string {
  const list = m.mutants.filter(
    (x) => x.status === 'survived' || x.status === 'no_coverage' || x.status === 'equivalent',
  );
  const shown = all ? list : list.slice(0, 50);
  const more = list.length - shown.length;
  return (
    shown
      .map(
        (x) =>
          `${name}: ${SHOWN[x.status] ?? x.status} ${x.file}:${x.line}:${x.column} ${x.operator}: - ${x.original.split('\n')[0]}  + ${x.replacement}${x.equivalence ? ` (${x.equivalence.note})` : ''}\n`,
      )
      .join('') +
    (more > 0 ? `${name}: … and ${more} more survivors (--verbose lists all; every one is in the artefact)\n` : '')
  );
}

/** The canaries that were killed or timed out, one line each. */
export function canaryLines(m: MutationArtefact): string {
  return (m.canaries ?? [])
    .filter((c) => c.status === 'killed' || c.status === 'timeout')
    .map((c) => `${name}: ${canaryKilledLine(c)}\n`)
    .join('');
}

/** The reverts no test told from the patch (survived, uncovered) or that were not judged, one line each. */
export function revertLines(m: MutationArtefact): string {
  const what: Partial<Record<string, string>> = {
    survived: 'survived (no test tells the change from no change)',
    no_coverage: 'not executed by any test',
    stillborn: 'did not compile or load here (not measured)',
    not_run: 'not run: the mutant budget left it out (not measured)',
  };
  return (m.reverts ?? [])
    .filter((r) => what[r.status] !== undefined)
    .map(
      (r) =>
        `${name}: revert of ${revertName(r)} ${what[r.status]}${r.equivalence?.verdict === 'probably_equivalent' ? `; the hunk changes no answer the judge found (${r.equivalence.note})` : ''}\n`,
    )
    .join('');
}

/** The equality probes that were killed or timed out, one line each. */
export function probeLines(m: MutationArtefact): string {
  return (m.equality_probes ?? [])
    .filter((p) => p.status === 'killed' || p.status === 'timeout')
    .map((p) => `${name}: ${probeKilledLine(p)}\n`)
    .join('');
}
