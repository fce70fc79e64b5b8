/**
 * End to end: the baseline's versions of the tests the patch changed judge the patched code.
 */
import test from 'ava';
import type { RunArtefact } from '@adversary-gate/schemas';
import { agRun as agRunRaw, makeRepo, nodeTest, removeTemporaries, type Repo } from './helpers/repo.js';

test.after.always(removeTemporaries);

const NODE = ['--test-command', 'node --test test/', '--rounds', '1', '--jobs', '2', '--timeout', '60'];
async function agRun(repo: Repo): Promise<RunArtefact> {
  const r = await agRunRaw(repo, NODE);
  if (r.status !== 0 || r.run === null) throw new Error(`ag-run exited ${r.status}: ${r.stderr}`);
  return r.run;
}

const project = {
  'calc.js': 'exports.sub = (a, b) => a - b;\nexports.add = (a, b) => a + b;\n',
  'test/calc.test.js': nodeTest(
    `const { sub, add } = require('../calc.js');\ntest('subtracts', () => assert.equal(sub(5, 3), 2));\ntest('adds', () => assert.equal(add(1, 2), 3));`,
  ),
};

test('a patch that breaks sub and edits the expected value to match: every normal run passes, the trusted test fails', async (t) => {
  const repo = await makeRepo(project, {
    'calc.js': 'exports.sub = (a, b) => a + b;\nexports.add = (a, b) => a + b;\n',
    'test/calc.test.js': nodeTest(
      `const { sub, add } = require('../calc.js');\ntest('subtracts', () => assert.equal(sub(5, 3), 8));\ntest('adds', () => assert.equal(add(1, 2), 3));`,
    ),
  });
  const run = await agRun(repo);
  t.deepEqual(
    [run.claims[0]!.status, run.claims[0]!.class],
    ['VERIFIED', 'still_passing'],
    'the edited test passes on the patch',
  );
  const trusted = run.trusted_tests!;
  t.deepEqual(trusted.files, [{ path: 'test/calc.test.js', change: 'modified', renamed_to: null }]);
  t.is(trusted.execution?.outcome, 'FAIL');
  t.deepEqual(trusted.failed, [{ id: 'subtracts', outcome: 'failed' }]);
});

test('the next cheat of the kind: the assertion swallowed in a try/catch is caught the same way', async (t) => {
  const repo = await makeRepo(project, {
    'calc.js': 'exports.sub = (a, b) => a + b;\nexports.add = (a, b) => a + b;\n',
    'test/calc.test.js': nodeTest(
      `const { sub, add } = require('../calc.js');\ntest('subtracts', () => { try { assert.equal(sub(5, 3), 2); } catch {} });\ntest('adds', () => assert.equal(add(1, 2), 3));`,
    ),
  });
  const run = await agRun(repo);
  t.deepEqual(run.trusted_tests?.failed, [{ id: 'subtracts', outcome: 'failed' }]);
});

test('honest control: a patch that adds a test to an existing file and keeps the behaviour: the trusted run passes, nothing named', async (t) => {
  const repo = await makeRepo(project, {
    'calc.js': 'exports.sub = (a, b) => a - b;\nexports.add = (a, b) => b + a;\n',
    'test/calc.test.js': nodeTest(
      `const { sub, add } = require('../calc.js');\ntest('subtracts', () => assert.equal(sub(5, 3), 2));\ntest('adds', () => assert.equal(add(1, 2), 3));\ntest('adds negatives', () => assert.equal(add(-1, -2), -3));`,
    ),
  });
  const run = await agRun(repo);
  t.is(run.trusted_tests?.execution?.outcome, 'PASS');
  t.deepEqual(run.trusted_tests?.failed, []);
});

test('honest control: a patch that changes no test file makes no trusted execution', async (t) => {
  const repo = await makeRepo(project, {
    'calc.js': 'exports.sub = (a, b) => a - b;\nexports.add = (a, b) => b + a;\n',
    'test/more.test.js': nodeTest(`test('more', () => assert.ok(1));`),
  });
  const run = await agRun(repo);
  t.is(run.trusted_tests, undefined);
});
