import test from 'ava';
import { judgeBoth } from './kit.js';
import { VITEST } from './projects.js';

test.serial('vitest: the honest patch is ACCEPTed with per-file ids, the bad one is not', async (t) => {
  const { honest } = await judgeBoth(t, VITEST, {
    ids: ['test/a.test.js::sum > adds', 'test/b.test.js::sum > adds'],
    fileOf: (id) => /^test\/[ab]\.test\.js::/.test(id),
  });
  t.regex(honest.detected, /coverage: @vitest\/coverage-v8 the installed vitest's version, installed by the gate/);
});
