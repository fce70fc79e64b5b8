// Every case the suite runs, by catalogue section (and the fail-opens it found, fixed since),
// and the cases held back as PENDING: known fail-opens (the gate ACCEPTs where it must not).
// The runner never runs PENDING; the summary lists it.
import type { AdversarialCase } from '../case.js';
import { CONFIG_AND_EVIDENCE } from './config-and-evidence.js';
import { CONTROLS } from './controls.js';
import { FOUND } from './found.js';
import { COVERAGE_AND_MUTATION } from './coverage-and-mutation.js';
import { EDITED_TESTS } from './edited-tests.js';
import { INFRASTRUCTURE } from './infrastructure.js';
import { JUDGED } from './judged.js';
import { MORE_VARIANTS } from './more-variants.js';
import { PEER } from './peer.js';
import { PROCESSES } from './processes.js';
import { RUNNER_GAMING } from './runner-gaming.js';
import { SANDBOX } from './sandbox.js';
import { TESTS_AND_ORACLES } from './tests-and-oracles.js';
import { TRUSTED_TREE } from './trusted-tree.js';

/** The catalogue's sections, in order. */
const SECTIONS: readonly (readonly AdversarialCase[])[] = [
  CONTROLS,
  TESTS_AND_ORACLES,
  EDITED_TESTS,
  JUDGED,
  MORE_VARIANTS,
  TRUSTED_TREE,
  RUNNER_GAMING,
  CONFIG_AND_EVIDENCE,
  COVERAGE_AND_MUTATION,
  PROCESSES,
  SANDBOX,
  INFRASTRUCTURE,
  PEER,
  FOUND,
];

/** The whole catalogue (`npm run test:adversarial -w test`). */
export const CASES: readonly AdversarialCase[] = SECTIONS.flat();

/**
 * What `npm test` runs of it: every honest control (a false alarm anywhere is a defect) and
 * the first two attacks of each section, so every class and its mechanism is exercised on
 * each change while the whole catalogue stays in its own script.
 */
export const SAMPLE: readonly AdversarialCase[] = SECTIONS.flatMap((cases) => [
  ...cases.filter((c) => c.control === true),
  ...cases.filter((c) => c.control !== true).slice(0, 2),
]);

export { PENDING } from './found.js';
