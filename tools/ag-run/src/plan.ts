/**
 * Which executions one ag-run makes: each claim once on the baseline and `rounds` times on the
 * patch, the full suite on both sides (reusing a claim's executions when it is the same
 * command), and — once those are judged — the reruns that a failure calls for, then the
 * confirmations a regression inside a flaky suite calls for.
 * @module
 */
import type { Execution, Runner } from '@adversary-gate/schemas';
import type { ExecutionPlan } from './execute.js';
import { commandHistory, failureKinds, flakyTests } from './per-test.js';

/** A claim's executions, by index into the plan list. */
export interface PlannedClaim {
  readonly command: string;
  readonly base: number;
  readonly rounds: readonly number[];
}

/** The first wave of executions. */
export interface Planned {
  readonly plans: ExecutionPlan[];
  readonly claims: PlannedClaim[];
  readonly fullBase: number | null;
  readonly fullPatch: number | null;
}

/** Plan the first wave. */
export function planExecutions(
  commands: readonly string[],
  fullCommand: string | null,
  rounds: number,
  trees: { baseline: string; patch: string },
  runnerOf: (command: string) => Runner,
): Planned {
  const plans: ExecutionPlan[] = [];
  const add = (command: string, side: 'baseline' | 'patch', round: number) =>
    plans.push({ command, runner: runnerOf(command), side, round, tree: trees[side] }) - 1;
  const claims = commands.map((command) => ({
    command,
    base: add(command, 'baseline', 1),
    rounds: Array.from({ length: rounds }, (_, i) => add(command, 'patch', i + 1)),
  }));
  // The same command on a fresh copy of the same tree is the same measurement.
  const reuse = claims.find((c) => c.command === fullCommand);
  if (fullCommand === null) return { plans, claims, fullBase: null, fullPatch: null };
  if (reuse !== undefined) return { plans, claims, fullBase: reuse.base, fullPatch: reuse.rounds[0]! };
  return { plans, claims, fullBase: add(fullCommand, 'baseline', 1), fullPatch: add(fullCommand, 'patch', 1) };
}

/** A plan with the execution it gave. */
type Judged = { readonly p: ExecutionPlan; readonly e: Execution };

/**
 * The judged executions of each command, the trusted one left out (it runs other test files),
 * and the perturbed pair (it runs under another environment).
 */
function byCommand(plans: readonly ExecutionPlan[], executions: readonly Execution[]): Map<string, Judged[]> {
  const out = new Map<string, Judged[]>();
  plans.forEach((p, i) => {
    if (p.trusted === true || p.perturbation !== undefined) return;
    const list = out.get(p.command) ?? [];
    list.push({ p, e: executions[i]! });
    out.set(p.command, list);
  });
  return out;
}

/** The round after the last of these executions. */
const nextRound = (xs: readonly Judged[]) => Math.max(0, ...xs.map((x) => x.p.round)) + 1;

/**
 * The reruns a failure calls for, given the judged executions so far: for every command that
 * FAILed in some patch execution, one more baseline execution, and one more patch execution
 * when the patch ran it only once. No test is called a regression on a single sighting of a side.
 */
export function planReruns(
  plans: readonly ExecutionPlan[],
  executions: readonly Execution[],
  trees: { baseline: string; patch: string },
): ExecutionPlan[] {
  const out: ExecutionPlan[] = [];
  for (const [command, mine] of byCommand(plans, executions)) {
    const base = mine.filter((x) => x.p.side === 'baseline');
    const patch = mine.filter((x) => x.p.side === 'patch');
    if (!patch.some((x) => x.e.outcome === 'FAIL')) continue;
    const runner = (base[0] ?? patch[0])!.p.runner;
    out.push({ command, runner, side: 'baseline', round: nextRound(base), tree: trees.baseline });
    if (patch.length === 1) out.push({ command, runner, side: 'patch', round: nextRound(patch), tree: trees.patch });
  }
  return out;
}

/** Patch executions that confirm a regression seen in a suite with flaky tests. */
export const CONFIRMATIONS = 2;

/**
 * When a command's executions so far show flaky tests and also a test that reads as a
 * regression (passed on every baseline execution, failed on every patch execution), a few
 * sightings cannot tell the two apart: a suite that fails a different test in each run can
 * fail the same one in every patch run by chance. The command runs {@link CONFIRMATIONS} more
 * times on the patch; a test stays a regression only if it fails in each of them too.
 * Trusted executions run other test files and are not counted.
 */
export function planConfirmations(
  plans: readonly ExecutionPlan[],
  executions: readonly Execution[],
  trees: { baseline: string; patch: string },
): ExecutionPlan[] {
  const out: ExecutionPlan[] = [];
  for (const [command, mine] of byCommand(plans, executions)) {
    const history = commandHistory(
      command,
      mine.map((x) => x.e),
    );
    if (flakyTests(history).length === 0) continue;
    if (![...failureKinds(history).values()].includes('regression')) continue;
    let round = nextRound(mine.filter((x) => x.p.side === 'patch'));
    for (let k = 0; k < CONFIRMATIONS; k++)
      out.push({ command, runner: mine[0]!.p.runner, side: 'patch', round: round++, tree: trees.patch });
  }
  return out;
}
