/**
 * `ag-mutate merge`: shards of one run back into one artefact. Refuses shards of
 * different subjects or options, duplicated or missing shards, and overlapping mutants.
 * @module
 */
import { InputError } from '@adversary-gate/core';
import { loadArtefact, sha256, type MutationArtefact } from '@adversary-gate/schemas';
import { buildArtefact } from './artefact.js';

type Fault = MutationArtefact['faults'][number];

type Reason = NonNullable<MutationArtefact['reason']>;

/** Reasons decided before mutants were split: every shard must agree on them. */
const SHARED_REASONS: ReadonlySet<Reason> = new Set([
  'no_source_changed',
  'budget_zero',
  'deletion_only',
  'dead_code_only',
  'no_executable_change',
  'engine_failure',
]);

/** Reasons under which no mutant, and no revert, was judged. */
const NO_RUN: ReadonlySet<string> = new Set(['baseline_red', 'baseline_flaky', 'neutral_edit_failed']);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A loaded shard and the file it came from. */
export interface ShardFile {
  readonly file: string;
  readonly sha256: `sha256:${string}`;
  readonly artefact: MutationArtefact;
}

/** Load shard files with the strict loader. @throws InputError / LoadError */
export async function loadShards(files: readonly string[]): Promise<ShardFile[]> {
  const out: ShardFile[] = [];
  for (const file of files) {
    const loaded = await loadArtefact(file, 'mutation');
    out.push({ file, sha256: sha256(loaded.bytes), artefact: loaded.value });
  }
  return out;
}

