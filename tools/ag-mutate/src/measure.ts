/**
 * The measurement: from a diff and the patch tree to mutation.json. The changed files' texts
 * (changed-texts.ts), their sites (collect-sites.ts) and reverts, the selection within the
 * budget and the shard, the run that judges it (judge-selected.ts), the artefact
 * (measured-artefact.ts); and every reason to stop short of a run on the way.
 * @module
 */
import { gitTreeId, type BoundDiff, type FileClass } from '@adversary-gate/core';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { buildArtefact } from './artefact.js';
import { readChanged } from './changed-texts.js';
import { languageOf, sortChanges } from './changes.js';
import { collectSites } from './collect-sites.js';
import type { ExecOptions } from './exec/types.js';
import { judgeSelected } from './judge-selected.js';
import { measuredArtefact } from './measured-artefact.js';
import { unmutatedLines } from './parts.js';
import { deadModule, namedInTree } from './dead-definitions.js';
import type { PriorRun } from './prior-run.js';
import { guardsFullyJudged, judgedReverts } from './revert-plan.js';
import { planProbes } from './equality/probes.js';
import { effectiveBudget, selectSites, shardSites, withGuardSites, type MutantOrder, type Shard } from './select.js';

type Fault = MutationArtefact['faults'][number];
type Reason = NonNullable<MutationArtefact['reason']>;

/** Everything the measurement needs; defaults are applied by the CLI. */
export interface MutateOptions {
  readonly diff: BoundDiff;
  readonly tree: string;
  readonly command: string;
  /** What each mutant runs instead of `command` (same tests, e.g. with the runner's bail flag). */
  readonly mutantCommand?: string;
  /** Mutant budget; null = every site. */
  readonly max: number | null;
  /** `max` rises to one mutant per line with a site when those lines number at most this (`--line-budget`; default 0). */
  readonly lineBudget?: number;
  readonly jobs: number;
  readonly timeoutFactor: number;
  readonly baselineTimeoutMs: number;
  readonly shard: Shard | null;
  readonly python: string;
  readonly passEnv: readonly string[];
  readonly classify: (path: string) => FileClass;
  /** The policy file that shaped `classify`, listed among the inputs. */
  readonly policyInput?: { readonly role: 'policy'; readonly path: string; readonly sha256: `sha256:${string}` } | null;
  /** ag-run's run.json (`--run`): its full-suite execution on the patch may stand for the second baseline run. */
  readonly priorRun?: PriorRun;
  readonly onProgress?: ExecOptions['onProgress'];
  /** Run every command inside bubblewrap (the caller has probed that it works). */
  readonly sandbox?: 'none' | 'bwrap';
  /** False: every mutant runs the whole command, whatever the runner (default true). */
  readonly selectTests?: boolean;
  /** auto: vitest mutants on warm hosts where the config allows it; off: every mutant fresh (default auto). */
  readonly warmHost?: 'auto' | 'off';
  /** The order the mutants are judged in (default forward). */
  readonly order?: MutantOrder;
  /** False: no differential check of the survivors (default true). */
  readonly checkEquivalence?: boolean;
  /** The seed that draws the canaries (`--canary-seed`; default: fresh random bits, recorded in mutation.json). */
  readonly canarySeed?: number;
}

/**
 * The patch tree's git id (the link to the installed packages a pipeline adds left out), hashed
 * beside the rest: the tests run in copies, never in the tree itself. A failure is a fault
 * (first among them) and leaves the id undefined; `ms()` is the time it took, once settled.
 */
function hashPatchTree(tree: string, faults: Fault[]): { id: Promise<string | undefined>; ms: () => number } {
  const started = performance.now();
  let ms = 0;
  const id = gitTreeId(tree, ['node_modules']).then(
    (id): string | undefined => {
      ms = Math.round(performance.now() - started);
      return id;
    },
    (e: unknown) => {
      ms = Math.round(performance.now() - started);
      faults.unshift({
        code: 'TREE_ID',
        message: `the patch tree's git id could not be computed: ${e instanceof Error ? e.message : String(e)}`,
      });
      return undefined;
    },
  );
  return { id, ms: () => ms };
}

