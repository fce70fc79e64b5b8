#!/usr/bin/env node
/**
 * Benchmark: the peer's execution schedule for one decision, replayed sequentially, next to
 * ag-run on the same one-function Python project, on the same machine, in one run.
 *
 *   node bench/peer-schedule.mjs [--python /usr/bin/python3] [--reps 5] [--jobs N] [--no-autoload] [--run-as WHO]
 *                                [--no-record]
 *
 * --run-as is passed to ag-run (as root its default is `unprivileged`: a fresh uid per
 * execution, which cannot reach an interpreter under a 0700 /root — use `caller` there, or
 * an interpreter outside /root; a run that could not start shows as UNVERIFIED below).
 *
 * --no-autoload sets PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 on both sides (ag-run gets it through
 * --pass-env): the explicit plugin policy the peer's replay names as the main lever.
 *
 * Peer replay (8 sequential pytest runs, its argv, minimal env and rlimits): 3 x (baseline
 * claim, patch claim), one mutant run in a fresh copy of the patch tree, the patch full suite.
 * ag-run: the claim once on the baseline and 3 rounds on the patch, the full suite on both
 * sides, each in a throwaway copy, in parallel up to --jobs. Medians after one warm-up each.
 *
 * The figures and the machine are appended to bench/RESULTS.md (bench/lib/results.mjs at the
 * repository root); --no-record only prints them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRecorder, markdownTable } from '../../../bench/lib/results.mjs';

const recorder = benchRecorder(import.meta.url);

const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
/**
 * The interpreter itself (sys.executable), resolved once through the caller's PATH: both
 * schedules must start the same binary. A bare name or a pyenv shim would otherwise resolve
 * differently under each one's PATH (the peer replay's is /usr/bin:/bin).
 */
function realInterpreter(given) {
  const r = spawnSync(given, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  if (r.status !== 0 || !path.isAbsolute(r.stdout.trim())) {
    console.error(`peer-schedule: cannot start ${given} to find its interpreter`);
    process.exit(3);
  }
  return r.stdout.trim();
}
const python = realInterpreter(flag('python', '/usr/bin/python3'));
const reps = Number(flag('reps', '5'));
const jobs = flag('jobs', String(os.availableParallelism()));
const noAutoload = args.includes('--no-autoload');
const runAs = flag('run-as', null);
if (noAutoload) process.env.PYTEST_DISABLE_PLUGIN_AUTOLOAD = '1';
const bin = fileURLToPath(new URL('../bin/ag-run.js', import.meta.url));

const root = mkdtempSync(path.join(os.tmpdir(), 'ag-bench-'));
const git = (cwd, ...a) =>
  execFileSync('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=b', ...a], { cwd, stdio: 'pipe' });
const write = (dir, files) => {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
};
const baseline = path.join(root, 'baseline');
const patch = path.join(root, 'patch');
mkdirSync(baseline);
git(baseline, 'init', '-q');
write(baseline, {
  'calc.py': 'def add(a, b):\n    return a + b\n',
  'test_sum.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
});
git(baseline, 'add', '-A');
git(baseline, 'commit', '-qm', 'baseline');
git(root, 'clone', '-q', baseline, patch);
write(patch, { 'calc.py': 'def add(a, b):\n    return (a + b)\n' });
git(patch, 'commit', '-qam', 'clean patch');
const diff = path.join(root, 'change.diff');
writeFileSync(diff, git(patch, 'diff', 'HEAD~1', 'HEAD'));

const claimArgv = ['-m', 'pytest', 'test_sum.py::test_add', '-q', '-p', 'no:cacheprovider'];
const suiteArgv = ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'];
const limits = ['--cpu=10', '--as=536870912', '--fsize=16777216', '--nofile=256', '--nproc=4096', '--core=0'];

