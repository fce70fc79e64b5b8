import test from 'ava';
import { judgeBoth } from './kit.js';
import { MOCHA } from './projects.js';

test.serial('mocha: the honest patch is ACCEPTed with per-file ids, the bad one is not', async (t) => {
  const { honest } = await judgeBoth(t, MOCHA, {
    ids: ['test/a.test.js::adds', 'test/b.test.js::adds'],
    fileOf: (id) => /^test\/[ab]\.test\.js::/.test(id),
  });
  t.regex(honest.detected, /coverage: c8 10\.1\.3, installed by the gate/);
});
