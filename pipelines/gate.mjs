#!/usr/bin/env node
// adversary-gate as a zx script, for teams without make:
//
//   node pipelines/gate.mjs --base origin/main [--head HEAD] [--out .adversary-gate]
//     [--test-command CMD] [--full-suite-command CMD] [--coverage-command CMD]
//     [--coverage-report PATH] [--junit PATH] [--install-command CMD] [--rounds 3]
//     [--timeout 120] [--mutate-max 20] [--python python3] [--policy FILE] [--sandbox none|bwrap]
//
// Same steps as gate.sh: with no --test-command it detects the install command, the runner
// and its report wiring from the baseline tree (ag-core's detectProject), installs each side
// once, and runs the detected commands; every flag overrides what is detected. exits with `ag-decide check`: 0 ACCEPT, 1 REJECT,
// 2 HOLD, 3 bad usage. Every artefact is written before the check, whatever the verdict.
// ag-oracle runs first, on the exported trees, before any of the patch's code runs; --timeout
// limits ag-run's executions, ag-mutate's baseline runs and the coverage command. --policy
// defaults to the baseline's adversary-gate.json when it has one (else the tools' defaults);
// a --policy that names no file is exit 3. Every argument is passed as one word (zx quotes each).
// Another run on the same --out (it holds DIR.lock) is exit 2 at once, with nothing written.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { $, fs, minimist, os, path } from 'zx';
import { detectProject, gitTreeId, wirePytest } from '@adversary-gate/core';
import { prepareDependencies } from './lib/dependencies.mjs';
import { pipelineFaults } from './lib/pipeline-faults.mjs';
import { stageNodeReporter } from './lib/node-reporter.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = minimist(process.argv.slice(2), {
  string: [
    'base',
    'head',
    'out',
    'test-command',
    'install-command',
    'install-timeout',
    'full-suite-command',
    'coverage-command',
    'coverage-report',
    'junit',
    'python',
    'policy',
    'sandbox',
    'bin-dir',
    'rounds',
    'timeout',
    'mutate-max',
  ],
  default: {
    base: 'origin/main',
    head: 'HEAD',
    out: '.adversary-gate',
    rounds: 3,
    timeout: 120,
    'mutate-max': 20,
    python: 'python3',
    sandbox: 'none',
    'bin-dir': path.join(here, '..', 'node_modules', '.bin'),
  },
  unknown: (flag) => {
    if (!flag.startsWith('-')) return true;
    console.error(`gate.mjs: unknown flag ${flag}`);
    process.exit(3);
  },
});

$.verbose = false;
$.quiet = true;
const bin = (name) => path.join(argv['bin-dir'], name);
/** Run a measuring tool; its exit code is not the pipeline's business (ag-decide judges). */
const measure = async (pieces) => (await $({ nothrow: true })`${pieces}`).exitCode;

const resolve = async (ref) => {
  const r = await $({ nothrow: true })`git rev-parse --verify --quiet ${`${ref}^{commit}`}`;
  if (r.exitCode !== 0) {
    console.error(`gate.mjs: unknown ref: ${ref}`);
    process.exit(3);
  }
  return r.stdout.trim();
};

