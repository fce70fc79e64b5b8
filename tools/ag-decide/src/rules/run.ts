/**
 * Rules over run.json: claims, the full suite, per-test deltas, acceptance criteria, writes
 * outside the tree copies.
 * @module
 */
import {
  alwaysRed,
  interpreterSentence,
  unexplainedRenames,
  type RetitledTest,
  type TestSighting,
} from '@adversary-gate/core';
import type { Execution, Reason, RunArtefact } from '@adversary-gate/schemas';
import { listForMessage, reason } from '../reasons.js';

/**
 * Every reason the run evidence gives. `retitled`: the oracle's reworded titles (body
 * unchanged); a rename pair that is one of them is a rename, no TEST_RENAMED.
 */
export function runReasons(run: RunArtefact, retitled: readonly RetitledTest[] = []): Reason[] {
  const out: Reason[] = [];
  if (run.claims.length === 0)
    out.push(reason('CLAIM_UNVERIFIED', 'run', 'the run evidence holds no claim: nothing was verified'));
  for (const claim of run.claims) {
    if (claim.status === 'REFUTED' && claim.class === 'hang') {
      out.push(
        reason(
          'CLAIM_FAILED',
          'run',
          `claim ${claim.id} timed out on the patch in every round, where the baseline passed it (hang)`,
        ),
      );
    } else if (claim.status === 'REFUTED') {
      out.push(reason('CLAIM_FAILED', 'run', `claim ${claim.id} failed on the patch in every round (${claim.class})`));
    } else if (claim.status === 'UNVERIFIED' && claim.class === 'still_failing') {
      out.push(
        reason(
          'BASELINE_RED',
          'run',
          `claim ${claim.id} fails on the patch only where it already failed on the baseline (still_failing)`,
        ),
      );
    } else if (claim.status === 'UNVERIFIED') {
      out.push(reason('CLAIM_UNVERIFIED', 'run', `claim ${claim.id} is unverified (${claim.class})`));
    }
  }
  const base = run.full_suite.baseline;
  const patch = run.full_suite.patch;
  if (base === null) out.push(reason('CLAIM_UNVERIFIED', 'run', 'the full suite did not run on the baseline'));
  else if (base.outcome !== 'PASS') {
    const red = alwaysRed(fullSuiteSightings(run));
    const named =
      red.length === 0
        ? ''
        : `; red in every run on both sides, failing before the patch (not flaky): ${listForMessage(red)}`;
    out.push(reason('BASELINE_RED', 'run', `the full suite is ${base.outcome} on the baseline (${base.kind})${named}`));
  }
  if (patch === null) out.push(reason('CLAIM_UNVERIFIED', 'run', 'the full suite did not run on the patch'));
  else if (
    patch.outcome === 'FAIL' &&
    base?.outcome === 'PASS' &&
    !(run.full_suite.collateral_regression === false && fullSuiteFlaky(run))
  ) {
    out.push(reason('COLLATERAL_REGRESSION', 'run', 'the full suite passed on the baseline and fails on the patch'));
  } else if (patch.outcome === 'UNRUNNABLE' || patch.outcome === 'TIMED_OUT') {
    out.push(reason('CLAIM_UNVERIFIED', 'run', `the full suite is ${patch.outcome} on the patch (${patch.kind})`));
  }
  const deltas = run.test_deltas;
  if (deltas === null) {
    out.push(
      reason(
        'CLAIM_UNVERIFIED',
        'run',
        'no per-test report on both sides: lost or newly skipped tests could not be checked',
      ),
    );
  } else {
    if (deltas.tests_lost.length > 0) {
      out.push(
        reason(
          'TEST_LOST',
          'run',
          `tests present on the baseline are absent on the patch: ${listForMessage(deltas.tests_lost)}`,
        ),
      );
    }
    if (deltas.tests_newly_skipped.length > 0) {
      out.push(
        reason(
          'TEST_SKIPPED',
          'run',
          `tests newly skipped, todo or filtered: ${listForMessage(deltas.tests_newly_skipped)}`,
        ),
      );
    }
    if (deltas.tests_pass_to_fail.length > 0) {
      out.push(
        reason(
          'COLLATERAL_REGRESSION',
          'run',
          `tests that passed on the baseline fail on the patch: ${listForMessage(deltas.tests_pass_to_fail)}`,
        ),
      );
    }
    const renamed = unexplainedRenames(deltas.tests_renamed ?? [], retitled);
    const failedTrusted = new Set((run.trusted_tests?.failed ?? []).map((f) => f.id));
    if (renamed.length > 0) {
      out.push(
        reason(
          'TEST_RENAMED',
          'run',
          `tests gone from the patch with a new test in their place (a reviewer must see the new name and expectation): ${listForMessage(renamed.map((r) => renameLine(r, failedTrusted)))}`,
        ),
      );
    }
    const retired = deltas.tests_retired ?? [];
    if (retired.length > 0) {
      const files = (run.trusted_tests?.retired ?? []).map((r) => `${r.path} with ${r.subjects.join(', ')}`);
      out.push(
        reason(
          'TEST_RETIRED',
          'run',
          `tests absent on the patch whose file was deleted together with the code it imports (${listForMessage(files)}): ${listForMessage(retired)}`,
        ),
      );
    }
    const uncollected = deltas.tests_not_collected ?? [];
    if (uncollected.length > 0) {
      out.push(
        reason(
          'CLAIM_UNVERIFIED',
          'run',
          `tests of the baseline whose file failed to load on the patch (collection error or crash), so they were not measured: ${listForMessage(uncollected)}`,
        ),
      );
    }
  }
  const trusted = run.trusted_tests;
  if (trusted !== undefined)
    out.push(...trustedReasons(trusted, run.run_as === 'unprivileged', run.full_suite.baseline));
  const flaky = run.tests_flaky ?? [];
  if (flaky.length > 0) {
    out.push(
      reason(
        'TEST_FLAKY',
        'run',
        `flaky tests, which passed and failed on one side or failed on the patch in a flaky file (not evidence either way): ${listForMessage(flaky.map(flakyLine))}`,
      ),
    );
  }
  for (const c of run.criteria) {
    if (!c.proven) out.push(reason('CRITERION_UNPROVEN', 'run', `criterion ${c.id} is not proven: ${c.why}`));
  }
  out.push(...writeWatchReasons(run));
  out.push(...leftBehindReasons(run));
  return out;
}

