#!/usr/bin/env node
/**
 * The gate on real repositories: clones each bundle in ../shared/realworld/, judges every
 * honest commit its README lists with `pipelines/gate.sh --base C^ --head C` and no other
 * setting (what a new user types), and prints per commit the verdict, the reason codes, the
 * time, whether a careful reviewer would agree, and ag-mutate's time beside the suite's own
 * run (the gate's test command once more, alone, on the head commit); then the totals. Appends the
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

const rows = [];
for (const c of COMMITS.filter((x) => only === undefined || only.includes(x.project))) {
  const dir = clone(c.project, c.branch);
  const out = path.join(work, `${c.project}-${c.commit}`);
  rmSync(out, { recursive: true, force: true });
  const started = Date.now();
  const r = spawnSync(
    'sh',
    [path.join(ROOT, 'pipelines/gate.sh'), '--base', `${c.commit}^`, '--head', c.commit, '--out', out],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
    },
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
  const agrees = c.accept.includes(verdict);
  const mutation = await mutationTime(dir, c.commit, out);
  rows.push({ ...c, verdict, codes, seconds, agrees, mutation });
  console.log(
    `${c.project} ${c.commit} ${verdict} ${agrees ? 'agrees' : 'DISAGREES'} ${seconds.toFixed(0)} s  ${codes.join(' ')}  mutation: ${mutation}`,
  );
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
        ['project', 'commit', 'what', 'verdict', 'a reviewer says', 'reasons', 'time', 'ag-mutate'],
        rows.map((r) => [
          r.project,
          r.commit,
          r.what,
          r.verdict,
          r.accept.join(' or '),
          r.codes.join(', '),
          `${r.seconds.toFixed(0)} s`,
          r.mutation,
        ]),
      ),
      '',
      `${totals.commits} commits: ${totals.accept} ACCEPT, ${totals.hold} HOLD (${totals.falseHold} where a reviewer accepts), ${totals.falseReject} REJECT (all false: every commit is honest); ${totals.agree} agree with the reviewer; ${totals.seconds.toFixed(0)} s in all.`,
    ].join('\n'),
  );
