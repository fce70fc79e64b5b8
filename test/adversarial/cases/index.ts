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
import { PEER } from './peer.js';
import { PROCESSES } from './processes.js';
import { RUNNER_GAMING } from './runner-gaming.js';
import { SANDBOX } from './sandbox.js';
import { TESTS_AND_ORACLES } from './tests-and-oracles.js';

export const CASES: readonly AdversarialCase[] = [
  ...CONTROLS,
  ...TESTS_AND_ORACLES,
  ...EDITED_TESTS,
  ...RUNNER_GAMING,
  ...CONFIG_AND_EVIDENCE,
  ...COVERAGE_AND_MUTATION,
  ...PROCESSES,
  ...SANDBOX,
  ...INFRASTRUCTURE,
  ...PEER,
  ...FOUND,
];

export { PENDING } from './found.js';
