/**
 * mutation.json from a measurement whose run judged its selection: the baseline's runs as
 * recorded, the verdicts as mutants, canaries and reverts, the faults of what could not be
 * judged, the timing of every phase, and the reason when nothing is scored (a red or flaky
 * baseline, a failed neutral edit, a killed canary).
 * @module
 */
import type { Mutant, MutationArtefact } from '@adversary-gate/schemas';
import { buildArtefact, type ArtefactParts } from './artefact.js';
import { canaryRecord, judgeCanaries, type CanaryPlan } from './canary.js';
import { mutantId, type Site } from './engines/site.js';
import type { BaselineRunResult, ExecResult } from './exec/execute.js';
import type { MutantVerdict } from './exec/mutant-run.js';
import type { RevertPlan } from './revert-plan.js';
import { probeFaults, type ProbePlan } from './equality/probes.js';

type Fault = MutationArtefact['faults'][number];
type Reason = NonNullable<MutationArtefact['reason']>;

const TAIL_CHARS = 4000;

/** A judged site as mutation.json records a mutant. */
function toMutant(site: Site, verdict: MutantVerdict): Mutant {
  return {
    id: mutantId(site.file, site.line, site.column, site.operator, site.replacement, String(site.end - site.start)),
    file: site.file,
    line: site.line,
    column: site.column,
    operator: site.operator,
    original: site.original,
    replacement: site.replacement,
    status: verdict.status,
    killed_by: verdict.killedBy ?? null,
    ...(site.function !== undefined ? { function: site.function } : {}),
    ...(verdict.ended != null ? { ended: verdict.ended } : {}),
    ...(verdict.durationMs !== undefined ? { duration_ms: verdict.durationMs } : {}),
    ...(verdict.cpuMs !== undefined ? { cpu_ms: verdict.cpuMs } : {}),
    ...(verdict.equivalence !== undefined ? { equivalence: { ...verdict.equivalence } } : {}),
    ...(site.breaksType === true ? { breaks_type: true } : {}),
  };
}

/** Why a baseline run was not green, or null. */
function problemOf(r: BaselineRunResult['result']): string | null {
  if (r.spawnError !== null) return `could not run: ${r.spawnError}`;
  if (r.timedOut) return 'timeout';
  if (r.signal !== null) return `signal ${r.signal}`;
  return r.exitCode === 0 ? null : `exit ${r.exitCode}`;
}

/** A baseline run as the artefact records it: how it ended, how long it took, the tail of its output. */
function baselineRun({ kind, result: r }: BaselineRunResult): NonNullable<MutationArtefact['baseline_runs']>[number] {
  return {
    kind,
    exit_code: r.exitCode,
    signal: r.signal,
    timed_out: r.timedOut,
    duration_ms: Math.round(r.durationMs),
    stdout_bytes: r.stdoutBytes,
    stderr_bytes: r.stderrBytes,
    stdout_tail: r.stdoutTail.slice(-TAIL_CHARS),
    stderr_tail: r.stderrTail.slice(-TAIL_CHARS),
    problem: problemOf(r),
  };
}

/** A measurement whose selection was judged, with everything its artefact needs. */
export interface JudgedMeasurement {
  /** The envelope and the run's setting (inputs, file classes, budget, shard, engine, sandbox, patch tree). */
  readonly common: Omit<ArtefactParts, 'faults' | 'mutants' | 'reason' | 'unjudged' | 'timing'>;
  /** The faults so far; the run's are added. */
  readonly faults: Fault[];
  /** Changed source already unjudged (an engine could not read it). */
  readonly unjudged: boolean;
  /** The measurement's own phases (total, tree id, sites), beside the run's. */
  readonly times: Readonly<Record<string, number>>;
  readonly exec: ExecResult;
  /** The mutants of this shard, the canaries and the reverts judged beside them. */
  readonly mine: readonly Site[];
  readonly plan: CanaryPlan;
  /** Every site judged, in the order of `exec.verdicts` (the canary plan's list, then the probes). */
  readonly judged: readonly Site[];
  readonly canarySeed: number;
  readonly reverts: RevertPlan;
  readonly probes: ProbePlan;
  readonly unmutatedLines: NonNullable<ArtefactParts['unmutatedLines']>;
  readonly executableLineCount: number;
  /** Why nothing is scored when this shard has no mutant (only reverts ran), given whether source went unjudged. */
  readonly noneReason: (unjudged: boolean) => Reason;
}