type Trusted = NonNullable<RunArtefact['trusted_tests']>;

/**
 * TRUSTED_TEST_FAILED when the trusted run did not run to a verdict or a baseline test does not
 * pass there. Built from the baseline tree (`tree: baseline`), the message names what the
 * trusted tree held back from the patch, and, apart, the package manifests and lock files: a
 * patched code that needs a dependency the baseline lacks fails to load there, which a
 * reviewer must see as the likely cause.
 */
function trustedReasons(
  trusted: Trusted,
  otherUids: boolean,
  baseline: RunArtefact['full_suite']['baseline'],
): Reason[] {
  const e = trusted.execution;
  const fail = (message: string) => [reason('TRUSTED_TEST_FAILED', 'run', message)];
  if (trusted.tree !== 'baseline') {
    const files = listForMessage(
      trusted.files.map((f) => `${f.path} (${f.change}${f.renamed_to !== null ? ` to ${f.renamed_to}` : ''})`),
    );
    if (e === null)
      return fail(
        `the baseline's versions of the tests the patch changed were not run against the patched code: ${files}`,
      );
    if ((e.outcome !== 'PASS' && e.outcome !== 'FAIL') || e.tests === null)
      return fail(
        `the baseline's versions of the tests the patch changed could not run against the patched code (${e.outcome}, ${e.kind}): ${files}`,
      );
    if (trusted.failed.length > 0)
      return fail(
        `baseline tests that passed on the baseline do not pass against the patched code once the patch's edits of ${files} are undone (a reviewer decides: changed behaviour or a weakened test): ${listForMessage(trusted.failed.map((f) => `${f.id} (${f.outcome})`))}`,
      );
    return [];
  }
  const held = trusted.held_back ?? [];
  const heldList =
    held.length === 0 ? 'nothing' : listForMessage(held.map((h) => `${h.path} (${h.change}, ${h.kind})`));
  const packages = held.filter((h) => h.kind === 'package' || h.kind === 'installed').map((h) => h.path);
  const packageNote =
    packages.length === 0
      ? ''
      : `; the patch changes package files the trusted run does not take (${listForMessage(packages)}): if the patched code needs a dependency the baseline's installed packages lack, that is why it fails here`;
  const renamed = trusted.renamed_back;
  const renamedNote =
    renamed === undefined
      ? ''
      : `; the patched code's renames undone there: ${listForMessage(renamed.names.map((n) => `${n.patch} → ${n.baseline}`))} in ${listForMessage(renamed.files)}`;
  const where = `the baseline tree (its tests, runner configuration and installed packages) with the patch's other changes applied; held back from the patch: ${heldList}${renamedNote}`;
  if (e === null) return fail(`the baseline's tests were not run against the patched code in ${where}${packageNote}`);
  if (!ranToVerdict(e)) {
    // Said apart when the suite could not run on the baseline either: not the patch's doing alone.
    const neither =
      baseline !== null && !ranToVerdict(baseline)
        ? `; nor did they run to a verdict on the baseline itself (${baseline.outcome}, ${baseline.kind}), so this says little about the patch`
        : '';
    return fail(
      `the baseline's tests could not run against the patched code (${e.outcome}, ${e.kind}) in ${where}${packageNote}${neither}`,
    );
  }
  const out =
    trusted.failed.length > 0
      ? fail(
          `baseline tests that passed on the baseline do not pass against the patched code in ${where} (a reviewer decides: changed behaviour, or tests that passed on the patch only through something held back)${packageNote}: ${listForMessage(trusted.failed.map((f) => `${f.id} (${f.outcome})`))}`,
        )
      : [];
  return [...out, ...perturbedReasons(trusted.perturbed, otherUids)];
}

