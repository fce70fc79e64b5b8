/**
 * ag-run's one job: run the claims and the full suite on both trees, judge every execution,
 * and assemble run.json. I/O happens here and in `execute`; the judging is pure.
 * @module
 */
import { promises as fs, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  callerLookup,
  childEnv,
  defaultLimits,
  gitTreeId,
  InputError,
  isWithin,
  liesInside,
  probeBwrap,
  passedEnvSha256,
  pythonInterpreter,
  readDiff,
  removeTree,
  UsageError,
} from '@adversary-gate/core';
import { loadJson, readRegularFile, sha256, type RunArtefact, type Runner } from '@adversary-gate/schemas';
import { assemble } from './assemble.js';
import { parseDeclaredCommands } from './commands-json.js';
import { ClaimsFile, judgeCriteria } from './criteria.js';
import {
  execute,
  prepareRun,
  runLookup,
  type PreparedRun,
  type ExecutionContext,
  type ExecutionPlan,
  type ExecutionRecord,
} from './execute.js';
import { renamedFiles, treeLocator } from './locate-tests.js';
import { planConfirmations, planExecutions, planReruns } from './plan.js';
import { withoutFaketimeObjects } from './faketime.js';
import { cleaningFaketime, planTrustedRuns } from './trusted-runs.js';
import { mapLimit, startLimited } from './pool.js';
import { escapeFaults } from './escapes.js';
import { leftBehind } from './left-behind.js';
import { detectRunner } from './runners/detect.js';
import { finishWatch, startWatch, type WatchRoot } from './write-watch.js';

/** Everything one ag-run needs; the CLI builds it from the flags. */
export interface RunOptions {
  readonly baseline: string;
  readonly patch: string;
  /** A unified diff file, or `-` for stdin. */
  readonly diff: string;
  readonly testCommands: readonly string[];
  /** Default: the claim command when there is exactly one. */
  readonly fullSuiteCommand: string | null;
  readonly commandsJson: string | null;
  readonly claims: string | null;
  /** Patch rounds per claim (default 3). */
  readonly rounds: number;
  /** Wall-clock limit per execution in seconds (default 300). */
  readonly timeoutSeconds: number;
  readonly sandbox: 'none' | 'bwrap';
  readonly junit: string | null;
  readonly seed: number | null;
  readonly passEnv: readonly string[];
  /** Executions in parallel (default: the number of cores). */
  readonly jobs: number;
  /** Force one runner's exit-code taxonomy for every command; null detects it per command. */
  readonly runner: Runner | null;
  /**
   * `unprivileged`: every execution runs as a fresh uid of its own (needs root; the default as
   * root). `caller`: as ag-run's own uid.
   */
  readonly runAs: 'unprivileged' | 'caller';
  /** As root: RLIMIT_NPROC of each execution's own uid (default 1024). */
  readonly maxProcesses: number;
  /** Where the artefact goes (`-` for stdout): its directory is watched for writes by the tests. */
  readonly out?: string;
}

/** The tool's identity as recorded in the artefact. */
export interface ToolIdentity {
  readonly name: string;
  readonly version: string;
}

/** The tail kept of each stream, and the most a per-test report read from stdout (TAP) may be. */
const OUTPUT_CAP_BYTES = 8 * 1024 * 1024;
/** The most any other run may print on one stream before it is stopped (`output_cap`). */
const OUTPUT_LIMIT_BYTES = 256 * 1024 * 1024;
const EVIDENCE_TAIL_CHARS = 4000;

