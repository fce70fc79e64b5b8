import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { jsSites } from '../src/engines/js.js';
import { execute } from '../src/exec/execute.js';
import type { PriorRunUse } from '../src/prior-run.js';
import { detectRunner } from '../src/runners/runner.js';
import { makeRepo, type Files } from './helpers/repo.js';

const MOCHA = 'node_modules/.bin/mocha test/';

const PRICE_JS = `exports.price = (q, u) => q * u;
exports.discount = (total, rate) => total - total * rate;
exports.unused = (a) => a + 1;
`;

const test_ = (name: string, body: string) => `const assert = require('node:assert');
const { price, discount } = require('../src/price.js');
describe('${name}', () => {
${body}
});
`;

const HONEST: Files = {
  'src/price.js': PRICE_JS,
  'test/a.test.js': test_('a', "  it('multiplies', () => { assert.equal(price(2, 3), 6); });"),
  'test/b.test.js': test_('b', "  it('takes the rate off', () => { assert.equal(discount(100, 0.25), 75); });"),
  'test/c.test.js': test_('c', "  it('is a number', () => { assert.equal(typeof discount(100, 0.1), 'number'); });"),
};

/** b.test.js passes only after a.test.js ran in the same process: split apart, b fails. */
const COUPLED: Files = {
  'src/price.js': PRICE_JS,
  'test/a.test.js': test_(
    'a',
    "  it('multiplies', () => { global.seen = price(2, 3); assert.equal(global.seen, 6); });",
  ),
  'test/b.test.js': test_(
    'b',
    "  it('saw a', () => { assert.equal(global.seen, 6); assert.equal(discount(100, 0.25), 75); });",
  ),
};

const USED: Promise<PriorRunUse> = Promise.resolve({ used: true });

async function judge(files: Files, priorGreen?: Promise<PriorRunUse>) {
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
      ...(priorGreen !== undefined ? { priorGreen } : {}),
    });
    return { r, sites };
  } finally {
    repo.cleanup();
  }
}

test("with ag-run's green run standing for the second, two copies record the suite between them; every verdict is the one recording gives", async (t) => {
  const [split, whole] = await Promise.all([judge(HONEST, USED), judge(HONEST)]);
  t.deepEqual(
    split.r.baseline.runs.map((x) => x.kind),
    ['recorded', 'recorded'],
  );
  t.deepEqual(split.r.secondGreenRun, { source: 'run_json', note: null });
  t.is(split.r.baseline.status, 'green');
  t.deepEqual(split.r.selection, { runner: 'mocha', mode: 'per-test' });
  t.deepEqual(whole.r.baseline.runs.map((x) => x.kind).sort(), ['plain', 'recorded']);
  t.deepEqual(split.r.statuses, whole.r.statuses);
  // Both shards' tests are in the map (a and c in one, b in the other): line 1 is killed
  // by a.test.js, line 2 by b or c (whichever the recorded durations put first); unused()'s
  // body on line 3 no test runs.
  const by = (line: number) => split.sites.map((s, i) => (s.line === line ? i : -1)).filter((i) => i >= 0);
  t.true(by(1).some((i) => split.r.killedBy[i]?.startsWith('test/a.test.js') === true));
  t.true(by(2).some((i) => /^test\/[bc]\.test\.js::/.test(split.r.killedBy[i] ?? '')));
  const minus = split.sites.findIndex((x) => x.line === 3 && x.replacement === '-');
  t.is(split.r.statuses[minus], 'no_coverage');
  // The mutants' limits come from both shards together, never from one.
  const [s0, s1] = split.r.baseline.runs.map((x) => x.result.durationMs) as [number, number];
  t.true(split.r.baseline.durationMs >= s0 + s1 - 1);
});

test('a shard that fails (tests that need another file run first) is not a red or flaky baseline: the whole suite is recorded in one run and judges', async (t) => {
  const { r } = await judge(COUPLED, USED);
  t.deepEqual(
    r.baseline.runs.map((x) => x.kind),
    ['recorded', 'recorded', 'recorded'],
  );
  t.false(r.baseline.runs[1]!.result.exitCode === 0, 'the shard without a.test.js failed');
  t.is(r.baseline.status, 'green');
  t.true(r.statuses.length > 0);
  t.true(r.statuses.every((s) => s !== 'stillborn'));
});
