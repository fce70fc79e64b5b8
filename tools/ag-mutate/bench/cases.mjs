/**
 * The four anchor commits of the mutation benchmark (`shared/bench/mutate`): where each comes
 * from, the test command and the mutant command ag-mutate is given, StrykerJS's settings and
 * the lines it is asked to mutate. compare.mjs and equality.mjs both run them.
 * @module
 */
const MOCHA = 'node_modules/.bin/mocha --require test/support/env --reporter dot --check-leaks test/ test/acceptance/';
const VITEST = 'node_modules/.bin/vitest run src/index.spec.ts';
const MOCHA_STRYKER = {
  testRunner: 'mocha',
  mochaOptions: { spec: ['test/*.js', 'test/acceptance/*.js'], require: ['test/support/env'] },
};
const VITEST_STRYKER = { testRunner: 'vitest', vitest: { configFile: 'vitest.agm.config.mts' } };
export const CASES = {
  'ptr-escape': {
    git: 'ptr-git',
    commit: '9a788793e7eeb0ccf9c53c1cb54d297b5badfcc3',
    test: VITEST,
    mutant: `${VITEST} --bail=1`,
    stryker: VITEST_STRYKER,
    mutate: ['src/index.ts:222-228', 'src/index.ts:248', 'src/index.ts:252'],
  },
  'ptr-optional': {
    git: 'ptr-git',
    commit: '22a967901afc8b2b42eefe456faa7b6773dcc415',
    test: VITEST,
    mutant: `${VITEST} --bail=1`,
    stryker: VITEST_STRYKER,
    mutate: ['468', '480-483', '494', '499', '510', '538', '540-543', '545-546'].map((r) => `src/index.ts:${r}`),
  },
  'express-send-te': {
    git: 'express-git',
    commit: '18e5985b8a9d5e8423db0a9121f22bdaecd5b120',
    test: MOCHA,
    mutant: MOCHA.replace('mocha ', 'mocha --bail '),
    stryker: MOCHA_STRYKER,
    mutate: ['lib/response.js:165-168'],
  },
  'express-query-fresh': {
    git: 'express-git',
    commit: 'ae6dd37680e3a00618d6c8a3e522f0ee4eeba1a4',
    test: MOCHA,
    mutant: MOCHA.replace('mocha ', 'mocha --bail '),
    stryker: MOCHA_STRYKER,
    mutate: ['lib/request.js:474-475'],
  },
};