/** Merge shards. @throws InputError naming the offending file */
export function mergeShards(shards: readonly ShardFile[]): MutationArtefact {
  if (shards.length === 0) throw new InputError('merge', 'no shard files given');
  const first = shards[0]!;
  const a = first.artefact;
  if (a.shard === null) throw new InputError(first.file, 'is a whole run, not a shard');
  const count = a.shard.count;
  const seen = new Map<number, string>();
  const ids = new Set<string>();
  for (const { file, artefact: s } of shards) {
    if (s.shard === null) throw new InputError(file, 'is a whole run, not a shard');
    if (s.subject.diff_sha256 !== a.subject.diff_sha256)
      throw new InputError(file, `measures another diff (${s.subject.diff_sha256}) than ${first.file}`);
    if (s.subject.patch_tree !== a.subject.patch_tree)
      throw new InputError(
        file,
        `measured another patch tree (${s.subject.patch_tree ?? 'none named'}) than ${first.file}`,
      );
    if (s.shard.count !== count)
      throw new InputError(file, `is shard ${s.shard.index}/${s.shard.count}, but ${first.file} is one of ${count}`);
    if (s.tool.version !== a.tool.version || s.engine !== a.engine || s.budget !== a.budget) {
      throw new InputError(
        file,
        `was made with other options (tool ${s.tool.version}, engine ${s.engine}, budget ${s.budget}) than ${first.file}`,
      );
    }
    if (s.sandbox !== a.sandbox)
      throw new InputError(
        file,
        `ran with --sandbox ${s.sandbox ?? '(unrecorded)'}, ${first.file} with ${a.sandbox ?? '(unrecorded)'}`,
      );
    if (
      s.unmutated_lines !== undefined &&
      a.unmutated_lines !== undefined &&
      !same(s.unmutated_lines, a.unmutated_lines)
    ) {
      throw new InputError(file, `lists other unmutated lines than ${first.file}`);
    }
    if (!same(s.foreign_changed_files, a.foreign_changed_files) || !same(s.deleted_files, a.deleted_files)) {
      throw new InputError(file, `classifies the changed files differently from ${first.file}`);
    }
    const prior = seen.get(s.shard.index);
    if (prior !== undefined)
      throw new InputError(file, `duplicates shard ${s.shard.index}/${count} (also in ${prior})`);
    seen.set(s.shard.index, file);
    for (const m of [...s.mutants, ...(s.reverts ?? []), ...(s.equality_probes ?? [])]) {
      if (ids.has(m.id)) throw new InputError(file, `mutant ${m.id} also appears in another shard`);
      ids.add(m.id);
    }
    const sharedA = a.reason !== null && SHARED_REASONS.has(a.reason);
    const sharedS = s.reason !== null && SHARED_REASONS.has(s.reason);
    if ((sharedA || sharedS) && s.reason !== a.reason)
      throw new InputError(file, `says "${s.reason}" where ${first.file} says "${a.reason}"`);
  }
  const missing: number[] = [];
  for (let k = 1; k <= count; k++) if (!seen.has(k)) missing.push(k);
  if (missing.length > 0)
    throw new InputError(
      'merge',
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${count}`).join(', ')} missing`,
    );

  const all = shards.map((s) => s.artefact);
  // A shard that ran nothing records no selection; those that ran must use one runner. When
  // a shard had to fall back to the whole command, the merge says so (the weakest mode).
  const selections = all.flatMap((s) => (s.test_selection !== undefined ? [s.test_selection] : []));
  const modes = ['whole-command', 'per-test-file', 'per-test'] as const;
  for (const [i, s] of all.entries()) {
    if (s.test_selection !== undefined && s.test_selection.runner !== selections[0]!.runner) {
      throw new InputError(
        shards[i]!.file,
        `ran the tests with ${s.test_selection.runner}, another shard with ${selections[0]!.runner}`,
      );
    }
  }
  const testSelection =
    selections.length === 0
      ? undefined
      : { runner: selections[0]!.runner, mode: modes[Math.min(...selections.map((x) => modes.indexOf(x.mode)))]! };
  let reason: Reason | null = a.reason !== null && SHARED_REASONS.has(a.reason) ? a.reason : null;
  if (reason === null && all.some((s) => s.reason === 'baseline_red')) reason = 'baseline_red';
  if (reason === null && all.some((s) => s.reason === 'baseline_flaky')) reason = 'baseline_flaky';
  if (reason === null && all.some((s) => s.reason === 'neutral_edit_failed')) reason = 'neutral_edit_failed';
  // A canary killed in any shard: the tests read the source text, in every shard.
  if (reason === null && all.some((s) => s.reason === 'canary_killed')) reason = 'canary_killed';
  const canaries = all.some((s) => s.canaries !== undefined) ? all.flatMap((s) => s.canaries ?? []) : undefined;
  // Each shard judged every N-th revert (and recorded every N-th the budget left out).
  const reverts = all.some((s) => s.reverts !== undefined) ? all.flatMap((s) => s.reverts ?? []) : undefined;
  // Each shard judged every N-th equality probe, as it did the reverts.
  const probes = all.some((s) => s.equality_probes !== undefined)
    ? all.flatMap((s) => s.equality_probes ?? [])
    : undefined;

  const faults = new Map<string, Fault>();
  for (const s of all) for (const f of s.faults) faults.set(`${f.code}\0${f.message}`, f);
  const diffInput = a.inputs.find((i) => i.role === 'diff');
  const timing: Record<string, number> = {};
  for (const s of all) for (const [k, v] of Object.entries(s.timing ?? {})) timing[k] = Math.max(timing[k] ?? 0, v);
  return buildArtefact({
    diffSha256: a.subject.diff_sha256 as `sha256:${string}`,
    patchTree: a.subject.patch_tree,
    inputs: [
      ...(diffInput ? [diffInput] : []),
      ...shards.map((s) => ({ role: 'shard', path: s.file, sha256: s.sha256 })),
    ],
    faults: [...faults.values()],
    foreign: a.foreign_changed_files,
    deleted: a.deleted_files,
    deadFiles: a.dead_files ?? [],
    mutants: reason === null || reason === 'canary_killed' ? all.flatMap((s) => s.mutants) : [],
    reason,
    budget: a.budget,
    shard: null,
    engine: a.engine,
    unjudged: all.some((s) => s.suite_strength_unverified),
    timing,
    ...(a.sandbox !== undefined ? { sandbox: a.sandbox } : {}),
    ...(testSelection !== undefined ? { testSelection } : {}),
    ...unmutatedOf(all),
    ...(all.some((s) => s.baseline_runs !== undefined)
      ? { baselineRuns: all.flatMap((s) => s.baseline_runs ?? []) }
      : {}),
    // Each shard drew its own canaries (its seed stays in its file, listed among the inputs).
    ...(canaries !== undefined ? { canaries } : {}),
    // Reverts stand beside any reason but a baseline that never let them count (no mutant ran).
    ...(reverts !== undefined && !NO_RUN.has(reason ?? '') ? { reverts } : {}),
    ...(probes !== undefined && !NO_RUN.has(reason ?? '') ? { equalityProbes: probes } : {}),
  });
}

/** The shards' unmutated lines (they agree, checked above); absent when a measuring shard did not compute them. */
function unmutatedOf(all: readonly MutationArtefact[]): {
  unmutatedLines?: MutationArtefact['unmutated_lines'];
  executableLineCount?: number;
} {
  const measured = all.filter((s) => s.suite_strength !== null);
  if (measured.length === 0 || measured.some((s) => s.unmutated_lines === undefined)) return {};
  return { unmutatedLines: measured[0]!.unmutated_lines, executableLineCount: measured[0]!.executable_line_count ?? 0 };
}
