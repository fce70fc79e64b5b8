/**
 * The equality rule over mutation.json's `equality_probes`: each equality hook the patch adds
 * or changes (a JavaScript/TypeScript `equals`/`isEqual`/`equal` class method, a Python
 * `__eq__`) made strict and judged as a mutant is.
 *
 * - A probe killed (or timed out): some test passes with the patch's hook and fails once the
 *   hook tells apart the values the strict comparison tells apart (the baseline's hook, or every
 *   field): the test passes only because the hook equates values that differ. Holds
 *   `EQUALITY_LOOSENED`, naming the hook (file:line, Class.method) and the killing test.
 * - A probe that measured nothing (`stillborn`: it did not compile or load, or none could be
 *   built; `not_run`: past the run's probe limit) holds `STRENGTH_UNVERIFIED` naming the hook:
 *   not measured is never a pass (ag-mutate's `EQUALITY_PROBE_UNJUDGED` fault says it too).
 * - Survived or not executed by any test: nothing to say.
 *
 * Silent where the kills prove nothing anyway (`canary_killed`: the tests read the source text,
 * and `STRENGTH_NOT_MEASURED` holds on its own).
 * @module
 */
import type { EqualityProbe, MutationArtefact, Reason } from '@adversary-gate/schemas';
import { listForMessage, reason } from '../reasons.js';

const name = (p: EqualityProbe) => `${p.file}:${p.line} ${p.hook}()`;

const through = (p: EqualityProbe) =>
  p.comparison === 'baseline'
    ? "the baseline's own comparison"
    : p.comparison === 'new_fields'
      ? `its own comparison with ${(p.fields ?? []).join(', ') || 'the new fields'} equal too`
      : 'every field compared strictly';

const what = (p: EqualityProbe) =>
  p.comparison === 'new_fields'
    ? `the equality hook ignores ${(p.fields ?? []).length > 1 ? 'fields' : 'a field'} the patch adds to its class (${(p.fields ?? []).join(', ')})`
    : 'the equality hook the patch adds or changes equates values that differ';

/** The equality reasons. */
export function equalityReasons(m: MutationArtefact): Reason[] {
  const probes = m.equality_probes ?? [];
  if (probes.length === 0 || m.reason === 'canary_killed') return [];
  const out: Reason[] = probes
    .filter((p) => p.status === 'killed' || p.status === 'timeout')
    .map((p) =>
      reason(
        'EQUALITY_LOOSENED',
        'mutation',
        `${name(p)}: ${what(p)}, and a test passes only because of it: with the hook made strict (${through(p)}) ${p.status === 'timeout' ? 'the tests ran out of time' : `${p.killed_by ?? 'the whole test command (no single test named)'} fails`}`,
      ),
    );
  const unjudged = probes.filter((p) => p.status === 'stillborn' || p.status === 'not_run');
  if (unjudged.length > 0)
    out.push(
      reason(
        'STRENGTH_UNVERIFIED',
        'mutation',
        `whether a test passes only because an equality hook the patch adds or changes equates values that differ was not measured: ${listForMessage(unjudged.map((p) => `${name(p)} (${p.status === 'not_run' ? 'its probe was past the run’s limit' : 'its probe did not compile or load'})`))}`,
      ),
    );
  return out;
}