// A policy asked for by name and missing is bad usage, never a silent fall back to the defaults.
if (argv.policy !== undefined && !fs.statSync(argv.policy, { throwIfNoEntry: false })?.isFile()) {
  console.error(`gate.mjs: --policy names no file: ${argv.policy}`);
  process.exit(3);
}
const [baseSha, headSha] = [await resolve(argv.base), await resolve(argv.head)];
const out = path.resolve(argv.out);
// One run per evidence directory (catalogue G69), as gate.sh: flock(1) locks the open file
// description this process holds (passed as its fd 3), so the lock lasts until this process
// ends however it ends; node opens files close-on-exec, so no tool inherits it.
const lock = `${out}.lock`;
let lockFd;
try {
  await fs.mkdirp(path.dirname(out));
  lockFd = fs.openSync(lock, 'a');
} catch (e) {
  console.error(`gate.mjs: cannot open the lock file ${lock}: ${e.code ?? e.message}`);
  process.exit(3);
}
if (spawnSync('flock', ['-n', '3'], { stdio: ['ignore', 'ignore', 'inherit', lockFd] }).status !== 0) {
  console.error(`gate.mjs: another gate run is using ${out} (it holds ${lock}): HOLD, nothing written`);
  process.exit(2);
}
await fs.remove(out);
for (const d of ['baseline', 'patch']) await fs.mkdirp(path.join(out, d));
// The coverage command runs the patch's code in place: in a tree outside the evidence directory.
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-gate-'));
await fs.chmod(work, 0o755);
const coverageTree = path.join(work, 'coverage-tree');
await fs.mkdirp(coverageTree);
process.on('exit', () => fs.removeSync(work));
// Exports of exactly the two commits: no history, no other refs, no remotes.
await $`git archive ${baseSha} | tar -x -C ${path.join(out, 'baseline')}`;
await $`git archive ${headSha} | tar -x -C ${path.join(out, 'patch')}`;
await $`git archive ${headSha} | tar -x -C ${coverageTree}`;
const diff = path.join(out, 'changes.diff');
// Written whole or not at all: the tools read it under its final name.
await fs.writeFile(
  `${diff}.tmp`,
  (await $`git diff --no-color --no-ext-diff --find-renames ${baseSha} ${headSha}`).stdout,
);
await fs.rename(`${diff}.tmp`, diff);

const policy =
  argv.policy === undefined ? path.join(out, 'baseline', 'adversary-gate.json') : path.resolve(argv.policy);
const policyArgs = (await fs.pathExists(policy)) ? ['--policy', policy] : [];
// What the checkout is, from the baseline (the runner is the baseline's); flags override.
const toolsDir = path.join(work, 'tools');
const plan = detectProject(path.join(out, 'baseline'), {
  toolbox: { dir: toolsDir, nodeReporter: stageNodeReporter(toolsDir) },
});
const wiring = plan.runner === 'pytest' ? wirePytest(argv.python) : plan.wiring;
const given = argv['test-command'] !== undefined;
const testCommand = argv['test-command'] ?? wiring?.test_command ?? '';
const fullSuite = argv['full-suite-command'] ?? testCommand;
const junit = argv.junit ?? (given || wiring?.report.kind !== 'junit' ? undefined : wiring.report.path);
const coverageCommand = argv['coverage-command'] ?? (given ? undefined : (wiring?.coverage_command ?? undefined));
const coverageReport = argv['coverage-report'] ?? (given ? undefined : wiring?.coverage_report) ?? 'coverage/lcov.info';
const installCommand = argv['install-command'] ?? plan.install_command ?? '';
// The gate's own tools (a reporter or coverage tool the project lacks) only for detected commands.
const detectedInUse =
  wiring !== null &&
  (testCommand === wiring.test_command ||
    (coverageCommand !== undefined && coverageCommand === wiring.coverage_command));
const tools = detectedInUse ? wiring.tools : [];
const block = [
  `gate.mjs: tests: ${testCommand || 'none'}${given ? '' : ` (detected: ${plan.found.join('; ')})`}`,
  `gate.mjs: install: ${installCommand || 'none'}; coverage: ${coverageCommand ?? 'none'}`,
  ...(tools.length > 0 ? [`gate.mjs: the gate's tools: ${tools.map((t) => `${t.name}@${t.version}`).join(' ')}`] : []),
  ...plan.problems.map((p) => `gate.mjs: problem: ${p}`),
].join('\n');
// The block is kept with the evidence (detected.txt), as printed.
await fs.writeFile(path.join(out, 'detected.txt'), `${block}\n`);
console.error(block);
// Each side installed once (equal package files share one), the gate's tools, the coverage
// tree's links, and the installed packages' digest (lib/dependencies.mjs).
const faults = pipelineFaults(here, out);
const deps = await prepareDependencies({
  here,
  out,
  work,
  coverageTree,
  installCommand,
  tools,
  toolsDir,
  timeout: String(argv['install-timeout'] ?? 900),
  faults,
});
const installed = deps.installed;
if (testCommand === '')
  await faults.add(`no test command, so no test ran: ${plan.problems.join('; ') || 'nothing detected'}`);
const measured = installed && testCommand !== '';
const oracleFile = path.join(out, 'oracle.json');
const digest = (file) => {
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
};

