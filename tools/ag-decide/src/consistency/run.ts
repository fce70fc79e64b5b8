/**
 * Invariants of run.json that a forged or broken file would violate.
 * @module
 */
import { listingShowsFlaky } from '@adversary-gate/core';
import { LEFT_BEHIND_LISTED, type Execution, type RunArtefact } from '@adversary-gate/schemas';
import { fullSuiteFlaky } from '../rules/run.js';

function executionProblem(e: Execution, where: string): string | null {
  if (e.outcome === 'PASS' && (e.exit_code !== 0 || e.signal !== null || e.timed_out))
    return `${where}: PASS with exit ${e.exit_code}, signal ${e.signal}, timed_out ${e.timed_out}`;
  // Exit 1 is the only failure code, except mocha's, which exits with its failure count.
  const failCode = e.exit_code === 1 || (e.runner === 'mocha' && e.exit_code !== null && e.exit_code > 1);
  if (e.outcome === 'FAIL' && (!failCode || e.signal !== null || e.timed_out))
    return `${where}: FAIL without exit code 1`;
  if ((e.outcome === 'TIMED_OUT') !== e.timed_out)
    return `${where}: outcome ${e.outcome} disagrees with timed_out ${e.timed_out}`;
  if (e.tests !== null && new Set(e.tests.map((t) => t.id)).size !== e.tests.length)
    return `${where}: duplicated test ids`;
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
    for (const e of claim.reruns ?? []) {
      const p = executionProblem(e, `claim ${claim.id} rerun ${e.side} round ${e.round}`);
      if (p) return p;
      if (e.command !== claim.command) return `claim ${claim.id}: a rerun of another command`;
    }
    const patchReruns = (claim.reruns ?? []).filter((e) => e.side === 'patch');
    const all = (o: Execution['outcome']) =>
      claim.patch.length === run.rounds && [...claim.patch, ...patchReruns].every((e) => e.outcome === o);
    if (claim.status === 'VERIFIED' && !all('PASS'))
      return `claim ${claim.id} is VERIFIED but not every one of ${run.rounds} rounds passed`;
    // A hang is REFUTED only when every round timed out and the baseline passed.
    const hang = claim.class === 'hang' && all('TIMED_OUT') && claim.baseline?.outcome === 'PASS';
    if (claim.status === 'REFUTED' && !all('FAIL') && !hang)
      return `claim ${claim.id} is REFUTED but not every one of ${run.rounds} rounds failed`;
  }
  const fs = run.full_suite;
  const regression = fs.baseline?.outcome === 'PASS' && fs.patch?.outcome === 'FAIL';
  // Not called a regression when the artefact shows the failure is flaky; never one the outcomes do not show.
  if (fs.collateral_regression === true && !regression)
    return `full_suite.collateral_regression true disagrees with the outcomes`;
  if (fs.collateral_regression !== true && regression && !fullSuiteFlaky(run))
    return `full_suite.collateral_regression ${fs.collateral_regression} disagrees with the outcomes`;
  for (const e of fs.reruns ?? []) {
    const p = executionProblem(e, `full suite rerun ${e.side} round ${e.round}`);
    if (p) return p;
    if (e.command !== fs.command) return 'full suite: a rerun of another command';
  }
  const trusted = run.trusted_tests?.execution;
  if (trusted) {
    const p = executionProblem(trusted, 'trusted tests');
    if (p) return p;
    if (trusted.side !== 'patch') return 'trusted tests: the execution is not on the patch side';
  }
  const perturbed = run.trusted_tests === undefined ? null : perturbedProblem(run.trusted_tests);
  if (perturbed) return `trusted_tests.perturbed: ${perturbed}`;
  if ((run.test_deltas?.tests_retired ?? []).length > 0 && (run.trusted_tests?.retired ?? []).length === 0)
    return 'test_deltas.tests_retired lists tests, but trusted_tests names no retired test file';
  // ag-run's rule (ag-core), applied again to what each listing shows: its runs and its file's.
  for (const f of run.tests_flaky ?? []) {
    if (!listingShowsFlaky(f))
      return `tests_flaky: ${f.id} is listed as flaky, but the runs listed with it show neither a pass and a failure on one side nor a failure on the patch in a flaky file (a test red in every run on both sides is failing, not flaky)`;
  }
  const left = run.left_behind;
  if (left !== undefined) {
    const p = leftBehindProblem(left);
    if (p) return `left_behind: ${p}`;
  }
  const red = fs.baseline !== null && fs.baseline.outcome !== 'PASS';
  if (fs.baseline_red !== red) return `full_suite.baseline_red ${fs.baseline_red} disagrees with the baseline outcome`;
  for (const [side, e] of [
    ['baseline', fs.baseline],
    ['patch', fs.patch],
  ] as const) {
    if (e === null) continue;
    const p = executionProblem(e, `full suite ${side}`);
    if (p) return p;
  }
  return null;
}

