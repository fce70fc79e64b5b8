/**
 * Evidence bound to the trees it measured: when the trusted side names the baseline and
 * patch trees (their git tree ids), every evidence kind that ran on a tree must carry that
 * tree's id, and the same one.
 * @module
 */
import type { EvidenceKind } from '@adversary-gate/schemas';

/** The git tree ids the trusted side gives ag-decide. */
export interface ExpectedTrees {
  readonly baseline?: string;
  readonly patch?: string;
}

/** Which trees each evidence kind ran on (coverage is measured from reports, bound by the diff). */
const SIDES: Record<EvidenceKind, readonly ('baseline' | 'patch')[]> = {
  run: ['baseline', 'patch'],
  oracle: ['baseline', 'patch'],
  mutation: ['patch'],
  diffcov: [],
};

/** Why `subject` is not bound to the expected trees, or null when it is. */
export function treeProblem(
  kind: EvidenceKind,
  subject: { baseline_tree?: string; patch_tree?: string },
  expected: ExpectedTrees,
): string | null {
  for (const side of SIDES[kind]) {
    const want = expected[side];
    if (want === undefined) continue;
    const got = side === 'baseline' ? subject.baseline_tree : subject.patch_tree;
    if (got === undefined) return `not bound to a ${side} tree (the ${side} tree ${want} was expected)`;
    if (got !== want) return `measured the ${side} tree ${got}, not ${want}`;
  }
  return null;
}
