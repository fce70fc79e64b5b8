/**
 * The zero-config pipeline, once: export the two commits, detect what to run from the
 * baseline, install each side, ag-oracle first (before any of the patch's code runs), ag-run,
 * the coverage command and ag-diffcov, ag-mutate, the checks after the runs, ag-decide, and
 * `ag-decide check` on what it wrote. Every tool runs even when an earlier one failed:
 * missing evidence is a HOLD, never an error. A REJECT or HOLD never stops it half-way.
 * @module
 */
import { createHash } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { copyTree, gitTreeId, readDiff, runningAsRoot, UsageError, workspaceDirs } from '@adversary-gate/core';
import { changedPaths, chooseCommands, interpreterLines, type Commands } from './commands.js';
import { coverage } from './coverage.js';
import { packagesDigest } from './digest.js';
import { PipelineFaults } from './faults.js';
import { exportCommit, repositoryRoot, resolveCommit, writeDiff } from './git.js';
import { installSettings } from './install-settings.js';
import {
  installSide,
  installTools,
  linkTools,
  linkWorkspacePackages,
  samePackageFiles,
  shareInstall,
  type InstallPlaces,
} from './install.js';
import { BusyError, claimOutDir, excludeFromGit } from './out-dir.js';
import { Deadline } from './deadline.js';
import { Progress, stagesTable, type Stage } from './progress.js';
import type { Settings } from './settings.js';
import { summaryLines } from './summary.js';
import { runTool, toolPath, type ToolName } from './tools.js';
import { makeWorkspace, type Workspace } from './workspace.js';

const sha = (file: string): string | null =>
  existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : null;

/** Say a stage starts; returns the function that says it ended. */
type StageStart = (name: Stage, what: string) => (result?: string) => void;

/** Run the whole gate in the repository at `cwd`; resolves to the exit code (0 ACCEPT, 1 REJECT, 2 HOLD). */
export async function runGate(s: Settings, cwd: string): Promise<number> {
  // Everything that can be refused is refused before anything is written.
  const policyGiven = s.policy === undefined ? undefined : path.resolve(cwd, s.policy);
  if (policyGiven !== undefined && !existsSync(policyGiven))
    throw new UsageError(`--policy (AG_POLICY) names no file: ${s.policy}`);
  const root = repositoryRoot(cwd);
  const base = resolveCommit(cwd, s.base, 'base');
  const head = resolveCommit(cwd, s.head, 'head');
  let claim;
  try {
    claim = claimOutDir(s.out, { cwd, protectedRoots: [root] });
  } catch (e) {
    if (!(e instanceof BusyError)) throw e;
    process.stderr.write(`${s.who}: ${e.message.replace(/: nothing written$/, '')}: HOLD, nothing written\n`);
    return 2;
  }
  excludeFromGit(root, claim.dir);
  // The evidence is root's alone while the patch's code runs: a test that finds its path (in a
  // tool's command line, which every uid may read) can neither read oracle.json, the diff and
  // the trees, nor write there. The tools copy the trees before any test runs in the copies.
  if (runningAsRoot()) chmodSync(claim.dir, 0o700);
  const ws = makeWorkspace(claim.dir);
  try {
    return await judge(s, cwd, { base, head }, ws, policyGiven);
  } finally {
    rmSync(ws.work, { recursive: true, force: true });
    // Readable again once no code of the patch's runs: the user reads verdict.md.
    if (runningAsRoot()) chmodSync(claim.dir, 0o755);
    claim.release();
  }
}

