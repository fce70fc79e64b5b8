/**
 * Invariants of run.json that a forged or broken file would violate.
 * @module
 */
import type { Execution, RunArtefact } from '@adversary-gate/schemas';

function executionProblem(e: Execution, where: string): string | null {
  if (e.outcome === 'PASS' && (e.exit_code !== 0 || e.signal !== null || e.timed_out)) return `${where}: PASS with exit ${e.exit_code}, signal ${e.signal}, timed_out ${e.timed_out}`;
  // Exit 1 is the only failure code, except mocha's, which exits with its failure count.
  const failCode = e.exit_code === 1 || (e.runner === 'mocha' && e.exit_code !== null && e.exit_code > 1);
  if (e.outcome === 'FAIL' && (!failCode || e.signal !== null || e.timed_out)) return `${where}: FAIL without exit code 1`;
  if ((e.outcome === 'TIMED_OUT') !== e.timed_out) return `${where}: outcome ${e.outcome} disagrees with timed_out ${e.timed_out}`;
  if (e.tests !== null && new Set(e.tests.map((t) => t.id)).size !== e.tests.length) return `${where}: duplicated test ids`;
  return null;
}

/** The first broken invariant, or null. */
export function runProblem(run: RunArtefact): string | null {
  const ids = new Set<string>();
  for (const claim of run.claims) {
    if (ids.has(claim.id)) return `claim ${claim.id} appears twice`;
    ids.add(claim.id);
    const execs = [...(claim.baseline ? [claim.baseline] : []), ...claim.patch];
    for (const e of execs) {
      const p = executionProblem(e, `claim ${claim.id} ${e.side} round ${e.round}`);
      if (p) return p;
    }
    if (claim.patch.some((e) => e.side !== 'patch')) return `claim ${claim.id}: a patch round is labelled baseline`;
    const all = (o: Execution['outcome']) => claim.patch.length === run.rounds && claim.patch.every((e) => e.outcome === o);
    if (claim.status === 'VERIFIED' && !all('PASS')) return `claim ${claim.id} is VERIFIED but not every one of ${run.rounds} rounds passed`;
    if (claim.status === 'REFUTED' && !all('FAIL')) return `claim ${claim.id} is REFUTED but not every one of ${run.rounds} rounds failed`;
  }
  const fs = run.full_suite;
  const regression = fs.baseline?.outcome === 'PASS' && fs.patch?.outcome === 'FAIL';
  if (fs.collateral_regression !== regression) return `full_suite.collateral_regression ${fs.collateral_regression} disagrees with the outcomes`;
  const red = fs.baseline !== null && fs.baseline.outcome !== 'PASS';
  if (fs.baseline_red !== red) return `full_suite.baseline_red ${fs.baseline_red} disagrees with the baseline outcome`;
  for (const [side, e] of [['baseline', fs.baseline], ['patch', fs.patch]] as const) {
    if (e === null) continue;
    const p = executionProblem(e, `full suite ${side}`);
    if (p) return p;
  }
  return null;
}
