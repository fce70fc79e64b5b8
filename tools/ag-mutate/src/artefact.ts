/**
 * Building mutation.json: counts, score and the envelope, the same for a run, a merge
 * and an import, so the invariants ag-decide checks hold by construction.
 * @module
 */
import type { Mutant, MutationArtefact } from '@adversary-gate/schemas';
import { packageVersion, strengthOfMutants } from '@adversary-gate/core';
import { strengthByFile, tally } from './parts.js';

export { strengthOf } from './parts.js';

type Fault = MutationArtefact['faults'][number];

type Reason = NonNullable<MutationArtefact['reason']>;
type Counts = MutationArtefact['counts'];

/** Name and version written in `tool`. */
export const TOOL = { name: 'ag-mutate', version: packageVersion(import.meta.url) } as const;

/** Tally mutants by status (`equivalent` only when some are). */
export function countMutants(mutants: readonly Mutant[]): Counts {
  const counts: Counts = { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 };
  for (const m of mutants) tally(counts, m.status);
  return counts;
}

/** Sort mutants by file, line, column, id: one order for every writer. */
export function sortMutants(mutants: readonly Mutant[]): Mutant[] {
  return [...mutants].sort((a, b) =>
    a.file !== b.file
      ? a.file < b.file
        ? -1
        : 1
      : a.line - b.line || a.column - b.column || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** Sort canaries as mutants are: by file, line, column, id. */
function sortCanaries(canaries: NonNullable<MutationArtefact['canaries']>): NonNullable<MutationArtefact['canaries']> {
  return [...canaries]
    .sort((a, b) =>
      a.file !== b.file
        ? a.file < b.file
          ? -1
          : 1
        : a.line - b.line || a.column - b.column || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .map((c) => ({ ...c }));
}

/** Everything an artefact needs besides the derived counts and score. */
export interface ArtefactParts {
  readonly diffSha256: `sha256:${string}`;
  /** The git tree id of the patch tree the mutants ran on (undefined: not computed, e.g. an import). */
  readonly patchTree?: string | undefined;
  readonly inputs: MutationArtefact['inputs'];
  readonly faults: readonly Fault[];
  readonly foreign: readonly string[];
  readonly deleted: readonly string[];
  /** Source files deleted whole that nothing can load any more (dead-definitions.ts `deadModule`). */
  readonly deadFiles?: readonly string[];
  readonly mutants: readonly Mutant[];
  /** Why no score, decided before counting (null: score the mutants). */
  readonly reason: Reason | null;
  readonly budget: number | null;
  readonly shard: MutationArtefact['shard'];
  readonly engine: MutationArtefact['engine'];
  readonly timing?: Record<string, number>;
  /** True when changed source went unjudged for another cause (an engine could not read it). */
  readonly unjudged?: boolean;
  /** Whether the runs were sandboxed (absent for an import). */
  readonly sandbox?: MutationArtefact['sandbox'];
  /** Which tests the mutants ran (absent for an import). */
  readonly testSelection?: MutationArtefact['test_selection'];
  /** Changed executable lines no mutant measured (absent: not computed). */
  readonly unmutatedLines?: MutationArtefact['unmutated_lines'];
  /** How many changed lines hold code that runs (with `unmutatedLines`). */
  readonly executableLineCount?: number;
  /** ag-mutate's own runs of the unmutated tree. */
  readonly baselineRuns?: MutationArtefact['baseline_runs'];
  readonly secondGreenRun?: MutationArtefact['second_green_run'];
  /** The canaries judged beside the mutants (never counted), and the seed that drew them. */
  readonly canaries?: MutationArtefact['canaries'];
  readonly canarySeed?: number;
  /** The revert mutants (one per hunk with an executable change), never counted. */
  readonly reverts?: MutationArtefact['reverts'];
  /** The equality probes (one per equality hook the patch adds or changes), never counted. */
  readonly equalityProbes?: MutationArtefact['equality_probes'];
  /** The changed functions' behaviour footprint (Python: src/exec/equivalence.ts; JavaScript: src/apart/js-judge.ts). */
  readonly footprint?: MutationArtefact['footprint'];
}

/**
 * Assemble the artefact. With no prior reason the score comes from the mutants; when no
 * mutant counts (none, or all stillborn) the reason is `no_mutants`.
 */
export function buildArtefact(p: ArtefactParts): MutationArtefact {
  const mutants = sortMutants(p.mutants);
  const counts = countMutants(mutants);
  const strength = p.reason === null ? strengthOfMutants(mutants) : null;
  const reason: Reason | null = p.reason ?? (strength === null ? 'no_mutants' : null);
  const artefact: MutationArtefact = {
    schema: 'adversary-gate/mutation',
    schema_version: 1,
    tool: { ...TOOL },
    subject: { diff_sha256: p.diffSha256, ...(p.patchTree === undefined ? {} : { patch_tree: p.patchTree }) },
    inputs: [...p.inputs],
    faults: [...p.faults],
    suite_strength: strength,
    suite_strength_unverified: p.foreign.length > 0 || p.deleted.length > 0 || (p.unjudged ?? false),
    reason,
    counts,
    foreign_changed_files: [...p.foreign],
    deleted_files: [...p.deleted],
    ...(p.deadFiles !== undefined && p.deadFiles.length > 0 ? { dead_files: [...p.deadFiles] } : {}),
    mutants,
    budget: p.budget,
    shard: p.shard,
    engine: p.engine,
  };
  if (p.timing !== undefined) artefact.timing = p.timing;
  if (p.sandbox !== undefined) artefact.sandbox = p.sandbox;
  if (p.testSelection !== undefined) artefact.test_selection = { ...p.testSelection };
  if (strength !== null) artefact.by_file = strengthByFile(mutants);
  if (p.unmutatedLines !== undefined && strength !== null) {
    artefact.unmutated_lines = p.unmutatedLines.map((u) => ({ file: u.file, lines: [...u.lines] }));
    artefact.executable_line_count = p.executableLineCount ?? 0;
  }
  if (p.baselineRuns !== undefined) artefact.baseline_runs = p.baselineRuns.map((r) => ({ ...r }));
  if (p.secondGreenRun !== undefined) artefact.second_green_run = { ...p.secondGreenRun };
  if (p.canaries !== undefined) artefact.canaries = sortCanaries(p.canaries);
  if (p.canarySeed !== undefined) artefact.canary_seed = p.canarySeed;
  if (p.footprint !== undefined) artefact.footprint = p.footprint;
  if (p.reverts !== undefined)
    artefact.reverts = [...p.reverts]
      .sort((a, b) =>
        a.file !== b.file ? (a.file < b.file ? -1 : 1) : a.new_start - b.new_start || a.old_start - b.old_start,
      )
      .map((r) => ({ ...r }));
  if (p.equalityProbes !== undefined)
    artefact.equality_probes = [...p.equalityProbes]
      .sort((a, b) => (a.file !== b.file ? (a.file < b.file ? -1 : 1) : a.line - b.line || a.column - b.column))
      .map((e) => ({ ...e }));
  return artefact;
}
