/**
 * Per-test deltas between the baseline and the patch: what a gamed patch leaves behind.
 * @module
 */
import type { TestDeltas, TestResult } from '@adversary-gate/schemas';

const RAN = new Set<TestResult['outcome']>(['passed', 'failed', 'error']);
const NOT_RUN = new Set<TestResult['outcome']>(['skipped', 'todo', 'xfail']);

/**
 * Compare two test lists. Null when either side has no per-test report: then lost or newly
 * skipped tests cannot be ruled out, and the evidence says so instead of reporting none.
 */
export function testDeltas(baseline: readonly TestResult[] | null, patch: readonly TestResult[] | null): TestDeltas | null {
  if (baseline === null || patch === null) return null;
  const after = new Map(patch.map((t) => [t.id, t.outcome]));
  const lost: string[] = [];
  const skipped: string[] = [];
  const broke: string[] = [];
  for (const t of baseline) {
    const now = after.get(t.id);
    if (now === undefined) lost.push(t.id);
    else if (RAN.has(t.outcome) && NOT_RUN.has(now)) skipped.push(t.id);
    else if (t.outcome === 'passed' && (now === 'failed' || now === 'error')) broke.push(t.id);
  }
  const sort = (a: string[]) => [...new Set(a)].sort();
  return { tests_lost: sort(lost), tests_newly_skipped: sort(skipped), tests_pass_to_fail: sort(broke) };
}
