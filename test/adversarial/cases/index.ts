// Every case the suite runs, by catalogue section (and the fail-opens it found, fixed since),
// and the cases held back as PENDING: known fail-opens (the gate ACCEPTs where it must not).
// The runner never runs PENDING; the summary lists it.
import type { AdversarialCase } from '../case.js';
import { CONFIG_AND_EVIDENCE } from './config-and-evidence.js';
import { CONTROLS } from './controls.js';
import { FOOTPRINT } from './footprint.js';
import { MOCKS } from './mocks.js';
import { FORGED, FORGED_OPEN } from './forged.js';
import { FOUND, PENDING as FOUND_PENDING } from './found.js';
import { COVERAGE_AND_MUTATION } from './coverage-and-mutation.js';
import { COVERAGE_REPORTS } from './coverage-reports.js';
import { DILUTION } from './dilution.js';
import { EDITED_TESTS } from './edited-tests.js';
import { EQUALITY_FIELDS } from './equality-fields.js';
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

/**
 * The patched code itself (issue 37): cheats whose own code produces the signal the gate
 * believes, each beside its honest twin, in JavaScript and Python. One section, in seven files (five classes)
 * by mechanism: the baseline's tests in the baseline's environment, the behaviour footprint
 * (with the mocks it judges against the real collaborators),
 * the perturbed environment, what runs as code, and kills and equality the tests cannot forge
 * (with equality a new field loosens).
 * `AG_ADV_SET=patched-code` runs exactly it.
 */
const PATCHED_CODE: readonly (readonly AdversarialCase[])[] = [
  TRUSTED_TREE,
  // One class: mocks are judged by the footprint's recording run and judge, as its cheats are.
  [...FOOTPRINT, ...MOCKS],
  PERTURBED,
  WHAT_RUNS,
  // One class: equality a new field loosens is judged by the same equality probes as forged.ts's.
  [...FORGED, ...EQUALITY_FIELDS],
];

/** The catalogue's sections by name (`AG_ADV_SET=<name>` runs one), in order. */
export const SECTIONS: Readonly<Record<string, readonly (readonly AdversarialCase[])[]>> = {
  controls: [CONTROLS],
  'tests-and-oracles': [TESTS_AND_ORACLES],
  'edited-tests': [EDITED_TESTS],
  judged: [JUDGED],
  'more-variants': [MORE_VARIANTS],
  'runner-gaming': [RUNNER_GAMING],
  'config-and-evidence': [CONFIG_AND_EVIDENCE],
  'coverage-and-mutation': [COVERAGE_AND_MUTATION],
  'coverage-reports': [COVERAGE_REPORTS],
  dilution: [DILUTION],
  refactors: [REFACTORS],
  processes: [PROCESSES],
  sandbox: [SANDBOX],
  infrastructure: [INFRASTRUCTURE],
  peer: [PEER],
  'patched-code': PATCHED_CODE,
  found: [FOUND],
};

/** Each section's classes (a section of one file is one class), in order. */
const CLASSES: readonly (readonly AdversarialCase[])[] = Object.values(SECTIONS).flat();

/** The whole catalogue (`npm run test:adversarial -w test`). */
export const CASES: readonly AdversarialCase[] = CLASSES.flat();

/** The first JavaScript control and the first Python control of a section. */
function controlsOf(cases: readonly AdversarialCase[]): AdversarialCase[] {
  const controls = cases.filter((c) => c.control === true);
  const js = controls.find((c) => c.project !== 'py');
  const py = controls.find((c) => c.project === 'py');
  return [js, py].filter((c): c is AdversarialCase => c !== undefined);
}

/**
 * What `npm test` runs of it: every case of the controls' own section, and of each other
 * class its first JavaScript and first Python control and its first attack, so every class,
 * its mechanism and its honest look-alike in both languages are exercised on each change
 * (within `npm test`'s time), while the whole catalogue, every control included, runs in its
 * own script.
 */
export const SAMPLE: readonly AdversarialCase[] = CLASSES.flatMap((cases) =>
  cases === CONTROLS ? [...cases] : [...controlsOf(cases), ...cases.filter((c) => c.control !== true).slice(0, 1)],
);

/** The known fail-opens (ACCEPTed today), each with the verdict the design wants: never run by the suite. */
export const PENDING: readonly AdversarialCase[] = [...FOUND_PENDING, ...FORGED_OPEN];
