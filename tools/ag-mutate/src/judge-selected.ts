/**
 * The run that judges what a measurement selected: the canaries drawn (from the mutants' and the
 * reverts' functions) and slipped among the mutants and the reverts, the execution's options
 * built from the measurement's (the runner, which tests may be selected, the footprint's changed
 * functions and their baseline texts, ag-run's run standing for the second green run), and the
 * execution itself (exec/execute.ts: the baseline, every mutant, the footprint and the
 * survivors' equivalence check).
 * @module
 */
import { passedEnvSha256 } from '@adversary-gate/core';
import { freshCanarySeed, planCanaries, type CanaryPlan } from './canary.js';
import { baselineTexts } from './changed-texts.js';
import { languageOf, type ChangeSet } from './changes.js';
import type { CanarySpot, Site } from './engines/site.js';
import { execute, type ExecResult } from './exec/execute.js';
import type { MutateOptions } from './measure.js';
import { priorRunUse, type PriorRunUse } from './prior-run.js';
import type { RevertPlan } from './revert-plan.js';
import type { ProbePlan } from './equality/probes.js';
import { detectRunner } from './runners/runner.js';

/** What the measurement selected, and what it knows of the changed files. */
export interface Selected {
  readonly changes: ChangeSet;
  readonly texts: Map<string, string>;
  /** Changed files with removed lines only, that an engine reads (their reverts run). */
  readonly removedOnly: readonly string[];
  /** The mutants of this shard. */
  readonly mine: readonly Site[];
  readonly reverts: RevertPlan;
  /** The equality probes this run judges, after the mutants, the reverts and the canaries. */
  readonly probes: ProbePlan;
  /** Where a canary can go in the functions holding an added line. */
  readonly canarySpots: readonly CanarySpot[];
  /** The patch tree's git id, once hashed (undefined: it could not be). */
  readonly patchTreeId: Promise<string | undefined>;
}

/** The execution's result, and the canaries it judged (drawn from `canarySeed`). */
export interface SelectedJudged {
  readonly exec: ExecResult;
  readonly plan: CanaryPlan;
  /** Every site judged, in the order of `exec.verdicts`: the canary plan's list, then the equality probes. */
  readonly judged: readonly Site[];
  readonly canarySeed: number;
}

/** Whether `opts.priorRun` stands for the second baseline run, once the patch tree's id is known. */
function priorGreen(opts: MutateOptions, patchTreeId: Promise<string | undefined>): Promise<PriorRunUse> {
  return patchTreeId.then((patchTree) =>
    priorRunUse(opts.priorRun!.value, {
      diffSha256: opts.diff.sha256,
      patchTree,
      command: opts.command,
      sandbox: opts.sandbox ?? 'none',
      passEnvSha256: passedEnvSha256(opts.passEnv),
    }),
  );
}

/** Judge the selected mutants, the reverts and the canaries drawn among them. */
export async function judgeSelected(opts: MutateOptions, s: Selected): Promise<SelectedJudged> {
  const { changes, texts } = s;
  const runner =
    opts.selectTests === false
      ? { name: detectRunner(opts.command).name, nodeTestPrefix: null }
      : detectRunner(opts.command);
  // The canaries ride in the judging list among the mutants, judged as they are.
  const canarySeed = opts.canarySeed ?? freshCanarySeed();
  // The reverts' functions may hold canaries too: a test that reads a function's text would kill its revert.
  const plan = planCanaries([...s.canarySpots, ...s.reverts.spots], [...s.mine, ...s.reverts.run], texts, canarySeed);
  const judgedFiles = [...changes.mutable.map((f) => f.path), ...s.removedOnly];
  // The equality probes after them: they are no secret, the tests cannot tell them from a mutant either.
  const judged = [...plan.judged, ...s.probes.run];
  const exec = await execute(judged, texts, {
    tree: opts.tree,
    command: opts.command,
    mutantCommand: opts.mutantCommand,
    jobs: opts.jobs,
    timeoutFactor: opts.timeoutFactor,
    baselineTimeoutMs: opts.baselineTimeoutMs,
    passEnv: opts.passEnv,
    coverFiles: new Set(judgedFiles.filter((p) => languageOf(p) === 'js')),
    pythonFiles:
      opts.selectTests === false ? new Set() : new Set(judgedFiles.filter((p) => languageOf(p) === 'python')),
    runner,
    selectTests: opts.selectTests !== false,
    checkEquivalence: opts.checkEquivalence !== false,
    sandbox: opts.sandbox ?? 'none',
    warmHost: opts.warmHost ?? 'auto',
    order: opts.order,
    python: opts.python,
    onProgress: opts.onProgress,
    changedTests: changes.tests,
    baselineTexts: baselineTexts(changes.mutable, texts, opts.diff),
    changedFunctions: s.canarySpots.flatMap((c) =>
      c.function !== null ? [{ file: c.file, function: c.function }] : [],
    ),
    ...(opts.priorRun !== undefined ? { priorGreen: priorGreen(opts, s.patchTreeId) } : {}),
  });
  return { exec, plan, judged, canarySeed };
}
