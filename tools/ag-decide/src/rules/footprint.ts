/**
 * The behaviour footprint (mutation.json's `footprint`): what the changed Python functions did
 * when called again apart from the tests. Each finding holds (`BEHAVIOUR_SUSPECTED`), naming
 * the function, the mechanism and the call: state the patch added (the same call answering
 * differently twice), behaviour that needs the test runner, a change whose answers differ from
 * the baseline's only at the tests' exact inputs, a collaborator the tests replaced with one whose
 * answers the real one cannot give. A footprint that was attempted and could not
 * be measured at all (`not_measured`: the recording or the judge left nothing) holds too; a
 * function the footprint could not answer for (too few calls, arguments that cannot leave the
 * test process) is reported in the artefact and does not hold alone.
 * @module
 */
import type { MutationArtefact, Reason } from '@adversary-gate/schemas';
import { listForMessage, reason } from '../reasons.js';

const MECHANISM = {
  stateful: 'state the patch added: the same call answers differently the second time',
  runner_dependent: 'answers differently when the test runner is loaded',
  special_case: 'the change alters the answer only at the tests’ exact inputs',
  mock_contradicted: 'the tests replaced a collaborator with one whose answers the real one cannot give',
} as const;

/** The footprint's reasons. */
export function footprintReasons(m: MutationArtefact): Reason[] {
  const fp = m.footprint;
  if (fp === undefined) return [];
  if (fp.status === 'not_measured')
    return [
      reason(
        'BEHAVIOUR_SUSPECTED',
        'mutation',
        `the behaviour footprint of the changed functions was not measured: ${fp.note ?? 'no cause given'}`,
      ),
    ];
  const out: Reason[] = [];
  for (const f of fp.functions) {
    for (const kind of ['stateful', 'runner_dependent', 'special_case', 'mock_contradicted'] as const) {
      const found = f.findings.filter((x) => x.kind === kind);
      if (found.length === 0) continue;
      const calls = listForMessage(
        found.map((x) => `${x.call} (${x.detail})`),
        3,
      );
      out.push(
        reason('BEHAVIOUR_SUSPECTED', 'mutation', `${f.file} ${f.function}(): ${kind}: ${MECHANISM[kind]}: ${calls}`),
      );
    }
  }
  return out;
}
