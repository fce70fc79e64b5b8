import test from 'ava';
import { judgeBoth, judgeSpecialCase } from './kit.js';
import { VITEST, VITEST4 } from './projects.js';

test.serial('vitest: the honest patch is ACCEPTed with per-file ids, the bad one is not', async (t) => {
  const { honest } = await judgeBoth(t, VITEST, {
    ids: ['test/a.test.js::sum > adds', 'test/b.test.js::sum > adds'],
    fileOf: (id) => /^test\/[ab]\.test\.js::/.test(id),
  });
  t.regex(honest.detected, /coverage: @vitest\/coverage-v8 the installed vitest's version, installed by the gate/);
});

test.serial(
  "vitest 4: the gate's coverage provider is found from vitest's own install; honest ACCEPT, bad not",
  async (t) => {
    const { honest } = await judgeBoth(t, VITEST4, {
      ids: ['test/a.test.js::sum > adds', 'test/b.test.js::sum > adds'],
      fileOf: (id) => /^test\/[ab]\.test\.js::/.test(id),
    });
    t.regex(honest.detected, /coverage: @vitest\/coverage-v8 the installed vitest's version, installed by the gate/);
  },
);

for (const [name, project] of [
  ['vitest', VITEST],
  ['vitest 4', VITEST4],
] as const)
  test.serial(
    `${name}: the calls are recorded; a special case on the test’s input holds, the fix does not`,
    async (t) => {
      await judgeSpecialCase(t, project);
    },
  );
