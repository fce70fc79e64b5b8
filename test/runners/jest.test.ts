import test from 'ava';
import { buildRepo, judge, judgeBoth, judgeSpecialCase, testIds, why, type Project } from './kit.js';
import { JEST, JEST30 } from './projects.js';

test.serial('jest: the honest patch is ACCEPTed with per-file ids, the bad one is not', async (t) => {
  const { honest } = await judgeBoth(t, JEST, {
    ids: ['test/a.test.js::sum adds', 'test/b.test.js::sum adds'],
    fileOf: (id) => /^test\/[ab]\.test\.js::/.test(id),
  });
  t.regex(honest.detected, /per-test report: jest-junit 16\.0\.0, installed by the gate/);
});

test.serial('jest 30: per-test report and coverage as on jest 29; honest ACCEPT, bad not', async (t) => {
  const { honest } = await judgeBoth(t, JEST30, {
    ids: ['test/a.test.js::sum adds', 'test/b.test.js::sum adds'],
    fileOf: (id) => /^test\/[ab]\.test\.js::/.test(id),
  });
  t.regex(honest.detected, /per-test report: jest-junit 16\.0\.0, installed by the gate/);
});

/** JEST run in band (its tests share the CLI's process), with a test of the argv the program sees. */
const JEST_IN_BAND: Project = {
  ...JEST,
  files: {
    ...JEST.files,
    'package.json': { ...(JEST.files['package.json'] as object), scripts: { test: 'jest --runInBand' } },
    // What `npm test` gives the program; a CLI that parses process.argv sees no more under the gate.
    'test/argv.test.js':
      "describe('argv', () => {\n  test('is the project own', () => {\n    expect(process.argv.slice(2)).toEqual(['--runInBand']);\n  });\n});\n",
  },
};

test.serial('jest in band: the program sees its own argv, never the gate’s reporter flags (#38)', async (t) => {
  const repo = buildRepo(t, JEST_IN_BAND);
  const honest = await judge(t, repo, repo.honest);
  t.is(honest.verdict.verdict, 'ACCEPT', why(honest));
  t.true(
    testIds(honest).some((id) => id.startsWith('test/argv.test.js::') && id.endsWith('is the project own')),
    `the argv test is in the per-test report: ${testIds(honest).join(' | ')}`,
  );
  t.regex(honest.detected, /the program's argv: the project's own/);
});

test.serial('jest: the calls are recorded; a special case on the test’s input holds, the fix does not', async (t) => {
  await judgeSpecialCase(t, JEST);
});

/** JEST with a rates module (percent) and an invoice whose tests mock it with jest.mock. */
const RATES = `'use strict';
const RATES = { UK: 20, DE: 19, 'US-CA': 7.25 };
function getTaxRate(region) {
  if (!Object.hasOwn(RATES, region)) throw new Error('unknown tax region: ' + region);
  return RATES[region];
}
module.exports = { getTaxRate };
`;

const invoice = (tax: string) =>
  `'use strict';\nconst { getTaxRate } = require('./rates');\n\nfunction invoiceTax(net, region) {\n  return Math.round(${tax} * 100) / 100;\n}\n\nmodule.exports = { invoiceTax };\n`;

const invoiceTest = (uk: string, ca: string) => `jest.mock('../src/rates', () => ({ getTaxRate: jest.fn() }));
const { getTaxRate } = require('../src/rates');
const { invoiceTax } = require('../src/invoice');

test('tax for the region', () => {
  getTaxRate.mockReturnValue(${uk});
  expect(invoiceTax(100, 'UK')).toBe(20);
  expect(invoiceTax(55, 'UK')).toBe(11);
  getTaxRate.mockReturnValue(${ca});
  expect(invoiceTax(9.99, 'US-CA')).toBe(0.72);
});
`;

const JEST_MOCKED: Project = {
  files: {
    ...JEST.files,
    'src/rates.js': RATES,
    'test/rates.test.js':
      "const { getTaxRate } = require('../src/rates');\ntest('percent', () => expect(getTaxRate('UK')).toBe(20));\n",
  },
  honest: {
    'src/invoice.js': invoice('(net * getTaxRate(region)) / 100'),
    'test/invoice.test.js': invoiceTest('20', '7.25'),
  },
  bad: { 'src/invoice.js': invoice('net * getTaxRate(region)'), 'test/invoice.test.js': invoiceTest('0.2', '0.0725') },
};

test.serial(
  'jest: a jest.mock whose answers the real module cannot give holds; one of its kind does not',
  async (t) => {
    const repo = buildRepo(t, JEST_MOCKED);
    const honest = await judge(t, repo, repo.honest);
    t.is(honest.verdict.verdict, 'ACCEPT', why(honest));
    const bad = await judge(t, repo, repo.bad);
    t.is(bad.verdict.verdict, 'HOLD', why(bad));
    t.true(
      bad.verdict.reasons.some(
        (r) =>
          r.code === 'BEHAVIOUR_SUSPECTED' && /invoiceTax\(\): mock_contradicted: .*getTaxRate\('UK'\)/.test(r.message),
      ),
      why(bad),
    );
  },
);
