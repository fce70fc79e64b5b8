/**
 * A small mocha project for execute()'s baseline paths: price.js with three functions and
 * one test file per concern, judged with two copies as the pipelines run ag-mutate.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { jsSites } from '../../src/engines/js.js';
import { execute } from '../../src/exec/execute.js';
import type { ExecOptions } from '../../src/exec/types.js';
import type { PriorRunUse } from '../../src/prior-run.js';
import { detectRunner } from '../../src/runners/runner.js';
import { makeRepo, type Files } from './repo.js';

const MOCHA = 'node_modules/.bin/mocha test/';

const PRICE_JS = `exports.price = (q, u) => q * u;
exports.discount = (total, rate) => total - total * rate;
exports.unused = (a) => a + 1;
`;

/** A mocha test file of price.js: one describe block named `name` holding `body`. */
export const priceTest = (name: string, body: string) => `const assert = require('node:assert');
const { price, discount } = require('../src/price.js');
describe('${name}', () => {
${body}
});
`;

/** a.test.js tests price() only; b and c test discount(); unused() no test runs. */
export const HONEST: Files = {
  'src/price.js': PRICE_JS,
  'test/a.test.js': priceTest('a', "  it('multiplies', () => { assert.equal(price(2, 3), 6); });"),
  'test/b.test.js': priceTest('b', "  it('takes the rate off', () => { assert.equal(discount(100, 0.25), 75); });"),
  'test/c.test.js': priceTest(
    'c',
    "  it('is a number', () => { assert.equal(typeof discount(100, 0.1), 'number'); });",
  ),
};

/** b.test.js passes only after a.test.js ran in the same process: split apart, b fails. */
export const COUPLED: Files = {
  'src/price.js': PRICE_JS,
  'test/a.test.js': priceTest(
    'a',
    "  it('multiplies', () => { global.seen = price(2, 3); assert.equal(global.seen, 6); });",
  ),
  'test/b.test.js': priceTest(
    'b',
    "  it('saw a', () => { assert.equal(global.seen, 6); assert.equal(discount(100, 0.25), 75); });",
  ),
};

/** ag-run's run.json bound to the same work: it stands for the baseline's second green run. */
export const USED: Promise<PriorRunUse> = Promise.resolve({ used: true });

/** Judge every site of price.js's three lines in a repository of `files`, with two copies (and `extra`). */
export async function judgePrice(files: Files, extra: Partial<ExecOptions> = {}) {
  const repo = makeRepo({}, files, { linkModules: true });
  try {
    const text = readFileSync(path.join(repo.tree, 'src/price.js'), 'utf8');
    const sites = jsSites('src/price.js', text, new Set([1, 2, 3]));
    const r = await execute(sites, new Map([['src/price.js', text]]), {
      tree: repo.tree,
      command: MOCHA,
      mutantCommand: `${MOCHA} --bail`,
      jobs: 2,
      timeoutFactor: 2,
      baselineTimeoutMs: 60_000,
      passEnv: [],
      coverFiles: new Set(['src/price.js']),
      runner: detectRunner(MOCHA),
      ...extra,
    });
    return { r, sites };
  } finally {
    repo.cleanup();
  }
}
