/**
 * What each command does between its checked flags and the artefact it writes: read its
 * inputs, then measure, merge or import.
 * @module
 */
import { classifyPath } from '@adversary-gate/core';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { importStryker } from './import-stryker.js';
import { loadImportInputs, loadMutateInputs } from './inputs.js';
import { measureMutation, type MutateOptions } from './measure.js';
import { loadShards, mergeShards } from './merge.js';
import type { ImportFlags, MergeFlags, MutateFlags } from './options.js';

/** `ag-mutate`: measure the suite's strength on the diff's added lines. */
export async function runMutate(
  flags: MutateFlags,
  onProgress?: MutateOptions['onProgress'],
): Promise<MutationArtefact> {
  return measureMutation(await loadMutateInputs(flags, onProgress));
}

/** `ag-mutate merge`: one artefact from the shards of one run. */
export async function runMerge(flags: MergeFlags): Promise<MutationArtefact> {
  return mergeShards(await loadShards(flags.shards));
}

/** `ag-mutate import`: a StrykerJS report kept to the changed lines. */
export async function runImport(flags: ImportFlags): Promise<MutationArtefact> {
  const { diff, report, reportRef } = await loadImportInputs(flags);
  return importStryker(report, diff, reportRef, classifyPath);
}