// The exported trees' git ids, taken before any of the patch's code runs: every evidence file
// must have measured these trees (an export shaped by .gitattributes differs from the commit).
const [baselineTree, patchTree] = await Promise.all(
  ['baseline', 'patch'].map((side) => gitTreeId(path.join(out, side), ['node_modules'])),
);

// First: the oracle digests the exported trees before any of the patch's code has run.
await measure([
  bin('ag-oracle'),
  '--diff',
  diff,
  '--baseline',
  path.join(out, 'baseline'),
  '--patch',
  path.join(out, 'patch'),
  ...policyArgs,
  '--quiet',
  '--out',
  oracleFile,
]);
const oracleDigest = digest(oracleFile);

if (measured)
  await measure([
    bin('ag-run'),
    '--baseline',
    path.join(out, 'baseline'),
    '--patch',
    path.join(out, 'patch'),
    '--diff',
    diff,
    '--test-command',
    testCommand,
    '--full-suite-command',
    fullSuite,
    '--rounds',
    String(argv.rounds),
    '--timeout',
    String(argv.timeout),
    '--sandbox',
    argv.sandbox,
    ...(junit ? ['--junit', junit] : []),
    '--quiet',
    '--out',
    path.join(out, 'run.json'),
  ]);

const coverageArgs = [];
if (coverageCommand && measured) {
  const r = await $({
    nothrow: true,
  })`sh ${path.join(here, 'lib', 'run-isolated.sh')} ${coverageTree} ${String(argv.timeout)} ${coverageCommand}`;
  await fs.writeFile(path.join(out, 'coverage.log'), r.stdout + r.stderr);
  const report = path.join(coverageTree, coverageReport);
  const stat = await fs.lstat(report).catch(() => null);
  if (stat?.isFile()) {
    const kept = path.join(out, 'coverage', path.basename(report));
    await fs.copy(report, kept);
    coverageArgs.push('--coverage', kept, '--root', coverageTree);
  }
}
await measure([
  bin('ag-diffcov'),
  '--diff',
  diff,
  ...coverageArgs,
  ...policyArgs,
  '--quiet',
  '--out',
  path.join(out, 'diffcov.json'),
  '--markdown',
  path.join(out, 'diffcov.md'),
]);

if (measured)
  await measure([
    bin('ag-mutate'),
    '--diff',
    diff,
    '--tree',
    path.join(out, 'patch'),
    '--test-command',
    testCommand,
    '--max',
    String(argv['mutate-max']),
    '--timeout',
    String(argv.timeout),
    '--python',
    argv.python,
    '--sandbox',
    argv.sandbox,
    // ag-run's full-suite run on the patch stands for ag-mutate's second baseline run when bound to the same work.
    ...(fs.existsSync(path.join(out, 'run.json')) ? ['--run', path.join(out, 'run.json')] : []),
    ...policyArgs,
    '--quiet',
    '--out',
    path.join(out, 'mutation.json'),
  ]);

// The installed packages must be as the install left them: a run that wrote into them
// measured packages nobody installed. Its evidence is moved aside, so ag-decide holds.
await deps.check();

// oracle.json must still be what ag-oracle wrote before the patch's code ran. A changed one
// is moved aside (never uploaded or read as evidence): ag-decide then holds on it as missing.
const oracleNow = digest(oracleFile);
if (oracleNow !== null && oracleNow !== oracleDigest) {
  await faults.add('oracle.json changed after ag-oracle wrote it (kept as oracle.json.changed)');
  await fs.move(oracleFile, `${oracleFile}.changed`, { overwrite: true });
}

const evidence = ['run', 'diffcov', 'mutation', 'oracle'].flatMap((k) => ['--evidence', path.join(out, `${k}.json`)]);
await measure([
  bin('ag-decide'),
  '--diff',
  diff,
  '--baseline-tree',
  baselineTree,
  '--patch-tree',
  patchTree,
  ...evidence,
  ...policyArgs,
  ...(await faults.args()),
  '--out',
  path.join(out, 'verdict.json'),
  '--markdown',
  path.join(out, 'verdict.md'),
]);

const check = await $({
  nothrow: true,
  quiet: false,
})`${bin('ag-decide')} check ${path.join(out, 'verdict.json')} --diff ${diff}`;
process.exitCode = check.exitCode ?? 2;
