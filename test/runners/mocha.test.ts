import test from 'ava';
import { buildRepo, judge, judgeBoth, testIds, why, type Project } from './kit.js';
import { MOCHA } from './projects.js';

test.serial('mocha: the honest patch is ACCEPTed with per-file ids, the bad one is not', async (t) => {
  const { honest } = await judgeBoth(t, MOCHA, {
    ids: ['test/a.test.js::adds', 'test/b.test.js::adds'],
    fileOf: (id) => /^test\/[ab]\.test\.js::/.test(id),
  });
  t.regex(honest.detected, /coverage: c8 10\.1\.3, installed by the gate/);
});

/** MOCHA with a test of the argv the program sees (mocha runs the tests in its CLI's process). */
const MOCHA_ARGV: Project = {
  ...MOCHA,
  files: {
    ...MOCHA.files,
    // What `npm test` (mocha --check-leaks test/) gives the program, and no more under the gate.
    'test/argv.test.js':
      "const assert = require('node:assert');\ndescribe('argv', () => {\n  it('is the project own', () => {\n    assert.deepStrictEqual(process.argv.slice(2), ['--check-leaks', 'test/']);\n  });\n});\n",
  },
};

test.serial('mocha: the program sees its own argv, never the gate’s reporter flags (#38)', async (t) => {
  const repo = buildRepo(t, MOCHA_ARGV);
  const honest = await judge(t, repo, repo.honest);
  t.is(honest.verdict.verdict, 'ACCEPT', why(honest));
  t.true(
    testIds(honest).some((id) => id.startsWith('test/argv.test.js::') && id.endsWith('is the project own')),
    `the argv test is in the per-test report: ${testIds(honest).join(' | ')}`,
  );
  t.regex(honest.detected, /the program's argv: the project's own/);
});
