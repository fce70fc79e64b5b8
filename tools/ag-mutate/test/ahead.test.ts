import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PriorRunUse } from '../src/prior-run.js';
import { COUPLED, HONEST, judgePrice, priceTest, USED } from './helpers/price-suite.js';
import type { Files } from './helpers/repo.js';

/**
 * HONEST, where the recording cannot end before two runs ahead of the map have started: a.test.js,
 * run without the rest of the suite loaded (the runs ahead), leaves a mark in `marks`, and the
 * last test file of the suite waits (at most 60 s) until the clean run and a mutant run have.
 */
const waitingForAhead = (marks: string): Files => ({
  ...HONEST,
  'test/a.test.js': priceTest(
    'a',
    `  it('multiplies', () => {
    if (!global.wholeSuite) require('node:fs').writeFileSync(${JSON.stringify(marks)} + '/' + process.pid, '');
    assert.equal(price(2, 3), 6);
  });`,
  ),
  'test/z.test.js': `global.wholeSuite = true;
describe('z', function () {
  this.timeout(70000);
  it('waits for two runs ahead', async () => {
    const fs = require('node:fs');
    for (let i = 0; i < 600 && fs.readdirSync(${JSON.stringify(marks)}).length < 2; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
  });
});
`,
});

/** Judged with the patch's changed test files `changedTests` (and ag-run's run standing for the second when `priorGreen` is given). */
const judge = (
  files: Files,
  changedTests: readonly string[],
  priorGreen?: Promise<PriorRunUse>,
  baselineTimeoutMs = 60_000,
) => judgePrice(files, { changedTests, baselineTimeoutMs, ...(priorGreen !== undefined ? { priorGreen } : {}) });

/**
 * Verdicts as the comparison needs them: a mutant that loops is killed or times out depending
 * on the machine's load (both are caught), so the two runs compared agree on "caught".
 */
const caught = (statuses: readonly string[]) => statuses.map((s) => (s === 'timeout' ? 'killed' : s));

test("with ag-run's run standing for the second, the copy it frees runs the mutants with the changed test files while the baseline records; every verdict is the one judged after the map", async (t) => {
  // Open to every run's uid, inside a folder of the test's own that they cannot write in: the
  // sweep after each run removes what a uid leaves only where it could have written.
  const holder = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-ahead-'));
  chmodSync(holder, 0o755);
  const marks = path.join(holder, 'marks');
  mkdirSync(marks, { mode: 0o777 });
  chmodSync(marks, 0o777);
  try {
    const ahead = await judge(waitingForAhead(marks), ['test/a.test.js'], USED);
    const after = await judge(HONEST, ['test/a.test.js']);
    t.deepEqual(
      ahead.r.baseline.runs.map((x) => x.kind),
      ['recorded'],
      'one recording, not split: the other copy judges mutants',
    );
    t.deepEqual(ahead.r.secondGreenRun, { source: 'run_json', note: null });
    t.is(after.r.phases.ahead_mutants, undefined, 'without a second run standing in, no copy is free');
    t.true((ahead.r.phases.ahead_mutants ?? 0) > 0);
    t.true((ahead.r.phases.ahead_kills ?? 0) > 0, "price()'s first mutant is killed by a.test.js ahead of the map");
    t.deepEqual(caught(ahead.r.statuses), caught(after.r.statuses));
    // price() on line 1: killed by a.test.js, ahead of the map or after it.
    const by = (line: number) => ahead.sites.map((s, i) => (s.line === line ? i : -1)).filter((i) => i >= 0);
    t.true(by(1).every((i) => ahead.r.killedBy[i]?.startsWith('test/a.test.js') === true));
    // discount() on line 2: a.test.js passes with every mutant of it; b or c kills it once the map is known.
    t.true(by(2).some((i) => /^test\/[bc]\.test\.js::/.test(ahead.r.killedBy[i] ?? '')));
    const minus = ahead.sites.findIndex((x) => x.line === 3 && x.replacement === '-');
    t.is(ahead.r.statuses[minus], 'no_coverage', 'a pass of the changed files does not stand for coverage');
  } finally {
    rmSync(holder, { recursive: true, force: true });
  }
});

test('changed test files that fail alone on the clean tree judge nothing ahead: every verdict waits for the map', async (t) => {
  const [ahead, after] = await Promise.all([
    judge(COUPLED, ['test/b.test.js'], USED),
    judge(COUPLED, ['test/b.test.js']),
  ]);
  t.is(ahead.r.baseline.status, 'green');
  t.is(ahead.r.phases.ahead_mutants, undefined);
  t.true((ahead.r.phases.subset_clean_runs ?? 0) >= 1, 'the clean run of b.test.js alone was taken, and failed');
  t.deepEqual(caught(ahead.r.statuses), caught(after.r.statuses));
});

test('a changed file that holds no test (a helper) judges nothing ahead; the recording still runs whole', async (t) => {
  const files = { ...HONEST, 'test/helper.js': 'module.exports = 1;\n' };
  const ahead = await judge(files, ['test/helper.js'], USED);
  t.is(ahead.r.phases.ahead_mutants, undefined);
  t.deepEqual(
    ahead.r.baseline.runs.map((x) => x.kind),
    ['recorded'],
  );
  t.true(ahead.r.statuses.includes('killed'));
});

test('a changed test file that hangs when run alone is ended once the recording has ended, and judges nothing ahead', async (t) => {
  // hang.test.js waits for what a.test.js sets while it loads: in the whole suite it passes, alone it never ends.
  const files: Files = {
    ...HONEST,
    'test/a.test.js': `global.ready = true;\n${String(HONEST['test/a.test.js'])}`,
    'test/hang.test.js': `describe('hang', function () {
  this.timeout(0);
  it('waits for a', (done) => {
    const poll = setInterval(() => {
      if (global.ready) {
        clearInterval(poll);
        done();
      }
    }, 10);
  });
});
`,
  };
  const started = Date.now();
  const ahead = await judge(files, ['test/hang.test.js'], USED, 300_000);
  t.true(Date.now() - started < 150_000, 'never the suite limit (300 s) of a clean run that hangs');
  t.is(ahead.r.baseline.status, 'green');
  t.is(ahead.r.phases.ahead_mutants, undefined);
  t.true(ahead.r.statuses.includes('killed'));
  t.true(ahead.r.statuses.every((s) => s !== 'timeout'));
});
