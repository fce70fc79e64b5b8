/**
 * The executions after the claims' first wave that are not reruns: the trusted run (the
 * baseline's tests against the patched code, `trusted.ts`) and, beside a trusted run on the
 * baseline tree, the perturbed pair (`perturb.ts`). Planned here, run by the gate in the wave
 * of the reruns.
 * @module
 */
import path from 'node:path';
import { classifyPath, type DiffModel, type RetiredTest } from '@adversary-gate/core';
import type { RunArtefact, Runner } from '@adversary-gate/schemas';
import type { ExecutionPlan } from './execute.js';
import { faketimeObjects, removeNewFaketimeObjects } from './faketime.js';
import { pairPlans, planPerturbation, probeHost, shiftDays, type Perturbation } from './perturb.js';
import { namedSetupFiles } from './setup-files.js';
import { planRenamedBack, undoRenames } from './trusted-renames.js';
import { buildTrustedTree, planTrusted, retiredOnBaseline, type TrustedPlan } from './trusted.js';

/** What runs after the first wave besides the reruns. */
export interface TrustedRuns {
  readonly retired: readonly RetiredTest[];
  readonly trusted: TrustedPlan | null;
  /** The trusted execution's plan (none when there is nothing to run, or its tree could not be built). */
  readonly plans: readonly ExecutionPlan[];
  /** The pair's environment and plans, once the host is probed (none beside a trusted run on the patch tree). */
  readonly pair: () => Promise<{ readonly perturbation: Perturbation | null; readonly plans: ExecutionPlan[] }>;
}

/** Where the trees are, and how the full suite runs. */
export interface TrustedRunsInput {
  readonly diff: { readonly model: DiffModel; readonly sha256: string };
  readonly baseline: string;
  readonly patch: string;
  readonly workRoot: string;
  readonly fullCommand: string | null;
  readonly runner: (command: string) => Runner;
  /** The CI value every other execution gets, and whether they get `AG_SEED`. */
  readonly callerCI: string | undefined;
  readonly seeded: boolean;
  /** True when every execution runs as a fresh uid (the pair then as uids of another range). */
  readonly freshUids: boolean;
  /** Faults go here (a trusted tree that could not be built). */
  readonly faults: RunArtefact['faults'];
}

/** Plan the trusted run and build its tree; the host is probed for the pair meanwhile. */
export async function planTrustedRuns(input: TrustedRunsInput): Promise<TrustedRuns> {
  const { baseline, patch, fullCommand } = input;
  const retired = await retiredOnBaseline(input.diff.model, baseline, classifyPath);
  const planned =
    fullCommand === null
      ? null
      : planTrusted(input.diff.model, classifyPath, await namedSetupFiles(baseline, fullCommand), retired);
  const renamedBack = planned === null ? null : planRenamedBack(input.diff.model, planned, baseline, patch);
  const trusted: TrustedPlan | null = planned === null || renamedBack === null ? planned : { ...planned, renamedBack };
  const days = shiftDays(input.diff.sha256);
  const host = trusted?.tree === 'baseline' ? probeHost(days) : null;
  const plans: ExecutionPlan[] = [];
  if (trusted !== null) {
    const tree = path.join(input.workRoot, 'trusted-tree');
    try {
      await buildTrustedTree(patch, baseline, trusted, tree);
      if (renamedBack !== null) await undoRenames(tree, renamedBack);
      plans.push({
        command: fullCommand!,
        runner: input.runner(fullCommand!),
        side: 'patch',
        round: 1,
        tree,
        trusted: true,
      });
    } catch (error) {
      input.faults.push({
        code: 'TRUSTED_TESTS_NOT_RUN',
        message: `the trusted tree could not be built: ${(error as Error).message.split('\n')[0]}`,
      });
    }
  }
  const pair = async () => {
    if (host === null) return { perturbation: null, plans: [] };
    const perturbation = planPerturbation(await host, {
      days,
      callerCI: input.callerCI,
      seeded: input.seeded,
      freshUids: input.freshUids,
    });
    return { perturbation, plans: plans.length === 0 ? [] : pairPlans(plans[0]!, baseline, perturbation) };
  };
  return { retired, trusted, plans, pair };
}

/**
 * Run `wave` and remove what libfaketime left in /dev/shm meanwhile, when the pair runs as the
 * caller's uid outside a sandbox (as a fresh uid the sweep removes it; a sandbox's /dev is its own).
 */
export async function cleaningFaketime<T>(asCaller: boolean, wave: () => Promise<T>): Promise<T> {
  const before = asCaller ? faketimeObjects() : null;
  try {
    return await wave();
  } finally {
    if (before !== null) removeNewFaketimeObjects(before);
  }
}