/** The artefact of a measurement whose selection was judged. */
export function measuredArtefact(m: JudgedMeasurement): MutationArtefact {
  const { exec, faults, plan } = m;
  let unjudged = m.unjudged;
  for (const message of exec.faults) faults.push({ code: 'SANDBOX_SETUP', message });
  const timing = {
    ...m.times,
    ...exec.phases,
    baseline_ms: Math.round(exec.baseline.durationMs),
    mutant_timeout_ms: exec.mutantTimeoutMs,
    ...(exec.baseline.cpuMs !== null ? { baseline_cpu_ms: Math.round(exec.baseline.cpuMs) } : {}),
    ...(exec.mutantCpuBudgetMs !== null ? { mutant_cpu_budget_ms: exec.mutantCpuBudgetMs } : {}),
  };
  const rest = {
    ...m.common,
    faults,
    unjudged,
    timing,
    testSelection: exec.selection,
    baselineRuns: exec.baseline.runs.map(baselineRun),
    secondGreenRun: exec.secondGreenRun,
  };
  if (exec.baseline.status !== 'green') {
    return buildArtefact({
      ...rest,
      mutants: [],
      reason: exec.baseline.status === 'red' ? 'baseline_red' : 'baseline_flaky',
    });
  }
  const judged = m.judged;
  // The verdict of each judged site, by site.
  const verdictOf = new Map(judged.map((site, i) => [site, exec.verdicts[i]!]));
  if (exec.neutralEditFailed) return buildArtefact({ ...rest, mutants: [], reason: 'neutral_edit_failed' });
  const unrun = exec.verdicts.filter(
    (v, i) =>
      v.unjudged === true &&
      judged[i]!.canary !== true &&
      judged[i]!.revert === undefined &&
      judged[i]!.probe === undefined,
  ).length;
  if (unrun > 0) {
    const them = unrun > 1 ? 'they are' : 'it is';
    faults.push({
      code: 'MUTANT_UNJUDGED',
      message: `${unrun} mutant${unrun > 1 ? 's' : ''} could not be judged (a run that could not start, or a stillborn check that could not tell); ${them} counted as surviving and the strength is unverified`,
    });
    unjudged = true;
  }
  const mutants = m.mine.map((site) => toMutant(site, verdictOf.get(site)!));
  const canaries = plan.canaries.map((site) => canaryRecord(site, verdictOf.get(site)!));
  const canaryUnrun = plan.canaries.filter((site) => verdictOf.get(site)!.unjudged === true).length;
  if (canaryUnrun > 0) {
    faults.push({
      code: 'CANARY_UNJUDGED',
      message: `${canaryUnrun} canar${canaryUnrun > 1 ? 'ies' : 'y'} could not be judged (a run that could not start): whether the tests read the source text is unknown, and the strength is unverified`,
    });
    unjudged = true;
  }
  const judgedCanaries = judgeCanaries(canaries);
  faults.push(...judgedCanaries.faults);
  if (judgedCanaries.faults.length > 0) unjudged = true;
  // The equality probes: a killed one is ag-decide's finding; one that measured nothing a fault here.
  const probes = m.probes.records(verdictOf);
  // The records list the run probes first, in their order.
  const probeUnrun = m.probes.run.flatMap((site, i) => (verdictOf.get(site)?.unjudged === true ? [probes[i]!.id] : []));
  faults.push(...probeFaults(probes, new Set(probeUnrun)));
  return buildArtefact({
    ...rest,
    unjudged,
    mutants,
    canaries,
    canarySeed: m.canarySeed,
    reverts: m.reverts.records(verdictOf),
    equalityProbes: probes,
    ...(exec.footprint !== undefined ? { footprint: exec.footprint } : {}),
    reason: judgedCanaries.killed ? 'canary_killed' : m.mine.length === 0 ? m.noneReason(unjudged) : null,
    unmutatedLines: m.unmutatedLines,
    executableLineCount: m.executableLineCount,
  });
}