const ranToVerdict = (e: { readonly outcome: string; readonly tests: unknown }) =>
  (e.outcome === 'PASS' || e.outcome === 'FAIL') && e.tests !== null;

/** libfaketime's own variables: named in a message as the clock shift. */
const CLOCK_VARIABLE = /^(LD_PRELOAD|FAKETIME|NO_FAKE_STAT)/;

/**
 * `clock +150 d, CI=true, TZ=Pacific/Chatham, AG_SEED removed, uids of another range`: the
 * perturbed environment in a message. The pair runs as uids of ag-core's other range whenever
 * the executions run as fresh uids (`run_as: unprivileged`).
 */
export function describePerturbation(p: NonNullable<Trusted['perturbed']>, otherUids: boolean): string {
  const parts = p.clock_shift_days === null ? ['clock not moved'] : [`clock +${p.clock_shift_days} d`];
  for (const v of p.env)
    if (!CLOCK_VARIABLE.test(v.name)) parts.push(v.value === null ? `${v.name} removed` : `${v.name}=${v.value}`);
  if (otherUids) parts.push('uids of another range');
  return parts.join(', ');
}

/**
 * The perturbed pair (the trusted run once more on each side, under a moved clock, another time
 * zone and locale, CI flipped): a HOLD naming the perturbation when a baseline test that passes
 * against the patched code under the gate's environment, and on the baseline under the
 * perturbed one, does not pass against the patched code under the perturbed one — or when the
 * suite ran to a verdict on the baseline under it and not against the patched code. When the
 * perturbed baseline execution itself did not run to a verdict nothing is concluded: the pair
 * was not measured ({@link perturbedNote}), which is no HOLD.
 */
