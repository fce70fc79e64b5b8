import test from 'ava';
import { judgeBoth } from './kit.js';
import { JEST } from './projects.js';

test.serial('jest: the honest patch is ACCEPTed with per-file ids, the bad one is not', async (t) => {
  const { honest } = await judgeBoth(t, JEST, {
    ids: ['test/a.test.js::sum adds', 'test/b.test.js::sum adds'],
    fileOf: (id) => /^test\/[ab]\.test\.js::/.test(id),
  });
  t.regex(honest.detected, /per-test report: jest-junit 16\.0\.0, installed by the gate/);
});
