// ag-oracle runs first, on the exported trees, before any of the patch's code: a test that
// rewrites what the oracle digests (the fixture's bytes, in the patch tree or the baseline
// tree) while it runs cannot hide a fixture drift. And oracle.json itself must still be what
// ag-oracle wrote when ag-decide reads it. Honest controls beside each. Nine whole pipeline
// runs: in `npm run test:long` (which `.ci/run` runs after `npm test`), not in `npm test`.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { codes, demoRepoAt, JS, loggingBins, PIPELINES, runPipeline, scratch, verdictAt } from './pipeline-kit.js';

const POLICY = `${JSON.stringify({
  schema_version: 1,
  floors: { diff_coverage: 0.8, suite_strength: 0.75 },
  require: ['run', 'diffcov', 'mutation', 'oracle'],
  oracle: { protected: ['test/oracle/**', 'adversary-gate.json'], fixtures: ['test/fixtures'] },
})}\n`;
const BASE_PRICES = '[1, 2, 3]\n';
const PATCH_PRICES = '[1, 2, 3, 4]\n';

/** A test of the patch that reads the fixture, after writing `bytes` to `target` if it can. */
function fixtureTest(expected: number, target?: string, bytes?: string): string {
  const write =
    target === undefined
      ? ''
      : `  try { writeFileSync(${JSON.stringify(target)}, ${JSON.stringify(bytes)}); } catch {}\n`;
  return [
    "import assert from 'node:assert/strict';",
    "import { readFileSync, writeFileSync } from 'node:fs';",
    "import { test } from 'node:test';",
    "import { total } from '../src/cart.js';",
    '',
    "test('total of the fixture prices', () => {",
    `${write}  const prices = JSON.parse(readFileSync(new URL('./fixtures/prices.json', import.meta.url), 'utf8'));`,
    `  assert.equal(total(prices), ${expected});`,
    '});',
    '',
  ].join('\n');
}

const CHEATS = [
  { name: 'restores the baseline bytes in the patch tree', side: 'patch', bytes: BASE_PRICES },
  { name: 'writes the patch bytes into the baseline tree', side: 'baseline', bytes: PATCH_PRICES },
] as const;

for (const pipeline of PIPELINES) {
  for (const cheat of CHEATS) {
    test(`${pipeline}: a patch that drifts a fixture and whose test ${cheat.name} while it runs is still FIXTURE_DRIFT`, async (t) => {
      const base = scratch(t, 'ag-e2e-fixture-');
      const out = path.join(base, 'evidence');
      const target = path.join(out, cheat.side, 'test', 'fixtures', 'prices.json');
      const repo = demoRepoAt(path.join(base, 'repo'), 'clean', {
        baseFiles: { 'adversary-gate.json': POLICY, 'test/fixtures/prices.json': BASE_PRICES },
        patchFiles: {
          'test/fixtures/prices.json': PATCH_PRICES,
          'test/fixture.test.js': fixtureTest(10, target, cheat.bytes),
        },
      });
      const r = await runPipeline(pipeline, repo, out, { ...JS, coverage: '', rounds: '1', mutateMax: '2' });
      const v = verdictAt(out);
      t.is(v.verdict, 'REJECT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
      t.true(codes(v).includes('FIXTURE_DRIFT'), JSON.stringify(v.reasons));
      t.not(r.code, 0);
    });
  }
}

// The control once: the order is the same in every pipeline (pipeline-args.test.ts checks it).
for (const pipeline of ['gate.sh'] as const) {
  test(`${pipeline}: control: an honest patch with a test that reads the unchanged fixture is ACCEPTed`, async (t) => {
    const base = scratch(t, 'ag-e2e-fixture-ok-');
    const out = path.join(base, 'evidence');
    const repo = demoRepoAt(path.join(base, 'repo'), 'clean', {
      baseFiles: { 'adversary-gate.json': POLICY, 'test/fixtures/prices.json': BASE_PRICES },
      patchFiles: { 'test/fixture.test.js': fixtureTest(6) },
    });
    const r = await runPipeline(pipeline, repo, out, JS);
    const v = verdictAt(out);
    t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
    t.is(r.code, 0);
  });
}

// A tool that runs after ag-oracle (here a wrapper around ag-mutate, standing in for any test
// code that reaches the evidence directory) changes oracle.json, by a single byte.
for (const pipeline of ['gate.sh', 'gate.mjs'] as const) {
  test(`${pipeline}: oracle.json changed after ag-oracle wrote it is set aside and the verdict holds on the missing oracle`, async (t) => {
    const base = scratch(t, 'ag-e2e-oracle-file-');
    const repo = demoRepoAt(path.join(base, 'repo'), 'clean');
    const touch =
      'while [ $# -gt 0 ]; do [ "$1" = --tree ] && printf " " >> "$(dirname "$2")/oracle.json"; shift; done';
    const bins = loggingBins(path.join(base, 'bins'), { 'ag-mutate': `( ${touch} )` });
    const r = await runPipeline(pipeline, repo, 'ag', { ...JS, binDir: bins.dir });
    const v = verdictAt(path.join(repo, 'ag'));
    t.regex(r.stderr, /oracle\.json changed after ag-oracle wrote it/);
    t.true(existsSync(path.join(repo, 'ag', 'oracle.json.changed')));
    t.false(existsSync(path.join(repo, 'ag', 'oracle.json')));
    t.is(v.verdict, 'HOLD', JSON.stringify(v.reasons));
    t.true(
      v.reasons.some((reason) => reason.code === 'EVIDENCE_MISSING' && reason.evidence === 'oracle'),
      JSON.stringify(v.reasons),
    );
    t.is(r.code, 2, r.stderr);
  });
}
