/**
 * A file named like a test that source imports is source (ag-oracle finds these on the patch
 * tree: `imported_tests`), and so is a file named like data that source requires
 * (`loaded_as_code`). Coverage and mutation classify by name; when they left such a
 * changed file out, its lines were judged by no one: coverage is not measured and strength
 * is unverified for it, never silently clean.
 * @module
 */
import type { DiffModel } from '@adversary-gate/core';
import type { DiffcovArtefact, MutationArtefact, OracleArtefact, Reason } from '@adversary-gate/schemas';
import { reason } from '../reasons.js';

/** The reasons for changed, imported test-named files that coverage or mutation did not judge. */
export function importedTestReasons(
  diff: DiffModel,
  oracle: OracleArtefact,
  diffcov: DiffcovArtefact | undefined,
  mutation: MutationArtefact | undefined,
): Reason[] {
  const added = new Set(diff.files.filter((f) => f.status !== 'deleted' && f.addedLines.length > 0).map((f) => f.path));
  const imported = [
    ...(oracle.imported_tests ?? [])
      .filter((t) => added.has(t.path))
      .map((t) => ({
        path: t.path,
        why: `${t.path} is named like a test but ${t.imported_by} imports it: it is source`,
      })),
    ...(oracle.loaded_as_code ?? [])
      .filter((t) => added.has(t.path))
      .map((t) => ({
        path: t.path,
        why: `${t.path} is named like data but ${t.loaded_by} loads it with require(), which runs it as JavaScript: it is source`,
      })),
  ];
  const out: Reason[] = [];
  for (const t of imported) {
    const why = t.why;
    if (diffcov !== undefined && !diffcov.files.some((f) => f.path === t.path))
      out.push(reason('COVERAGE_NOT_MEASURED', 'diffcov', `${why}, and coverage did not measure it`));
    const judged =
      mutation === undefined ||
      mutation.mutants.some((m) => m.file === t.path) ||
      (mutation.unmutated_lines ?? []).some((u) => u.file === t.path) ||
      (mutation.by_file ?? []).some((f) => f.file === t.path);
    if (!judged) out.push(reason('STRENGTH_UNVERIFIED', 'mutation', `${why}, and mutation did not judge it`));
  }
  return out;
}
