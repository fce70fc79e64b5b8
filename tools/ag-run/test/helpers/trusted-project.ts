/**
 * The small node:test project the trusted-run tests patch, and ag-run over it with the full
 * suite once (`node --test test/`), its run artefact or an error.
 * @module
 */
import type { RunArtefact } from '@adversary-gate/schemas';
import { agRun as agRunRaw, nodeTest, type Repo } from './repo.js';

/** ag-run's arguments: the full suite once. */
export const NODE = ['--test-command', 'node --test test/', '--rounds', '1', '--jobs', '2', '--timeout', '60'];

/** ag-run's artefact for `repo`, or an error naming its exit and stderr. */
export async function trustedRun(repo: Repo): Promise<RunArtefact> {
  const r = await agRunRaw(repo, NODE);
  if (r.status !== 0 || r.run === null) throw new Error(`ag-run exited ${r.status}: ${r.stderr}`);
  return r.run;
}

/** calc.js's sub and add, and a test of each. */
export const calcProject = {
  'calc.js': 'exports.sub = (a, b) => a - b;\nexports.add = (a, b) => a + b;\n',
  'test/calc.test.js': nodeTest(
    `const { sub, add } = require('../calc.js');\ntest('subtracts', () => assert.equal(sub(5, 3), 2));\ntest('adds', () => assert.equal(add(1, 2), 3));`,
  ),
};
