#!/usr/bin/env node
/**
 * The gate on real repositories: clones each bundle in ../shared/realworld/, judges every
 * honest commit its README lists with `pipelines/gate.sh --base C^ --head C` and no other
 * setting (what a new user types), twice (the second run installs from the cache the first
 * filled, as a PR on a base already measured does), times the project's own CI job on the same
 * commit back to back (bench/lib/ci-job.mjs: install, tests, coverage; the second of two runs),
 * and prints per commit the verdict, the reason codes, both gate times, the CI job's, the
 * ratio, where the second run's time went (stages.tsv), whether a careful reviewer would agree,
 * and ag-mutate's time beside the suite's own run; then the median ratio and the totals. Appends the
 * table and the machine to bench/RESULTS.md (bench/lib/results.mjs); --no-record only prints.
 *
 *   node bench/realworld.mjs [--only fresh,camelcase] [--work DIR] [--no-record]
 *
 * Not part of `npm test`: it installs each project's dependencies from the registry and runs
 * their suites (minutes per commit).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv, freshIdentity, runningAsRoot, runProcess } from '../tools/ag-core/dist/index.js';
import { ciJob } from './lib/ci-job.mjs';
import { benchRecorder, markdownTable } from './lib/results.mjs';

const recorder = benchRecorder(import.meta.url);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = path.resolve(ROOT, '../shared/realworld');

/** The honest commits and what a careful reviewer concludes (../shared/realworld/README.md). */
const COMMITS = [
  {
    project: 'fresh',
    branch: 'master',
    commit: 'ee73673',
    accept: ['ACCEPT'],
    what: 'HTAB as optional whitespace (case label)',
  },
  {
    project: 'fresh',
    branch: 'master',
    commit: '32bd871',
    accept: ['ACCEPT', 'HOLD'],
    what: 'fix issue 35; a test renamed, expectation inverted',
  },
  { project: 'fresh', branch: 'master', commit: 'a96e891', accept: ['ACCEPT'], what: 'README typo' },
  {
    project: 'path-to-regexp',
    branch: 'master',
    commit: 'a4a8552',
    accept: ['ACCEPT'],
    what: 'escape backslash; rows added to the cases table',
  },
  {
    project: 'path-to-regexp',
    branch: 'master',
    commit: '9a78879',
    accept: ['ACCEPT', 'HOLD'],
    what: 'error on trailing backslash; a describe block renamed',
  },
  {
    project: 'path-to-regexp',
    branch: 'master',
    commit: '1e796b5',
    accept: ['ACCEPT', 'HOLD'],
    what: 'README only (flaky redos suite: HOLD naming it at most)',
  },
  {
    project: 'camelcase',
    branch: 'main',
    commit: '79b9a64',
    accept: ['ACCEPT', 'HOLD'],
    what: 'keep leading _ and $; five expectations changed',
  },
  {
    project: 'camelcase',
    branch: 'main',
    commit: 'e7dccc9',
    accept: ['ACCEPT'],
    what: 'fix incorrect camelization; 4 assertions added',
  },
  { project: 'camelcase', branch: 'main', commit: '2f1e273', accept: ['ACCEPT'], what: 'readme + index.d.ts' },
  {
    project: 'more-itertools',
    branch: 'master',
    commit: 'cca3294',
    accept: ['ACCEPT'],
    what: 'fix last() when __reversed__ is None',
  },
  {
    project: 'more-itertools',
    branch: 'master',
    commit: 'f51a53b',
    accept: ['ACCEPT'],
    what: 'empty interleave_evenly input',
  },
];

/**
 * Each project's own CI job as its workflow runs it (install, then tests and coverage): fresh
 * `npm run test-ci` (nyc around mocha), path-to-regexp and camelcase `npm test` (lint, tests,
 * types), more-itertools `make coverage` with the first interpreter that has coverage.py (no pip: PyPI
 * is out of reach).
 */
const PYTHON = pythonWithCoverage();
const CI_JOBS = {
  fresh: { test: 'npm run test-ci' },
  'path-to-regexp': { test: 'npm test' },
  camelcase: { test: 'npm test' },
  'more-itertools': {
    test: `${PYTHON} -m coverage run --include="more_itertools/*.py" -m unittest && ${PYTHON} -m coverage report`,
  },
};

