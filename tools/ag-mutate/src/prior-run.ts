/**
 * ag-run's run.json as one of the baseline's two green runs: its full-suite execution on the
 * patch stands for ag-mutate's own second run only when it is bound to the same work: the
 * same diff and patch tree, the same command, sandbox and passed environment, no seed, no
 * fault, and every full-suite execution on the patch passed.
 * @module
 */
import type { RunArtefact } from '@adversary-gate/schemas';

/** What ag-mutate's own second run would be. */
export interface OwnBaseline {
  readonly diffSha256: string;
  /** The patch tree's git id; undefined when it could not be computed (then nothing is bound). */
  readonly patchTree: string | undefined;
  readonly command: string;
  readonly sandbox: 'none' | 'bwrap';
  readonly passEnvSha256: string;
}

/** The run.json and what it was read from. */
export interface PriorRun {
  readonly file: string;
  readonly sha256: `sha256:${string}`;
  readonly value: RunArtefact;
}

/** Whether the run stands for the second baseline run, and why not. */
export type PriorRunUse = { readonly used: true } | { readonly used: false; readonly why: string };

/** Why `run` does not stand for a green run of `own`'s work, or null when it does. */
function mismatch(run: RunArtefact, own: OwnBaseline): string | null {
  if (run.subject.diff_sha256 !== own.diffSha256) return 'it measured another diff';
  if (own.patchTree === undefined) return "the patch tree's git id is unknown";
  if (run.subject.patch_tree === undefined) return 'it names no patch tree';
  if (run.subject.patch_tree !== own.patchTree) return 'it measured another patch tree';
  if (run.full_suite.command !== own.command) return 'its full-suite command is not the test command';
  if (run.sandbox !== own.sandbox) return `its sandbox was ${run.sandbox}, this run's is ${own.sandbox}`;
  if (run.seed !== null) return 'its tests were given a seed (AG_SEED)';
  if (run.pass_env_sha256 === undefined) return 'it does not say which environment its tests were given';
  if (run.pass_env_sha256 !== own.passEnvSha256) return 'its tests were given other --pass-env variables';
  if (run.faults.length > 0) return `it holds faults (${run.faults.map((f) => f.code).join(', ')})`;
  if (run.full_suite.patch === null) return 'its full suite did not run on the patch';
  const patch = [run.full_suite.patch, ...(run.full_suite.reruns ?? []).filter((e) => e.side === 'patch')];
  const notPassed = patch.find((e) => e.outcome !== 'PASS');
  if (notPassed !== undefined) return `its full suite ended ${notPassed.outcome} (${notPassed.kind}) on the patch`;
  return null;
}

/** Whether `run` stands for ag-mutate's second baseline run of `own`'s work. */
export function priorRunUse(run: RunArtefact, own: OwnBaseline): PriorRunUse {
  const why = mismatch(run, own);
  return why === null ? { used: true } : { used: false, why };
}
