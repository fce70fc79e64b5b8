import test from 'ava';
import { judgeBoth } from './kit.js';
import { NODE_TEST } from './projects.js';

test.serial('node:test: the honest patch is ACCEPTed with per-file ids, the bad one is not', async (t) => {
  const { honest } = await judgeBoth(t, NODE_TEST, {
    ids: ['test/a.test.js::sum > adds', 'test/b.test.js::sum > adds'],
    fileOf: (id) => /^test\/[ab]\.test\.js::sum > /.test(id),
  });
  t.regex(honest.detected, /per-test report: the gate's node:test reporter/);
});