async function judge(
  s: Settings,
  cwd: string,
  commits: { base: string; head: string },
  ws: Workspace,
  policyGiven: string | undefined,
): Promise<number> {
  const progress = new Progress(s.who, s.quiet);
  const faults = new PipelineFaults(ws.out, s.who);
  const deadline = new Deadline(s.deadline, s.deadlineSource);
  const stage: StageStart = (name, what) => {
    deadline.enter(name);
    return progress.start(name, what);
  };
  const bin = (tool: ToolName) => toolPath(tool, s.binDir);
  const tool = (name: ToolName, args: readonly string[], signal?: AbortSignal) =>
    runTool(bin(name), args, signal === undefined ? {} : { signal });
  // A measuring tool that did not end with 0 wrote no evidence: ag-decide holds on the missing
  // artefact, and the verdict names the tool and how it ended (a crash is never a quiet gap).
  const measuring = async (name: ToolName, args: readonly string[]) => {
    if (deadline.passed) return;
    const r = await tool(name, args, deadline.signal);
    if (r.status !== 0)
      faults.add(
        `${name} ${r.spawnError !== null ? `could not start (${r.spawnError})` : r.status === null ? 'was killed by a signal' : `exited ${r.status}`}, so its evidence is missing`,
      );
  };

  let done = stage('export', `${s.base} (${commits.base.slice(0, 12)}) → ${s.head} (${commits.head.slice(0, 12)})`);
  await Promise.all([exportCommit(cwd, commits.base, ws.baseline), exportCommit(cwd, commits.head, ws.patch)]);
  await writeDiff(cwd, commits.base, commits.head, ws.diff);
  // The policy comes from outside the patch: given, or the baseline's adversary-gate.json.
  const baselinePolicy = path.join(ws.baseline, 'adversary-gate.json');
  const policy = policyGiven ?? (existsSync(baselinePolicy) ? baselinePolicy : undefined);
  const withPolicy = (args: string[]) => (policy === undefined ? args : [...args, '--policy', policy]);
  // The exported trees' git ids, taken before any of the patch's code runs.
  const [baselineTree, patchTree] = await Promise.all([
    gitTreeId(ws.baseline, ['node_modules']),
    gitTreeId(ws.patch, ['node_modules']),
  ]);
  done();

  // 1. did the patch touch what it must not: on the exported trees, before any of its code ran.
  const oracleFile = path.join(ws.out, 'oracle.json');
  let oracleSum: string | null = null;
  if (s.shard === undefined) {
    done = stage('oracle', 'protected paths, fixtures, tampering');
    await measuring(
      'ag-oracle',
      withPolicy(['--diff', ws.diff, '--baseline', ws.baseline, '--patch', ws.patch, '--quiet', '--out', oracleFile]),
    );
    oracleSum = sha(oracleFile);
    done();
  }

  done = stage('detect', 'the install, the runner and its reports, from the baseline');
  // The changed paths pick the workspace judged in a workspaces root with no runner of its own;
  // a diff that cannot be read picks none (ag-run and the others say why the diff is bad).
  const changed = await readDiff(ws.diff).then(
    (d) => changedPaths(d.model),
    () => undefined,
  );
  const toolbox = { dir: ws.toolsDir, nodeReporter: ws.nodeReporter, launcher: ws.launcher };
  const commands = chooseCommands(ws.baseline, s, toolbox, changed);
  // The interpreter ag-run's runs will find (a fresh uid searches only some of the caller's PATH).
  const named = interpreterLines([commands.test, commands.fullSuite], {
    passEnv: s.passEnv,
    sandbox: s.sandbox,
    freshUid: runningAsRoot(),
    keepOut: [ws.baseline, ws.patch, ws.out],
    ...(process.env.HOME !== undefined ? { home: process.env.HOME } : {}),
  });
  const block = `${commands.block}${named.map((l) => `${l}\n`).join('')}`;
  writeFileSync(path.join(ws.out, 'detected.txt'), block);
  if (!s.quiet) process.stderr.write(block);
  done(commands.test === '' ? 'no test command' : 'done');

  const places: InstallPlaces = {
    work: ws.work,
    toolsDir: ws.toolsDir,
    signal: deadline.signal,
    settings: installSettings(s.installCache),
  };
  // A workspaces root: the folders either side declares (their package files decide whether
  // the patch shares the baseline's install, and their own node_modules are linked after it).
  const workspaces = [...new Set([...commands.workspaces, ...workspaceDirs(ws.patch)])].sort();
  // No test command: nothing would run on what an install brings, so none is made (a package
  // manager's minutes for a HOLD already known).
  const installed = commands.test !== '' && (await install(s, ws, commands, workspaces, places, faults, stage));
  const packages = [
    path.join(ws.work, 'deps-baseline', 'node_modules'),
    path.join(ws.work, 'deps-patch', 'node_modules'),
    path.join(ws.toolsDir, 'node_modules'),
    ...workspaces.flatMap((w) => [
      path.join(ws.work, 'deps-baseline', w, 'node_modules'),
      path.join(ws.work, 'deps-patch', w, 'node_modules'),
    ]),
  ];
  const digested = installed && commands.install !== '';
  const before = digested ? packagesDigest(packages) : null;
  if (commands.test === '')
    faults.add(`no test command, so no test ran: ${commands.problems.join('; ') || 'nothing detected'}`);
  const measure = () => installed && commands.test !== '' && !deadline.passed;

  // 2. did the tests run, and what happened
  const runFile = path.join(ws.out, 'run.json');
  if (measure() && s.shard === undefined) {
    done = stage('run', `${commands.test} on both trees, ${s.rounds} rounds on the patch`);
    await measuring('ag-run', [
      ...['--baseline', ws.baseline, '--patch', ws.patch, '--diff', ws.diff],
      ...['--test-command', commands.test, '--full-suite-command', commands.fullSuite],
      ...['--rounds', String(s.rounds), '--timeout', String(s.timeout), '--sandbox', s.sandbox],
      ...(commands.junit !== '' ? ['--junit', commands.junit] : []),
      ...(s.maxProcesses !== undefined ? ['--max-processes', String(s.maxProcesses)] : []),
      ...s.passEnv.flatMap((n) => ['--pass-env', n]),
      ...['--quiet', '--out', runFile],
    ]);
    done();
  }

  // 3. were the changed lines executed
  if (s.shard === undefined) {
    const coverageArgs: string[] = [];
    if (measure() && commands.coverage !== '') {
      done = stage('coverage', commands.coverage);
      coverageArgs.push(...(await coverage(s, ws, commands, faults, deadline.signal, repositoryRoot(cwd))));
      done(coverageArgs.length > 0 ? 'report read' : 'no report');
    }
    await measuring(
      'ag-diffcov',
      withPolicy([
        '--diff',
        ws.diff,
        ...coverageArgs,
        // the exported patch tree: the pragmas around changed lines are read there
        '--tree',
        ws.patch,
        '--quiet',
        '--out',
        path.join(ws.out, 'diffcov.json'),
        '--markdown',
        path.join(ws.out, 'diffcov.md'),
      ]),
    );
  }

  // 4. would the tests notice if the changed lines were wrong
  const mutationFile = path.join(ws.out, s.shard === undefined ? 'mutation.json' : `mutation-${s.shard.k}.json`);
  if (measure()) {
    done = stage(
      'mutate',
      `${s.mutateLineBudget > 0 ? `${s.mutateMax} mutants or one per changed line` : `at most ${s.mutateMax} mutants`}${s.shard === undefined ? '' : `, shard ${s.shard.k}/${s.shard.n}`}`,
    );
    await measuring(
      'ag-mutate',
      withPolicy([
        ...['--diff', ws.diff, '--tree', ws.patch, '--test-command', commands.test],
        ...[
          '--max',
          String(s.mutateMax),
          '--line-budget',
          String(s.mutateLineBudget),
          '--timeout',
          String(s.timeout),
          '--python',
          s.python,
          '--sandbox',
          s.sandbox,
        ],
        ...(s.shard !== undefined ? ['--shard', `${s.shard.k}/${s.shard.n}`] : []),
        ...s.passEnv.flatMap((n) => ['--pass-env', n]),
        // ag-run's full-suite run on the patch stands for ag-mutate's second baseline run.
        ...(s.shard === undefined && existsSync(runFile) ? ['--run', runFile] : []),
        ...(s.quiet ? ['--quiet'] : ['--progress']),
        ...['--out', mutationFile],
      ]),
    );
    done();
  }

  // The checks after every run of the patch's code; the clock stops here: deciding always runs.
  deadline.stop();
  const late = deadline.fault();
  if (late !== null) faults.add(late);
  done = stage('checks', 'the installed packages and oracle.json are as written');
  if (before !== null) {
    const after = packagesDigest(packages);
    writeFileSync(path.join(ws.out, 'packages-installed.sha256'), before);
    writeFileSync(path.join(ws.out, 'packages-after.sha256'), after);
    if (after !== before) {
      faults.add(
        'a run wrote into the installed packages (packages-after.sha256 differs from packages-installed.sha256): run.json and mutation.json set aside',
      );
      for (const f of [runFile, mutationFile]) if (existsSync(f)) renameSync(f, `${f}.changed`);
    }
  }
  if (oracleSum !== null && sha(oracleFile) !== oracleSum) {
    faults.add('oracle.json changed after ag-oracle wrote it (kept as oracle.json.changed)');
    renameSync(oracleFile, `${oracleFile}.changed`);
  }
  done();

  // A shard's verdict is the decide job's, on every shard merged.
  if (s.shard !== undefined) {
    if (existsSync(mutationFile)) return 0;
    process.stderr.write(
      `${s.who}: mutation shard ${s.shard.k}/${s.shard.n} wrote no ${path.basename(mutationFile)}: HOLD\n`,
    );
    return 2;
  }

  // 5. the verdict, written whatever the tools did: missing evidence is HOLD.
  done = stage('decide', 'ag-decide on the evidence');
  const verdictFile = path.join(ws.out, 'verdict.json');
  const markdown = path.join(ws.out, 'verdict.md');
  const decided = await tool(
    'ag-decide',
    withPolicy([
      '--diff',
      ws.diff,
      ...['run', 'diffcov', 'mutation', 'oracle'].flatMap((k) => ['--evidence', path.join(ws.out, `${k}.json`)]),
      ...['--baseline-tree', baselineTree, '--patch-tree', patchTree],
      ...faults.lines().flatMap((f) => ['--pipeline-fault', f]),
      ...['--out', verdictFile, '--markdown', markdown],
    ]),
  );
  // Checked as CI checks it; its answer must be the one ag-decide just gave.
  const checked = await tool('ag-decide', ['check', verdictFile, '--diff', ws.diff]);
  done();
  // Which deadline bound the runs, whether or not it passed: the reviewer's page says it too.
  const bound = deadline.statement();
  if (existsSync(markdown))
    appendFileSync(markdown, `\n## The run's deadline\n\n${bound[0]!.toUpperCase()}${bound.slice(1)}.\n`);
  // Where the time went, for a reader and the benchmark (not evidence: nothing judges it).
  writeFileSync(path.join(ws.out, 'stages.tsv'), stagesTable(progress.times));
  if (!s.quiet)
    for (const line of summaryLines(verdictFile, markdown, 12, [bound])) process.stderr.write(`${s.who}: ${line}\n`);
  if (checked.status !== decided.status) {
    process.stderr.write(
      `${s.who}: verdict.json no longer says what ag-decide decided (exit ${decided.status}, check ${checked.status}): HOLD\n`,
    );
    return 2;
  }
  return checked.status === 0 || checked.status === 1 ? checked.status : 2;
}