type Trusted = NonNullable<RunArtefact['trusted_tests']>;

/**
 * The perturbed pair, re-derived where it can be: only beside a trusted run on the baseline
 * tree; its executions on the right sides, of the trusted command; its variables named once,
 * sorted, the clock shift the one `FAKETIME` says; and every test it names passed in the
 * perturbed baseline execution and in the trusted execution, and ended in the perturbed trusted
 * execution as listed (absent when it is not there), never passed.
 */
function perturbedProblem(trusted: Trusted): string | null {
  const p = trusted.perturbed;
  if (p === undefined) return null;
  if (trusted.tree !== 'baseline') return 'a perturbed pair beside a trusted run that is not on the baseline tree';
  for (const [e, side, where] of [
    [p.baseline, 'baseline', 'baseline execution'],
    [p.execution, 'patch', 'execution'],
  ] as const) {
    if (e === null) continue;
    const problem = executionProblem(e, `the perturbed ${where}`);
    if (problem) return problem;
    if (e.side !== side) return `the perturbed ${where} is not on the ${side} side`;
    if (e.command !== trusted.command) return `the perturbed ${where} ran another command`;
  }
  const names = p.env.map((v) => v.name);
  if (names.some((n, i) => i > 0 && names[i - 1]! >= n)) return 'env is not sorted by name, each name once';
  const faketime = p.env.find((v) => v.name === 'FAKETIME')?.value ?? null;
  if ((p.clock_shift_days === null ? null : `+${p.clock_shift_days}d`) !== faketime)
    return `clock_shift_days ${p.clock_shift_days} disagrees with FAKETIME ${faketime}`;
  if (p.failed.length === 0) return null;
  const ids = p.failed.map((f) => f.id);
  if (ids.some((id, i) => i > 0 && ids[i - 1]! >= id)) return 'failed is not sorted by id, each test once';
  const outcomes = (e: Execution | null) =>
    e === null || e.tests === null || (e.outcome !== 'PASS' && e.outcome !== 'FAIL')
      ? null
      : new Map(e.tests.map((t) => [t.id, t.outcome]));
  const base = outcomes(p.baseline);
  const now = outcomes(p.execution);
  const unperturbed = outcomes(trusted.execution);
  if (base === null || now === null || unperturbed === null)
    return 'tests are named although an execution they are judged over did not run to a verdict';
  for (const f of p.failed) {
    if (base.get(f.id) !== 'passed') return `${f.id} is named, but it did not pass in the perturbed baseline execution`;
    if (unperturbed.get(f.id) !== 'passed') return `${f.id} is named, but it did not pass in the trusted execution`;
    if ((now.get(f.id) ?? 'absent') !== f.outcome)
      return `${f.id} is named as ${f.outcome}, which the perturbed execution does not show`;
  }
  return null;
}

type LeftBehind = NonNullable<RunArtefact['left_behind']>;

/**
 * The lists are sorted, distinct, as long as their totals allow (at most 50), and `patch_only`
 * is what the patch side left and the baseline did not: exactly, where neither side's list
 * was cut; otherwise at least no path the baseline's list shows.
 */
function leftBehindProblem(left: LeftBehind): string | null {
  const lists = [
    ['baseline', left.baseline, left.baseline_total],
    ['patch', left.patch, left.patch_total],
    ['patch_only', left.patch_only, left.patch_only_total],
  ] as const;
  for (const [name, list, total] of lists) {
    if (list.length !== Math.min(total, LEFT_BEHIND_LISTED)) return `${name} lists ${list.length} of ${total} paths`;
    if (list.some((p, i) => i > 0 && list[i - 1]! >= p)) return `${name} is not sorted and distinct`;
  }
  if (left.patch_only_total > left.patch_total) return 'patch_only counts more paths than patch';
  const baseline = new Set(left.baseline);
  if (left.patch_only.some((p) => baseline.has(p))) return 'patch_only names a path the baseline left';
  if (left.baseline.length === left.baseline_total && left.patch.length === left.patch_total) {
    const only = left.patch.filter((p) => !baseline.has(p));
    if (only.length !== left.patch_only_total || only.some((p, i) => left.patch_only[i] !== p))
      return 'patch_only is not what the patch left and the baseline did not';
  }
  return null;
}
