// Every case the suite runs, by catalogue section (and the fail-opens it found, fixed since),
// and the cases held back as PENDING: known fail-opens (the gate ACCEPTs where it must not).
// The runner never runs PENDING; the summary lists it.
import type { AdversarialCase } from '../case.js';
import { CONFIG_AND_EVIDENCE } from './config-and-evidence.js';
import { CONTROLS } from './controls.js';
import { FOOTPRINT } from './footprint.js';
import { FOUND } from './found.js';
import { COVERAGE_AND_MUTATION } from './coverage-and-mutation.js';
import { COVERAGE_REPORTS } from './coverage-reports.js';
import { DILUTION } from './dilution.js';
import { EDITED_TESTS } from './edited-tests.js';
import { INFRASTRUCTURE } from './infrastructure.js';
import { JUDGED } from './judged.js';
import { MORE_VARIANTS } from './more-variants.js';
import { PEER } from './peer.js';
import { PERTURBED } from './perturbed.js';
import { PROCESSES } from './processes.js';
import { REFACTORS } from './refactors.js';
import { RUNNER_GAMING } from './runner-gaming.js';
import { SANDBOX } from './sandbox.js';
import { TESTS_AND_ORACLES } from './tests-and-oracles.js';
import { TRUSTED_TREE } from './trusted-tree.js';
import { WHAT_RUNS } from './what-runs.js';

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
  COVERAGE_REPORTS,
  DILUTION,
  REFACTORS,
  WHAT_RUNS,
  PROCESSES,
  SANDBOX,
  INFRASTRUCTURE,
  PEER,
  FOOTPRINT,
  PERTURBED,
  FOUND,
];

/** The whole catalogue (`npm run test:adversarial -w test`). */
export const CASES: readonly AdversarialCase[] = SECTIONS.flat();

/** The first JavaScript control and the first Python control of a section. */
function controlsOf(cases: readonly AdversarialCase[]): AdversarialCase[] {
  const controls = cases.filter((c) => c.control === true);
  const js = controls.find((c) => c.project !== 'py');
  const py = controls.find((c) => c.project === 'py');
  return [js, py].filter((c): c is AdversarialCase => c !== undefined);
}

/**
 * What `npm test` runs of it: every case of the controls' own section, and of each other
 * section its first JavaScript and first Python control and its first attack, so every class,
 * its mechanism and its honest look-alike in both languages are exercised on each change
 * (within `npm test`'s time), while the whole catalogue, every control included, runs in its
 * own script.
 */
export const SAMPLE: readonly AdversarialCase[] = SECTIONS.flatMap((cases) =>
  cases === CONTROLS ? [...cases] : [...controlsOf(cases), ...cases.filter((c) => c.control !== true).slice(0, 1)],
);

export { PENDING } from './found.js';