async function directory(dir: string, flag: string): Promise<string> {
  try {
    const st = await fs.stat(dir);
    if (!st.isDirectory()) throw new InputError(dir, `--${flag} is not a directory`);
    return realpathSync(dir);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(dir, `--${flag} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Run everything and return the artefact. Throws UsageError/InputError/LoadError for exit 3. */
export async function runGate(opts: RunOptions, tool: ToolIdentity): Promise<RunArtefact> {
  const started = process.hrtime.bigint();
  const baseline = await directory(opts.baseline, 'baseline');
  const patch = await directory(opts.patch, 'patch');
  const diff = await readDiff(opts.diff);
  const inputs: RunArtefact['inputs'] = [
    { role: 'diff', path: opts.diff === '-' ? '-' : opts.diff, sha256: diff.sha256 },
  ];
  const faults: RunArtefact['faults'] = [];
  // The trees as the tests found them (the link to the installed packages a pipeline adds left out).
  const treeIds = Promise.all([gitTreeId(baseline, ['node_modules']), gitTreeId(patch, ['node_modules'])]).catch(
    (e: unknown) => {
      faults.push({
        code: 'TREE_ID',
        message: `the trees' git ids could not be computed: ${e instanceof Error ? e.message : String(e)}`,
      });
      return null;
    },
  );
  const workRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-run-'));
  let prepared: Promise<PreparedRun>[] = [];
  try {
    if (opts.sandbox === 'bwrap') {
      const probe = await probeBwrap(childEnv({ home: workRoot }), workRoot);
      if (!probe.ok) throw new UsageError(`--sandbox bwrap: ${probe.problem}; refusing to run unsandboxed`);
    }
    const commands = [...opts.testCommands];
    if (opts.commandsJson !== null) {
      const bytes = await readRegularFile(opts.commandsJson);
      inputs.push({ role: 'commands', path: opts.commandsJson, sha256: sha256(bytes) });
      const declared = parseDeclaredCommands(opts.commandsJson, bytes);
      if ('fault' in declared)
        faults.push({
          code: 'COMMANDS_INVALID',
          message: `${opts.commandsJson}: ${declared.fault}; none of its commands ran`,
        });
      else commands.push(...declared.commands);
    }
    let claimsFile: ClaimsFile | null = null;
    if (opts.claims !== null) {
      if (liesInside(opts.claims, patch))
        throw new UsageError(
          `--claims ${opts.claims} lies inside the patch tree; acceptance criteria must come from outside the patch`,
        );
      const loaded = await loadJson(opts.claims, ClaimsFile);
      claimsFile = loaded.value;
      inputs.push({ role: 'claims', path: opts.claims, sha256: sha256(loaded.bytes) });
    }
    if (opts.fullSuiteCommand === null && commands.length > 1) {
      throw new UsageError('more than one claim command: give --full-suite-command');
    }
    const fullCommand = opts.fullSuiteCommand ?? commands[0] ?? null;
    if (commands.length === 0 && faults.length === 0) throw new UsageError('give --test-command or --commands-json');

    const runnerOf = (c: string) => opts.runner ?? detectRunner(c);
    const trees = { baseline, patch };
    const planned = planExecutions(commands, fullCommand, opts.rounds, trees, runnerOf);

    const isolateUser = opts.runAs === 'unprivileged';
    // An unprivileged uid must be able to reach its run directory.
    if (isolateUser) await fs.chmod(workRoot, 0o711);
    const evidence =
      opts.out === undefined || opts.out === '-' ? null : await directory(path.dirname(path.resolve(opts.out)), 'out');
    const roots: WatchRoot[] = [
      { role: 'baseline', path: baseline },
      { role: 'patch', path: patch },
      ...(evidence !== null ? [{ role: 'evidence' as const, path: evidence }] : []),
    ];
    const ctx: ExecutionContext = {
      workRoot,
      timeoutMs: Math.round(opts.timeoutSeconds * 1000),
      graceMs: 1000,
      outputCapBytes: OUTPUT_CAP_BYTES,
      outputLimitBytes: OUTPUT_LIMIT_BYTES,
      limits: defaultLimits(opts.timeoutSeconds),
      sandbox: opts.sandbox,
      keepOut: roots.map((r) => r.path).filter((t) => !isWithin(t, workRoot)),
      callerHome: process.env.HOME,
      isolateUser,
      processLimit: opts.maxProcesses,
      junit: opts.junit,
      passEnv: opts.passEnv,
      seed: opts.seed,
      evidenceTailChars: EVIDENCE_TAIL_CHARS,
    };
    // The interpreter each command runs, named before any of the patch's code runs (ag-core's rule).
    const interpreters = [...new Set([...commands, ...(fullCommand === null ? [] : [fullCommand])])]
      .map((c) => pythonInterpreter(c, runLookup(ctx, c), callerLookup()))
      .filter((x) => x !== null);
    let watch: Awaited<ReturnType<typeof startWatch>> | null = null;
    // Copies are made ahead, two at a time, while the roots are snapshotted (first wave) and
    // earlier executions run (a copy only reads the roots; nothing runs before the snapshots are taken).
    const runWave = async (plans: readonly ExecutionPlan[]): Promise<ExecutionRecord[]> => {
      const copies = startLimited(plans, 2, (plan) => prepareRun(plan, ctx));
      prepared = [...prepared, ...copies];
      if (watch === null) watch = await startWatch(roots, workRoot);
      // A slot is free once a run's process group is gone; its judging overlaps the next run.
      const runs = await mapLimit(plans, opts.jobs, async (plan, i) => execute(plan, ctx, await copies[i]!));
      return Promise.all(runs.map((r) => r.judged));
    };
    // The baseline's tests, runner configuration and installed packages, run against the patch's
    // code; beside them, on the baseline tree, the perturbed pair.
    const trustedRuns = await planTrustedRuns({
      diff,
      baseline,
      patch,
      workRoot,
      fullCommand,
      runner: runnerOf,
      callerCI: process.env.CI,
      seeded: opts.seed !== null,
      freshUids: isolateUser,
      faults,
    });
    const firstWave = await runWave(planned.plans);
    const { retired, trusted, plans: trustedPlan } = trustedRuns;
    const { perturbation, plans: pair } = await trustedRuns.pair();
    // A failure on the patch is judged over more than one sighting per side. The trusted run
    // goes with the reruns, after the claims: the claims' schedule is theirs alone.
    const again = planReruns(
      planned.plans,
      firstWave.map((r) => r.execution),
      trees,
    );
    const later = [...again, ...trustedPlan, ...pair];
    const asCaller = pair.length > 0 && !isolateUser && opts.sandbox === 'none';
    const secondWave = later.length > 0 ? await cleaningFaketime(asCaller, () => runWave(later)) : [];
    const judgedOnce = [...firstWave, ...secondWave];
    // A regression inside a suite that shows flaky tests is confirmed by more patch executions.
    const confirm = planConfirmations(
      [...planned.plans, ...later],
      judgedOnce.map((r) => r.execution),
      trees,
    );
    const records = [...judgedOnce, ...(confirm.length > 0 ? await runWave(confirm) : [])];
    const plans = [...planned.plans, ...later, ...confirm];
    const writeWatch = await finishWatch(
      watch!,
      records.map((r) => r.copy),
    );
    const judged = assemble({
      planned,
      plans,
      executions: records.map((r) => r.execution),
      durationsMs: records.map((r) => r.durationMs),
      fullCommand,
      rounds: opts.rounds,
      timeoutMs: ctx.timeoutMs,
      deltas: {
        locate: treeLocator(baseline, patch, diff.model),
        renamed: renamedFiles(diff.model),
        retired: new Set(retired.map((r) => r.path)),
      },
      trusted,
      perturbation,
    });
    const claims = judged.claims;
    const perturbed = (i: number) => (plans[i]!.perturbation !== undefined ? ', perturbed' : '');
    const fp = judged.fullSuite.patch;
    if (fullCommand === null)
      faults.push({ code: 'FULL_SUITE_NOT_RUN', message: 'no command to run as the full suite' });
    for (const [i, r] of records.entries()) {
      if (r.execution.kind === 'sandbox_setup')
        faults.push({
          code: 'SANDBOX_SETUP',
          message: `execution ${i + 1} (${r.execution.side} round ${r.execution.round}${perturbed(i)}): ${r.detail}`,
        });
    }
    faults.push(...escapeFaults(records.map((r) => ({ ...r.copy, escaped: r.escaped }))));
    const timing: Record<string, number> = {};
    for (const [i, r] of records.entries())
      timing[`execution_${i + 1}_${r.execution.side}_${r.execution.round}${perturbed(i).replace(', ', '_')}_seconds`] =
        round3(r.durationMs / 1000);
    timing.total_seconds = round3(Number(process.hrtime.bigint() - started) / 1e9);
    const ids = await treeIds;
    const left = leftBehind(
      records.map((r, i) => ({
        side: r.execution.side,
        leftovers: perturbed(i) ? withoutFaketimeObjects(r.leftovers) : r.leftovers,
      })),
    );
    return {
      schema: 'adversary-gate/run',
      schema_version: 1,
      tool: { name: tool.name, version: tool.version },
      subject: { diff_sha256: diff.sha256, ...(ids === null ? {} : { baseline_tree: ids[0], patch_tree: ids[1] }) },
      inputs,
      faults,
      timing,
      sandbox: opts.sandbox,
      rounds: opts.rounds,
      seed: opts.seed,
      runner: opts.runner ?? 'auto',
      claims,
      full_suite: judged.fullSuite,
      test_deltas: judged.testDeltas,
      tests_flaky: judged.testsFlaky,
      ...(judged.trustedTests !== null ? { trusted_tests: judged.trustedTests } : {}),
      write_watch: writeWatch,
      ...(left !== null ? { left_behind: left } : {}),
      run_as: isolateUser ? 'unprivileged' : 'caller',
      pass_env_sha256: passedEnvSha256(opts.passEnv),
      ...(interpreters.length > 0 ? { interpreters } : {}),
      criteria:
        claimsFile === null
          ? []
          : judgeCriteria(claimsFile, {
              baseline: records.flatMap((r, i) =>
                r.execution.side === 'baseline' && !perturbed(i) ? [r.execution] : [],
              ),
              patchRounds: claims.map((c) => c.patch),
              fullPatch: fp,
            }),
      limits: {
        timeout_seconds: opts.timeoutSeconds,
        output_cap_bytes: OUTPUT_CAP_BYTES,
        cpu_seconds: ctx.limits.cpuSeconds!,
        file_size_bytes: ctx.limits.fileSizeBytes!,
        data_bytes: ctx.limits.dataBytes!,
        open_files: ctx.limits.openFiles!,
        ...(isolateUser ? { processes: ctx.processLimit } : {}),
      },
    };
  } finally {
    // A copy still being made would outlive the removal.
    await Promise.allSettled(prepared);
    await removeTree(workRoot);
  }
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
