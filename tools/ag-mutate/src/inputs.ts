/**
 * The files the commands read (the diff, the policy, ag-run's run.json, a StrykerJS report) and the probe of
 * the sandbox: everything between checked flags and a measurement that touches the disk.
 * Every refusal is an InputError or a UsageError (exit 3).
 * @module
 */
import os from 'node:os';
import { childEnv, loadPolicyClasses, probeBwrap, readDiff, UsageError, type BoundDiff } from '@adversary-gate/core';
import { loadArtefact, loadJson, sha256 } from '@adversary-gate/schemas';
import { StrykerReport } from './import-stryker.js';
import type { MutateOptions } from './measure.js';
import type { ImportFlags, MutateFlags } from './options.js';

/** The measurement's options from checked flags: the diff and the policy read, the sandbox probed. */
export async function loadMutateInputs(
  flags: MutateFlags,
  onProgress?: MutateOptions['onProgress'],
): Promise<MutateOptions> {
  const diff = await readDiff(flags.diff);
  const classes = await loadPolicyClasses(flags.policy);
  const run = flags.run === undefined ? undefined : await loadArtefact(flags.run, 'run');
  if (flags.sandbox === 'bwrap') {
    const probe = await probeBwrap(childEnv({ home: os.tmpdir() }), os.tmpdir());
    if (!probe.ok) throw new UsageError(`--sandbox bwrap: ${probe.problem}; refusing to run unsandboxed`);
  }
  return {
    diff,
    tree: flags.tree,
    command: flags.command,
    mutantCommand: flags.mutantCommand,
    max: flags.max,
    lineBudget: flags.lineBudget,
    jobs: flags.jobs,
    timeoutFactor: flags.timeoutFactor,
    baselineTimeoutMs: flags.baselineTimeoutMs,
    shard: flags.shard,
    python: flags.python,
    passEnv: flags.passEnv,
    classify: classes.classify,
    policyInput: classes.input,
    ...(run !== undefined && flags.run !== undefined
      ? { priorRun: { file: flags.run, sha256: sha256(run.bytes), value: run.value } }
      : {}),
    onProgress,
    sandbox: flags.sandbox,
    warmHost: flags.warmHost,
    order: flags.order,
    ...(flags.canarySeed !== undefined ? { canarySeed: flags.canarySeed } : {}),
    selectTests: flags.select === 'auto',
    checkEquivalence: flags.equivalence === 'check',
  };
}

/** What `import` reads: the diff, and the report with its digest. */
export interface ImportInputs {
  readonly diff: BoundDiff;
  readonly report: StrykerReport;
  readonly reportRef: { readonly path: string; readonly sha256: `sha256:${string}` };
}

/** Read `import`'s diff and report (the report through its schema). */
export async function loadImportInputs(flags: ImportFlags): Promise<ImportInputs> {
  const diff = await readDiff(flags.diff);
  const { bytes, value } = await loadJson(flags.stryker, StrykerReport);
  return { diff, report: value, reportRef: { path: flags.stryker, sha256: sha256(bytes) } };
}