function peerRun(tree, argv) {
  const home = mkdtempSync(path.join(root, 'home-'));
  const env = {
    PATH: '/usr/bin:/bin',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUSERBASE: path.join(home, '.local'),
    HOME: home,
    ...(noAutoload ? { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' } : {}),
  };
  const r = spawnSync('prlimit', [...limits, '--', python, ...argv], {
    cwd: tree,
    env,
    stdio: 'pipe',
    timeout: 30_000,
  });
  rmSync(home, { recursive: true, force: true });
  return r.status;
}

function peerSchedule() {
  const codes = [];
  for (let i = 0; i < 3; i++) {
    codes.push(peerRun(baseline, claimArgv));
    codes.push(peerRun(patch, claimArgv));
  }
  const mutant = path.join(root, `mutant-${Math.random().toString(36).slice(2)}`);
  cpSync(patch, mutant, { recursive: true });
  writeFileSync(path.join(mutant, 'calc.py'), 'def add(a, b):\n    return (a - b)\n');
  codes.push(peerRun(mutant, claimArgv));
  rmSync(mutant, { recursive: true, force: true });
  codes.push(peerRun(patch, suiteArgv));
  return codes;
}

function agRun() {
  const out = path.join(root, 'run.json');
  const r = spawnSync(
    process.execPath,
    [
      bin,
      '--baseline',
      baseline,
      '--patch',
      patch,
      '--diff',
      diff,
      '--test-command',
      `${python} ${claimArgv.join(' ')}`,
      '--full-suite-command',
      `${python} ${suiteArgv.join(' ')}`,
      '--rounds',
      '3',
      '--jobs',
      jobs,
      ...(noAutoload ? ['--pass-env', 'PYTEST_DISABLE_PLUGIN_AUTOLOAD'] : []),
      ...(runAs ? ['--run-as', runAs] : []),
      '--out',
      out,
    ],
    { stdio: 'pipe' },
  );
  if (r.status !== 0) throw new Error(`ag-run exited ${r.status}: ${r.stderr}`);
  return out;
}

const time = (fn) => {
  const t0 = process.hrtime.bigint();
  const result = fn();
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, result };
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

peerSchedule();
agRun();
const peer = [];
const ours = [];
let codes;
for (let i = 0; i < reps; i++) {
  const p = time(peerSchedule);
  codes = p.result;
  peer.push(p.seconds);
  ours.push(time(agRun).seconds);
}
const { readFileSync } = await import('node:fs');
const run = JSON.parse(readFileSync(path.join(root, 'run.json'), 'utf8'));
rmSync(root, { recursive: true, force: true });

const f = (x) => x.toFixed(2);
const pm = median(peer);
const am = median(ours);
console.log(
  `machine: ${os.cpus().length} vCPU (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}, ${python}${noAutoload ? ' (plugin autoload off)' : ''}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  `peer schedule (8 sequential pytest runs, exit codes ${codes.join(',')}): median ${f(pm)} s  [${peer.map(f).join(' ')}]`,
);
console.log(
  `ag-run (claim x1 baseline + x3 patch, full suite both sides, --jobs ${jobs}; ${run.claims[0].status}, full suite ${run.full_suite.baseline.outcome}/${run.full_suite.patch.outcome}): median ${f(am)} s  [${ours.map(f).join(' ')}]`,
);
console.log(`ratio peer/ag-run: ${(pm / am).toFixed(2)}x; ag-run ${am < 2 ? 'meets' : 'misses'} the 2.0 s target`);
const versions = spawnSync(python, ['-c', 'import sys, pytest; print(sys.version.split()[0], pytest.__version__)'], {
  encoding: 'utf8',
})
  .stdout.trim()
  .split(' ');
const pythonLabel = `\`${python}\` (Python ${versions[0] ?? '?'}, pytest ${versions[1] ?? '?'})${noAutoload ? ', plugin autoload off' : ''}${runAs ? `, \`--run-as ${runAs}\`` : ''}`;
recorder.record(
  [
    `${reps} repetitions after one warm-up each; ag-run with \`--jobs ${jobs}\`; peer exit codes ${codes.join(',')}; ag-run's claim ${run.claims[0].status}, full suite ${run.full_suite.baseline.outcome}/${run.full_suite.patch.outcome}.`,
    '',
    markdownTable(
      ['interpreter', 'peer, median', 'ag-run, median', 'ratio', '2.0 s target', 'peer runs s', 'ag-run runs s'],
      [
        [
          pythonLabel,
          `${f(pm)} s`,
          `${f(am)} s`,
          `${(pm / am).toFixed(2)}×`,
          am < 2 ? 'met' : 'missed',
          peer.map(f).join(' '),
          ours.map(f).join(' '),
        ],
      ],
    ),
  ].join('\n'),
);