function perturbedReasons(p: Trusted['perturbed'], otherUids: boolean): Reason[] {
  if (p === undefined) return [];
  const under = `under a perturbed environment (${describePerturbation(p, otherUids)}), where they pass on the baseline under the same environment and against the patched code under the gate's`;
  if (p.failed.length > 0)
    return [
      reason(
        'TRUSTED_TEST_FAILED',
        'run',
        `baseline tests do not pass against the patched code ${under}: code that behaves right only under the gate or only now (a reviewer decides): ${listForMessage(p.failed.map((f) => `${f.id} (${f.outcome})`))}`,
      ),
    ];
  if (p.baseline !== null && ranToVerdict(p.baseline) && p.execution !== null && !ranToVerdict(p.execution))
    return [
      reason(
        'TRUSTED_TEST_FAILED',
        'run',
        `the baseline's tests could not run against the patched code under a perturbed environment (${describePerturbation(p, otherUids)}): ${p.execution.outcome}, ${p.execution.kind}, where they ran to a verdict on the baseline under the same environment`,
      ),
    ];
  return [];
}

/**
 * The verdict's notes from the run evidence: the Python interpreter that ran the tests (path and
 * version), said plainly when it is not the one the caller's PATH gives. Each sentence once.
 */
export function interpreterNotes(run: RunArtefact): string[] {
  const fresh = run.run_as === 'unprivileged';
  return [...new Set((run.interpreters ?? []).map((i) => `run: ${interpreterSentence(i, fresh)}`))];
}

/**
 * What the perturbed pair could not measure or perturb (its `note`), for the verdict's details;
 * null when it measured everything, or when there was no pair.
 */
export function perturbedNote(run: RunArtefact): string | null {
  const p = run.trusted_tests?.perturbed;
  return p?.note === undefined
    ? null
    : `run: the perturbed pair (${describePerturbation(p, run.run_as === 'unprivileged')}): ${p.note}`;
}

/**
 * `old → new`, and when the old test, run in its baseline version against the patched code,
 * fails there: the rename also changed what the test expects, which the message says.
 */
function renameLine(r: { readonly from: string; readonly to: string }, failedTrusted: ReadonlySet<string>): string {
  const changed = failedTrusted.has(r.from)
    ? ' (renamed with its expectation changed: the old test fails against the patched code)'
    : '';
  return `${r.from} → ${r.to}${changed}`;
}

type Sighting = { readonly side: 'baseline' | 'patch'; readonly round: number; readonly outcome: string };

/** `baseline 1 passed, 2 failed; patch 1 failed`: the rounds a test was seen in. */
function roundsLine(runs: readonly Sighting[]): string {
  const side = (s: 'baseline' | 'patch') => {
    const mine = runs.filter((r) => r.side === s);
    return mine.length === 0 ? null : `${s} ${mine.map((r) => `${r.round} ${r.outcome}`).join(', ')}`;
  };
  return [side('baseline'), side('patch')].filter((x) => x !== null).join('; ');
}

/**
 * `id (baseline 1 passed, 2 failed; patch 1 failed)`: a flaky test and the rounds it was seen
 * in; flaky through its file, also the test of that file that makes it so:
 * `id (baseline 1 passed; patch 1 failed; its file is flaky: other (baseline 1 passed, 2 failed))`.
 */
function flakyLine(f: NonNullable<RunArtefact['tests_flaky']>[number]): string {
  const file = f.file_runs ?? [];
  const witness = file[0]?.id;
  return witness === undefined
    ? `${f.id} (${roundsLine(f.runs)})`
    : `${f.id} (${roundsLine(f.runs)}; its file is flaky: ${witness} (${roundsLine(file.filter((r) => r.id === witness))}))`;
}

