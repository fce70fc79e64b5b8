import test from 'ava';
import type { PriorRunUse } from '../src/prior-run.js';
import { COUPLED, HONEST, judgePrice, USED } from './helpers/price-suite.js';
import type { Files } from './helpers/repo.js';

/** Judged with ag-run's run standing for the second green run when `priorGreen` is given. */
const judge = (files: Files, priorGreen?: Promise<PriorRunUse>) =>
  judgePrice(files, priorGreen !== undefined ? { priorGreen } : {});

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