/** Measure suite strength on the diff's added lines. @throws InputError when the tree does not match the diff */
export async function measureMutation(opts: MutateOptions): Promise<MutationArtefact> {
  const started = performance.now();
  const changes = sortChanges(opts.diff.model, opts.classify);
  // Source files deleted whole that nothing can load any more: nothing a test could pin.
  const named = namedInTree(opts.tree);
  const deadFiles = changes.deleted.filter((f) => deadModule(f, named));
  const deleted = changes.deleted.filter((f) => !deadFiles.includes(f));
  const faults: Fault[] = [];
  const patchTree = hashPatchTree(opts.tree, faults);
  const unbound = {
    diffSha256: opts.diff.sha256,
    inputs: [
      { role: 'diff', path: opts.diff.file, sha256: opts.diff.sha256 },
      ...(opts.policyInput ? [opts.policyInput] : []),
      ...(opts.priorRun ? [{ role: 'run', path: opts.priorRun.file, sha256: opts.priorRun.sha256 }] : []),
    ],
    foreign: changes.foreign,
    deleted,
    deadFiles,
    budget: opts.max,
    shard: opts.shard,
    engine: 'ag-mutate' as const,
    sandbox: opts.sandbox ?? 'none',
  };
  const bound = async () => ({ ...unbound, patchTree: await patchTree.id });
  const nothing = async (reason: Reason, unjudged = false) =>
    buildArtefact({
      ...(await bound()),
      faults,
      mutants: [],
      reason,
      unjudged,
      timing: { total_ms: Math.round(performance.now() - started) },
    });
  const anyChange =
    changes.sourceAdded || changes.foreign.length + changes.deleted.length + changes.linesRemovedOnly.length > 0;
  if (!anyChange) return nothing('no_source_changed');
  const texts = new Map(changes.mutable.map((f) => [f.path, readChanged(opts.tree, f, opts.diff)]));
  const removedOnly = changes.linesRemovedOnly.filter((p) => languageOf(p) !== null);
  for (const p of removedOnly)
    texts.set(p, readChanged(opts.tree, { path: p, language: languageOf(p)!, lines: new Set() }, opts.diff));
  if (opts.max === 0) return nothing('budget_zero');
  // Only removed lines: no mutant, but their reverts run where an engine reads the file.
  if (!changes.sourceAdded && removedOnly.length === 0)
    return nothing(
      deadFiles.length > 0 && deleted.length + changes.foreign.length + changes.linesRemovedOnly.length === 0
        ? 'dead_code_only'
        : 'deletion_only',
    );
  const sitesStarted = performance.now();
  const { sites, canarySpots, executable, unjudged } = await collectSites(changes.mutable, texts, opts.python, faults);
  // Reverts in every file an engine read (its sites, or only removed lines), within their own budget.
  const unread = new Set(faults.filter((f) => f.code === 'ENGINE_PARSE_ERROR').map((f) => f.message.split(':')[0]));
  const reverts = await judgedReverts({
    files: [...changes.mutable.map((f) => f.path), ...removedOnly].filter((p) => !unread.has(p)),
    texts,
    tree: opts.tree,
    named,
    model: opts.diff.model,
    python: opts.python,
    spots: canarySpots,
    max: opts.max,
    shard: opts.shard,
  });
  // The equality hooks the patch adds or changes, each probed once, beside the mutants.
  const probes = await planProbes(changes.mutable, texts, opts.diff, opts.python, opts.shard, faults);
  const sitesMs = Math.round(performance.now() - sitesStarted);
  const noReverts = reverts.run.length === 0;
  // Only dead code deleted (or imports following a moved file), in files an engine read: nothing to pin.
  const deadOnly = reverts.noneNeeded && deleted.length === 0 && changes.foreign.length === 0;
  if (sites.length === 0 && executable.size === 0 && noReverts)
    return nothing(
      !changes.sourceAdded
        ? deadOnly
          ? 'dead_code_only'
          : 'deletion_only'
        : unjudged
          ? 'engine_failure'
          : 'no_mutants',
      unjudged,
    );
  const selected = withGuardSites(
    selectSites(sites, effectiveBudget(sites, opts.max, opts.lineBudget ?? 0)),
    sites,
    reverts.run,
  );
  const judgedPlan = guardsFullyJudged(reverts, sites, selected);
  // Reached: a line on which a selected mutant that compiles starts (the same in every shard).
  const unmutated = unmutatedLines(
    executable,
    new Set(selected.filter((x) => x.parses).map((x) => `${x.file}\0${x.line}`)),
  );
  const executableLines = [...executable.values()].reduce((n, l) => n + l.length, 0);
  const noneReason = (unjudgedNow: boolean): Reason =>
    !changes.sourceAdded
      ? 'deletion_only'
      : sites.length === 0 && executableLines === 0 && !unjudgedNow
        ? 'no_executable_change'
        : sites.length === 0 && unjudgedNow
          ? 'engine_failure'
          : 'no_mutants';
  const mine = shardSites(selected, opts.shard);
  if (mine.length === 0 && noReverts) return nothing(noneReason(unjudged), unjudged);
  const { exec, plan, judged, canarySeed } = await judgeSelected(opts, {
    changes,
    texts,
    removedOnly,
    mine,
    reverts: judgedPlan,
    probes,
    canarySpots,
    patchTreeId: patchTree.id,
  });
  const common = await bound();
  return measuredArtefact({
    common,
    faults,
    unjudged,
    times: { total_ms: Math.round(performance.now() - started), tree_id_ms: patchTree.ms(), sites_ms: sitesMs },
    exec,
    mine,
    plan,
    judged,
    canarySeed,
    reverts: judgedPlan,
    probes,
    unmutatedLines: unmutated,
    executableLineCount: executableLines,
    noneReason,
  });
}
