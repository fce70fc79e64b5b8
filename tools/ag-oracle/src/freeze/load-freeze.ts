/**
 * Read the freeze list the policy names, from the baseline tree only.
 * @module
 */
import path from 'node:path';
import { InputError } from '@adversary-gate/core';
import { LoadError, loadJson, sha256 } from '@adversary-gate/schemas';
import { FreezeFile, freezeEntries, judgeEntry, type JudgedEntry } from './freeze-list.js';

/** The freeze list as read: the file, its digest and the judged entries. */
export interface LoadedFreeze {
  readonly file: string;
  readonly sha256: `sha256:${string}`;
  readonly entries: JudgedEntry[];
}

/**
 * Load `<baseline>/<rel>` and judge each entry against `today`. A freeze list the policy
 * names but the baseline lacks is an input error: the policy promised a list.
 * @throws InputError | LoadError
 */
export async function loadFreeze(baseline: string, rel: string, today: string): Promise<LoadedFreeze> {
  const file = path.join(baseline, rel);
  try {
    const { bytes, value } = await loadJson(file, FreezeFile);
    return { file, sha256: sha256(bytes), entries: freezeEntries(value).map((e, i) => judgeEntry(i, e, today)) };
  } catch (error) {
    if (error instanceof LoadError && error.code === 'E_EVIDENCE_MISSING') {
      throw new InputError(
        file,
        `${error.problem}: the policy names this freeze list but the baseline has none (set "oracle.freeze" to null, or commit the list)`,
      );
    }
    throw error;
  }
}
