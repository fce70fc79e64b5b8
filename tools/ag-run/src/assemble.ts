/**
 * From the judged executions to run.json's judgements: each claim's status, the full suite,
 * the per-test deltas and the flaky tests, every test judged across all executions of its
 * command on each side. Pure.
 * @module
 */
import { fileOfId } from '@adversary-gate/core';
import type { Claim, Execution, FlakyTest, FullSuite, TestDeltas, TrustedTests } from '@adversary-gate/schemas';
import { classifyClaim } from './classify.js';
import { testDeltasOver, type DeltaContext } from './deltas.js';
import type { ExecutionPlan } from './execute.js';
import { commandHistory, failureKinds, flakyTests } from './per-test.js';
import type { Planned } from './plan.js';
import { perturbedEvidence, type Perturbation } from './perturb.js';
import { trustedFailures, type TrustedPlan } from './trusted.js';

/** Everything the judgements are made from. */
export interface AssembleInput {
  readonly planned: Planned;
  /** Every plan: the first wave (`planned.plans`) then the reruns. */
  readonly plans: readonly ExecutionPlan[];
  readonly executions: readonly Execution[];
  readonly durationsMs: readonly number[];
  readonly fullCommand: string | null;
  readonly rounds: number;
  readonly timeoutMs: number;
  readonly deltas: DeltaContext;
  /** What the trusted tree was built from (null: no trusted execution). */
  readonly trusted: TrustedPlan | null;
  /** The perturbed pair's environment (null: no pair was planned). */
  readonly perturbation?: Perturbation | null;
}

/** The judgements of run.json. */
export interface Assembled {
  readonly claims: Claim[];
  readonly fullSuite: FullSuite;
  readonly testDeltas: TestDeltas | null;
  readonly testsFlaky: FlakyTest[];
  /** Null when there was no trusted execution to make (a patch that only adds tests, or no full suite). */
  readonly trustedTests: TrustedTests | null;
}

/** Runs ended by a kill report only the tests they reached: the rest are not lost, just unmeasured. */
const KILLED = new Set(['timeout', 'signal', 'killed', 'rlimit_cpu', 'rlimit_fsize', 'rlimit_nproc', 'output_cap']);

export function assemble(input: AssembleInput): Assembled {
  const { planned, plans } = input;
  const first = planned.plans.length;
  // The trusted execution runs other test files, the perturbed pair under another environment:
  // each is judged on its own, never with the patch's runs.
  const trustedAt = plans.findIndex((p) => p.trusted === true && p.perturbation === undefined);
  const apart = (i: number) => i === trustedAt || plans[i]?.perturbation !== undefined;
  const executions = input.executions.map((e, i) => (apart(i) ? null : e));
  const rerunsOf = (command: string) =>
    plans
      .map((p, i) => ({ p, i }))
      .filter((x) => x.i >= first && x.p.command === command && !apart(x.i))
      .map((x) => executions[x.i]!);
  const ofCommand = (command: string) => executions.filter((e): e is Execution => e !== null && e.command === command);
  const histories = new Map([...new Set(plans.map((p) => p.command))].map((c) => [c, commandHistory(c, ofCommand(c))]));

  const claims: Claim[] = planned.claims.map((c, i) => {
    const base = executions[c.base]!;
    const rounds = c.rounds.map((r) => executions[r]!);
    const reruns = rerunsOf(c.command);
    // Clean: the baseline passed it, in half the limit, so a load spike alone cannot make the patch time out.
    const completed = base.outcome === 'PASS' && input.durationsMs[c.base]! <= input.timeoutMs / 2;
    const k = classifyClaim(base, rounds, input.rounds, {
      reruns,
      history: histories.get(c.command)!,
      baselinePassedInTime: completed,
    });
    return {
      id: `claim-${i + 1}`,
      command: c.command,
      baseline: base,
      patch: rounds,
      status: k.status,
      class: k.class,
      ...(reruns.length > 0 ? { reruns } : {}),
    };
  });

  const fb = planned.fullBase === null ? null : executions[planned.fullBase]!;
  const fp = planned.fullPatch === null ? null : executions[planned.fullPatch]!;
  const full = input.fullCommand === null ? [] : ofCommand(input.fullCommand);
  const side = (s: 'baseline' | 'patch') => full.filter((e) => e.side === s);
  let collateral =
    fb?.outcome === 'PASS' &&
    fp?.outcome === 'FAIL' &&
    side('baseline').every((e) => e.outcome === 'PASS') &&
    side('patch').every((e) => e.outcome === 'FAIL');
  if (collateral && input.fullCommand !== null) {
    // Failures that are all flaky (or the baseline's own) are not evidence against the patch.
    const kinds = [...failureKinds(histories.get(input.fullCommand)!).values()];
    if (kinds.length > 0 && kinds.every((k) => k === 'flaky' || k === 'already_failing')) collateral = false;
  }
  const fullReruns = input.fullCommand === null ? [] : rerunsOf(input.fullCommand);
  const fullSuite: FullSuite = {
    command: input.fullCommand ?? '',
    baseline: fb,
    patch: fp,
    collateral_regression: collateral,
    baseline_red: fb !== null && fb.outcome !== 'PASS',
    ...(fullReruns.length > 0 ? { reruns: fullReruns } : {}),
  };
  const reported = (s: 'baseline' | 'patch') =>
    side(s)
      .filter((e) => e.tests !== null && !KILLED.has(e.kind))
      .map((e) => e.tests!);
  const testDeltas =
    fb === null || fp === null ? null : testDeltasOver(reported('baseline'), reported('patch'), input.deltas);
  const testsFlaky = [...histories.values()].flatMap((h) => flakyTests(h));
  let trustedTests: TrustedTests | null = null;
  if (input.trusted !== null) {
    const execution = trustedAt < 0 ? null : input.executions[trustedAt]!;
    const t = input.trusted;
    const retired = new Set(t.retired.map((r) => r.path));
    const leave = new Set([
      ...(testDeltas?.tests_pass_to_fail ?? []),
      ...testsFlaky.map((f) => f.id),
      ...side('baseline').flatMap((e) =>
        (e.tests ?? []).filter((x) => retired.has(fileOfId(x.id) ?? '')).map((x) => x.id),
      ),
    ]);
    const failed = execution === null ? [] : trustedFailures(side('baseline'), execution, leave);
    const pairAt = (s: 'baseline' | 'patch') => plans.findIndex((p) => p.perturbation !== undefined && p.side === s);
    const perturbed =
      t.tree === 'baseline' && input.perturbation != null
        ? perturbedEvidence(input.perturbation, {
            baseline: input.executions[pairAt('baseline')] ?? null,
            execution: input.executions[pairAt('patch')] ?? null,
            trusted: execution,
            baselineRuns: side('baseline'),
            leave,
          })
        : null;
    trustedTests = {
      command: input.fullCommand ?? '',
      files: [...t.files],
      execution,
      failed,
      tree: t.tree,
      from_patch: [...t.fromPatch],
      held_back: [...t.heldBack],
      ...(t.retired.length > 0 ? { retired: t.retired.map((r) => ({ path: r.path, subjects: [...r.subjects] })) } : {}),
      ...(t.renamedBack !== undefined
        ? { renamed_back: { names: t.renamedBack.names.map((n) => ({ ...n })), files: [...t.renamedBack.files] } }
        : {}),
      ...(perturbed !== null ? { perturbed } : {}),
    };
  }
  return { claims, fullSuite, testDeltas, testsFlaky, trustedTests };
}