/**
 * The first of `python3` on PATH and Debian's `/usr/bin/python3` that has coverage.py (a pyenv
 * interpreter first on PATH may lack it, as the gate's own interpreter search knows).
 */
function pythonWithCoverage() {
  for (const python of ['python3', '/usr/bin/python3']) {
    const r = spawnSync(python, ['-c', 'import coverage'], { stdio: 'ignore' });
    if (r.status === 0) return python;
  }
  return 'python3';
}

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = opt('--only')?.split(',');
const work = path.resolve(opt('--work') ?? path.join(os.tmpdir(), 'ag-realworld'));
if (!existsSync(SHARED)) {
  console.error(`realworld.mjs: ${SHARED} is missing (the bundles live in ../shared/realworld)`);
  process.exit(3);
}
mkdirSync(work, { recursive: true });

function clone(project, branch) {
  const dir = path.join(work, project);
  if (!existsSync(dir))
    execFileSync('git', ['clone', '-q', path.join(SHARED, `${project}.bundle`), dir], { stdio: 'ignore' });
  execFileSync('git', ['checkout', '-q', '-f', branch], { cwd: dir });
  return dir;
}

/**
 * The suite's own run: the test command the gate ran on the patch (run.json's full suite),
 * once more alone in a clean export of the head commit, timed. Null when it does not pass
 * there (a project whose dependencies the gate installed for itself).
 */
async function suiteSeconds(dir, commit, out) {
  let command;
  try {
    command = JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')).full_suite?.patch?.command;
  } catch {
    return null;
  }
  if (typeof command !== 'string') return null;
  const tree = mkdtempSync(path.join(os.tmpdir(), 'ag-suite-'));
  try {
    execFileSync('sh', ['-c', `git -C "$1" archive "$2" | tar -x -C "$3"`, 'sh', dir, commit, tree]);
    // As the gate runs a suite: its allowlisted environment and, as root, a fresh uid that owns the tree.
    const env = childEnv({ home: path.join(tree, '.home') });
    mkdirSync(env.HOME);
    const user = runningAsRoot() ? freshIdentity() : null;
    if (user !== null) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, tree]);
    const r = await runProcess({
      argv: ['/bin/sh', '-c', command],
      cwd: tree,
      env,
      timeoutMs: 600_000,
      sweep: true,
      ...(user !== null ? { user, ownUid: user.uid } : {}),
    });
    return r.exitCode === 0 && !r.timedOut ? r.durationMs / 1000 : null;
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

/** ag-mutate's time (mutation.json's `total_ms`) beside the suite's own run. */
async function mutationTime(dir, commit, out) {
  let m;
  try {
    m = JSON.parse(readFileSync(path.join(out, 'mutation.json'), 'utf8'));
  } catch {
    return '—';
  }
  const { total_ms: total, baseline_ms: own } = m.timing ?? {};
  if (total === undefined) return '—';
  const sec = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const suite = await suiteSeconds(dir, commit, out);
  const parts = [`${sec(total)} for ${m.mutants.length} mutants`];
  if (own) parts.push(`${(total / own).toFixed(2)} × its own plain run of the suite (${sec(own)})`);
  if (suite !== null)
    parts.push(`${(total / (suite * 1000)).toFixed(2)} × the suite run alone (${suite.toFixed(1)} s)`);
  return parts.join('; ');
}

/** Run the gate once on a commit; its verdict, reason codes, time and stage times. */
function judge(dir, c, out, cache) {
  rmSync(out, { recursive: true, force: true });
  const started = Date.now();
  const r = spawnSync(
    'sh',
    [path.join(ROOT, 'pipelines/gate.sh'), '--base', `${c.commit}^`, '--head', c.commit, '--out', out],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: 'true', AG_INSTALL_CACHE: cache } },
  );
  const seconds = (Date.now() - started) / 1000;
  let verdict = 'none';
  let codes = [];
  try {
    const v = JSON.parse(readFileSync(path.join(out, 'verdict.json'), 'utf8'));
    verdict = v.verdict;
    codes = [...new Set(v.reasons.map((x) => x.code))];
  } catch {
    codes = [`no verdict.json (gate.sh exit ${r.status}): ${(r.stderr ?? '').trim().split('\n').pop()}`];
  }
  return { verdict, codes, seconds, stages: stageTimes(out) };
}