/**
 * Every test outcome of the full-suite command's executions that ran to a verdict with a
 * per-test report (its own, its reruns, and the rounds of a claim of the same command), each
 * execution once: what ag-run's per-test judgement counted.
 */
function fullSuiteSightings(run: RunArtefact): TestSighting[] {
  const fs = run.full_suite;
  const executions: (Execution | null)[] = [fs.baseline, fs.patch, ...(fs.reruns ?? [])];
  for (const c of run.claims)
    if (c.command === fs.command) executions.push(c.baseline, ...c.patch, ...(c.reruns ?? []));
  const seen = new Set<string>();
  const out: TestSighting[] = [];
  for (const e of executions) {
    if (e === null || e.command !== fs.command || e.tests === null) continue;
    if (e.outcome !== 'PASS' && e.outcome !== 'FAIL') continue;
    const key = `${e.side} ${e.round}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const t of e.tests) out.push({ id: t.id, side: e.side, round: e.round, outcome: t.outcome });
  }
  return out;
}

/**
 * True when the artefact itself shows the full suite's failure on the patch is not a clean
 * regression: a test of its command is flaky, or another execution of it disagrees (a baseline
 * rerun that did not pass, a patch run that did not fail — the claim's rounds count when the
 * full suite is that claim's first round).
 */
export function fullSuiteFlaky(run: RunArtefact): boolean {
  const fs = run.full_suite;
  if ((run.tests_flaky ?? []).some((f) => f.command === fs.command)) return true;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const executions = [
    ...(fs.reruns ?? []),
    ...run.claims
      .filter((c) => c.command === fs.command && fs.patch !== null && same(c.patch[0], fs.patch))
      .flatMap((c) => [...c.patch, ...(c.reruns ?? [])]),
  ];
  return executions.some((e) => (e.side === 'baseline' ? e.outcome !== 'PASS' : e.outcome !== 'FAIL'));
}

/**
 * Writes the tests must not make: into the original trees or the evidence directory while they
 * ran, or into a run's copy after its process group was killed and its report read. Tampering
 * suspected (HOLD), not proven: a watched directory can also change by another hand in the
 * same window, and the writes may not have changed any measured number.
 */
export function writeWatchReasons(run: RunArtefact): Reason[] {
  const w = run.write_watch;
  if (w === undefined) return [];
  const out: Reason[] = [];
  if (w.outside_changes_total > 0) {
    const listed = w.outside_changes.map((c) => `${c.role}:${c.path} (${c.change})`);
    out.push(
      reason(
        'TAMPER_SUSPECTED',
        'run',
        `the tests wrote outside their tree copy (${w.outside_changes_total} changes): ${listForMessage(listed)}`,
      ),
    );
  }
  if (w.late_changes_total > 0) {
    const listed = w.late_changes.map((c) => `${c.side} round ${c.round}:${c.path} (${c.change})`);
    out.push(
      reason(
        'TAMPER_SUSPECTED',
        'run',
        `files of a run's copy changed after its processes were killed and its report read (${w.late_changes_total} changes): ${listForMessage(listed)}`,
      ),
    );
  }
  return out;
}

/**
 * Files the patch side's test uids left where every uid may write (`/tmp`, `/var/tmp`,
 * `/dev/shm`) that no baseline run left (compared normalized: uid, digit runs and random
 * temporary parts aside). Suspected, not proven (HOLD): the patch's code wrote outside its copy,
 * where a later run or another process could find it; a suite that leaves the same temporary
 * files on both sides is not named. Each was removed after its run.
 */
export function leftBehindReasons(run: RunArtefact): Reason[] {
  const left = run.left_behind;
  if (left === undefined || left.patch_only_total === 0) return [];
  return [
    reason(
      'TAMPER_SUSPECTED',
      'run',
      `the patch's test runs left files outside their tree copy, where every user may write, that no baseline run left (${left.patch_only_total}, removed after each run): ${listForMessage(left.patch_only)}`,
    ),
  ];
}
