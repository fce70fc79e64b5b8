// Which tests the self-check runs for a commit: the packages and end-to-end files its
// changed paths touch. The whole `npm test` (about 5 minutes) is too long to run on both
// trees, three claim rounds and every mutant; this is the subset, and it says what it left out.

/** The workspace packages with their own unit tests (a change anywhere inside runs all of them). */
const PACKAGES = [
  'schemas',
  'tools/ag-core',
  'tools/ag-run',
  'tools/ag-diffcov',
  'tools/ag-mutate',
  'tools/ag-oracle',
  'tools/ag-decide',
];

/** Paths outside the packages that an end-to-end test file exercises. */
const E2E_BY_PREFIX = [
  ['pipelines/demo/', 'e2e/demo.test.ts'],
  ['pipelines/github/', 'e2e/workflows.test.ts'],
  ['pipelines/', 'e2e/pipelines.test.ts'],
];

/**
 * @typedef {object} TestPlan
 * @property {string[]} packages workspace folders whose whole ava suite runs
 * @property {string[]} e2e test files of the e2e package (relative to `test/`) that run
 * @property {string[]} untested changed paths no selected test exercises
 * @property {string[]} e2eLeftOut end-to-end test files selected but not run (without `e2e`)
 */

/**
 * The tests a set of changed paths selects. A changed e2e test file runs itself; a changed
 * e2e helper runs the test files beside it; the e2e package's own configuration runs nothing
 * of its own (any e2e file exercises it).
 * @param {readonly string[]} changed repository-relative paths (old and new sides of renames)
 * @param {(rel: string) => string[]} listDir lists a folder of the patch tree ([] when absent)
 * @param {boolean} [withE2e] run the selected end-to-end files (each case is a whole pipeline:
 *   minutes per file), else list them as left out
 * @returns {TestPlan}
 */
export function planTests(changed, listDir, withE2e = false) {
  const packages = new Set();
  const e2e = new Set();
  const untested = [];
  for (const p of changed) {
    const pkg = PACKAGES.find((w) => p.startsWith(`${w}/`));
    if (pkg !== undefined) {
      packages.add(pkg);
      continue;
    }
    if (p.startsWith('test/')) {
      const rel = p.slice('test/'.length);
      if (rel.endsWith('.test.ts')) e2e.add(rel);
      else if (rel.includes('/')) {
        const dir = rel.slice(0, rel.lastIndexOf('/'));
        const siblings = listDir(`test/${dir}`).filter((f) => f.endsWith('.test.ts'));
        for (const f of siblings) e2e.add(`${dir}/${f}`);
        if (siblings.length === 0) untested.push(p);
      }
      continue;
    }
    const hit = E2E_BY_PREFIX.find(([prefix]) => p.startsWith(prefix));
    if (hit !== undefined) e2e.add(hit[1]);
    else untested.push(p);
  }
  const files = [...e2e].sort();
  return {
    packages: [...packages].sort(),
    e2e: withE2e ? files : [],
    untested: untested.sort(),
    e2eLeftOut: withE2e ? [] : files,
  };
}

/**
 * The arguments of run-tests.mjs for a plan: `DIR` for a whole package, `DIR:FILE` for one file.
 * @param {TestPlan} plan
 * @returns {string[]}
 */
export function testArgs(plan) {
  return [...plan.packages, ...plan.e2e.map((f) => `test:${f}`)];
}

/**
 * The workspace packages a tree must have built for a plan (the e2e tests run every tool's binary).
 * @param {TestPlan} plan
 * @returns {string[]}
 */
export function packagesToBuild(plan) {
  if (plan.e2e.length > 0) return PACKAGES;
  if (plan.packages.length === 0) return [];
  return PACKAGES.filter((p) => p === 'schemas' || p === 'tools/ag-core' || plan.packages.includes(p));
}