/** The stages' times of a run (stages.tsv in its evidence), summed per stage: `install 12.3 s, run 4.1 s, …`. */
function stageTimes(out) {
  const file = path.join(out, 'stages.tsv');
  if (!existsSync(file)) return '—';
  const sums = new Map();
  for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
    const [stage, seconds] = line.split('\t');
    sums.set(stage, (sums.get(stage) ?? 0) + Number(seconds));
  }
  return [...sums].map(([stage, sec]) => `${stage} ${sec.toFixed(1)}`).join(', ');
}

// Every install of this run shares one package cache, empty at the start: a project's first
// commit installs cold, and each commit's second run is the one a PR on a measured base pays.
const cache = path.join(work, 'install-cache');
rmSync(cache, { recursive: true, force: true });
const rows = [];
for (const c of COMMITS.filter((x) => only === undefined || only.includes(x.project))) {
  const dir = clone(c.project, c.branch);
  const out = path.join(work, `${c.project}-${c.commit}`);
  const first = judge(dir, c, out, cache);
  const second = judge(dir, c, out, cache);
  const { verdict, codes } = first;
  const agrees = c.accept.includes(verdict) && second.verdict === verdict;
  const mutation = await mutationTime(dir, c.commit, out);
  const jobs = [ciJob(dir, c.commit, CI_JOBS[c.project]), ciJob(dir, c.commit, CI_JOBS[c.project])];
  const job = jobs[1].ok ? jobs[1].seconds : null;
  const ratio = job === null ? '—' : `${(second.seconds / job).toFixed(1)}×`;
  rows.push({ ...c, verdict, codes, seconds: first.seconds, second, agrees, mutation, job, ratio });
  console.log(
    `${c.project} ${c.commit} ${verdict}/${second.verdict} ${agrees ? 'agrees' : 'DISAGREES'} gate ${first.seconds.toFixed(0)} s then ${second.seconds.toFixed(0)} s; CI job ${job === null ? `failed: ${jobs[1].tail}` : `${job.toFixed(0)} s`}; ${ratio}  ${codes.join(' ')}  stages: ${second.stages}`,
  );
}

/** The median of the known values, as `N.N×` (— when none is known). */
function median(values) {
  const known = values.filter((v) => v !== null).sort((a, b) => a - b);
  if (known.length === 0) return '—';
  const mid = Math.floor(known.length / 2);
  const m = known.length % 2 === 1 ? known[mid] : (known[mid - 1] + known[mid]) / 2;
  return `${m.toFixed(1)}×, largest ${known.at(-1).toFixed(1)}×`;
}

const count = (f) => rows.filter(f).length;
const totals = {
  commits: rows.length,
  accept: count((r) => r.verdict === 'ACCEPT'),
  falseReject: count((r) => r.verdict === 'REJECT'),
  hold: count((r) => r.verdict === 'HOLD'),
  falseHold: count((r) => r.verdict === 'HOLD' && !r.accept.includes('HOLD')),
  agree: count((r) => r.agrees),
  seconds: rows.reduce((s, r) => s + r.seconds, 0),
};
if (rows.length === 0) console.log('no commit judged: nothing recorded');
else
  recorder.record(
    [
      markdownTable(
        [
          'project',
          'commit',
          'what',
          'verdict',
          'a reviewer says',
          'reasons',
          'gate, first run',
          'gate, second run',
          'its own CI job',
          'ratio',
          'second run by stage (s)',
          'ag-mutate',
        ],
        rows.map((r) => [
          r.project,
          r.commit,
          r.what,
          r.verdict,
          r.accept.join(' or '),
          r.codes.join(', '),
          `${r.seconds.toFixed(0)} s`,
          `${r.second.seconds.toFixed(0)} s`,
          r.job === null ? 'failed' : `${r.job.toFixed(0)} s`,
          r.ratio,
          r.second.stages,
          r.mutation,
        ]),
      ),
      '',
      `Median ratio of the gate's second run to the project's own CI job: ${median(rows.map((r) => (r.job === null ? null : r.second.seconds / r.job)))}.`,
      '',
      `${totals.commits} commits: ${totals.accept} ACCEPT, ${totals.hold} HOLD (${totals.falseHold} where a reviewer accepts), ${totals.falseReject} REJECT (all false: every commit is honest); ${totals.agree} agree with the reviewer; ${totals.seconds.toFixed(0)} s in all.`,
    ].join('\n'),
  );
