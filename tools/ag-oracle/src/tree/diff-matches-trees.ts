/**
 * Does the diff describe these two trees? Every path it changes must be where its status
 * says, on each side; otherwise the evidence would judge one patch against another's trees.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import type { Fault } from '../faults.js';

/** Paths listed in a fault message before "and N more". */
const SHOWN = 5;

/**
 * One `DIFF_TREE_MISMATCH` fault listing every path whose presence in a tree disagrees
 * with the diff (a new or changed file missing from the patch, a deleted file still there,
 * an old file missing from the baseline, a new one already there), or none.
 */
export async function diffTreeMismatch(
  files: readonly ChangedFile[],
  exists: (side: 'baseline' | 'patch', path: string) => Promise<boolean>,
): Promise<Fault[]> {
  const problems: string[] = [];
  for (const f of files) {
    const onPatch = await exists('patch', f.path);
    if (f.status === 'deleted' ? onPatch : !onPatch)
      problems.push(`${f.path} (${f.status}; ${onPatch ? 'present' : 'absent'} in the patch tree)`);
    const onBaseline = await exists('baseline', f.oldPath ?? f.path);
    if (f.status === 'added' ? onBaseline : !onBaseline) {
      problems.push(`${f.oldPath ?? f.path} (${f.status}; ${onBaseline ? 'present' : 'absent'} in the baseline tree)`);
    }
  }
  if (problems.length === 0) return [];
  const more = problems.length > SHOWN ? ` and ${problems.length - SHOWN} more` : '';
  return [
    {
      code: 'DIFF_TREE_MISMATCH',
      message: `the diff does not describe the two trees: ${problems.slice(0, SHOWN).join(', ')}${more}`,
    },
  ];
}