/** The install step; false when something failed (named in the faults: nothing is measured). */
async function install(
  s: Settings,
  ws: Workspace,
  c: Commands,
  workspaces: readonly string[],
  places: InstallPlaces,
  faults: PipelineFaults,
  stage: StageStart,
): Promise<boolean> {
  let ok = true;
  const deps = (side: 'baseline' | 'patch') => path.join(ws.work, `deps-${side}`);
  if (c.install !== '') {
    const shared = samePackageFiles(ws.baseline, ws.patch, workspaces);
    let done = stage('install', `${c.install} in a copy of the baseline${shared ? ' (the patch shares it)' : ''}`);
    const failed = await installSide('baseline', ws.baseline, c.install, s.installTimeout, places);
    done(failed === null ? 'installed' : 'failed');
    if (failed !== null) {
      faults.add(failed.text, failed.log);
      ok = false;
    } else {
      // The root's install installs every workspace: each tree gets their own node_modules too.
      linkWorkspacePackages(deps('baseline'), ws.baseline, workspaces);
      if (shared) {
        shareInstall(places, ws.patch);
        linkWorkspacePackages(deps('baseline'), ws.patch, workspaces);
      } else {
        done = stage('install', `${c.install} in a copy of the patch`);
        const patchFailed = await installSide('patch', ws.patch, c.install, s.installTimeout, places);
        done(patchFailed === null ? 'installed' : 'failed');
        if (patchFailed !== null) {
          faults.add(patchFailed.text, patchFailed.log);
          ok = false;
        } else linkWorkspacePackages(deps('patch'), ws.patch, workspaces);
      }
    }
  }
  if (ok && c.tools.length > 0) {
    const done = stage('install', `the gate's tools the project lacks: ${c.tools.map((t) => t.name).join(', ')}`);
    const failed = await installTools(
      c.tools,
      ws.baseline,
      [
        ...(c.workspace !== null ? [path.join(ws.patch, c.workspace, 'node_modules')] : []),
        path.join(ws.patch, 'node_modules'),
      ],
      s.installTimeout,
      places,
    );
    done(failed === null ? 'installed' : 'failed');
    if (failed !== null) {
      faults.add(failed.text, failed.log);
      ok = false;
    }
  }
  // The coverage tree runs in place: a copy of the patch tree, with its own folder of links.
  if (ok) {
    await copyTree(ws.patch, ws.coverageTree);
    if (c.install !== '')
      linkTools(
        ws.coverageTree,
        ws.toolsDir,
        c.tools.filter((t) => t.link),
      );
  }
  return ok;
}
