/**
 * `ag-mutate import --stryker`: a mutation-testing-report JSON (StrykerJS and every tool
 * that writes that schema) turned into mutation.json, filtered to the diff's added lines.
 * @module
 */
import path from 'node:path';
import * as v from 'valibot';
import type { BoundDiff, FileClass } from '@adversary-gate/core';
import type { Mutant, MutationArtefact } from '@adversary-gate/schemas';
import { buildArtefact } from './artefact.js';
import { sortChanges } from './changes.js';
import { mutantId } from './engines/site.js';

type Fault = MutationArtefact['faults'][number];

const Position = v.looseObject({
  line: v.pipe(v.number(), v.integer(), v.minValue(1)),
  column: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** The parts of mutation-testing-report-schema (v1–v3) the import reads; other keys pass. */
export const StrykerReport = v.looseObject({
  schemaVersion: v.string(),
  projectRoot: v.optional(v.string()),
  files: v.record(
    v.string(),
    v.looseObject({
      source: v.optional(v.string()),
      mutants: v.array(
        v.looseObject({
          id: v.string(),
          mutatorName: v.string(),
          replacement: v.optional(v.string()),
          location: v.looseObject({ start: Position, end: Position }),
          status: v.picklist([
            'Killed',
            'Survived',
            'NoCoverage',
            'CompileError',
            'RuntimeError',
            'Timeout',
            'Ignored',
            'Pending',
          ]),
          killedBy: v.optional(v.array(v.string())),
        }),
      ),
    }),
  ),
  testFiles: v.optional(
    v.record(v.string(), v.looseObject({ tests: v.array(v.looseObject({ id: v.string(), name: v.string() })) })),
  ),
});
export type StrykerReport = v.InferOutput<typeof StrykerReport>;

const STATUS: Record<string, Mutant['status'] | null> = {
  Killed: 'killed',
  Survived: 'survived',
  NoCoverage: 'no_coverage',
  Timeout: 'timeout',
  CompileError: 'stillborn',
  // The tests ran and errored: no kill is proven (a test can end its own run on a mutant), a survivor.
  RuntimeError: 'survived',
  Ignored: null,
  Pending: null,
};

/** The report's path for a file, as a repository-relative path (null when outside the root). */
export function reportPath(file: string, projectRoot: string | undefined): string | null {
  let p = file.replace(/\\/g, '/');
  const root = projectRoot?.replace(/\\/g, '/').replace(/\/+$/, '');
  if (path.posix.isAbsolute(p)) {
    if (!root || !p.startsWith(`${root}/`)) return null;
    p = p.slice(root.length + 1);
  }
  return path.posix.normalize(p).replace(/^\.\//, '');
}

function sourceSlice(
  source: string | undefined,
  start: { line: number; column: number },
  end: { line: number; column: number },
): string {
  if (source === undefined) return '';
  const lines = source.split('\n');
  if (end.line > lines.length) return '';
  if (start.line === end.line) return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1]!.slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1]!.slice(0, end.column - 1),
  ].join('\n');
}

/** Import a report. `reportInput` is the report's path and digest for `inputs`. */
export function importStryker(
  report: StrykerReport,
  diff: BoundDiff,
  reportInput: { path: string; sha256: `sha256:${string}` },
  classify: (p: string) => FileClass,
): MutationArtefact {
  const changes = sortChanges(diff.model, classify);
  const faults: Fault[] = [];
  const byPath = new Map<string, StrykerReport['files'][string]>();
  for (const [file, entry] of Object.entries(report.files)) {
    const p = reportPath(file, report.projectRoot);
    if (p !== null) byPath.set(p, entry);
  }
  const testNames = new Map<string, string>();
  for (const tf of Object.values(report.testFiles ?? {})) for (const t of tf.tests) testNames.set(t.id, t.name);
  const foreign = new Set(changes.foreign.filter((f) => !byPath.has(f)));
  const mutants: Mutant[] = [];
  for (const file of changes.mutable) {
    const entry = byPath.get(file.path);
    if (entry === undefined) {
      foreign.add(file.path);
      continue;
    }
    const changed = diff.model.files.find((f) => f.path === file.path)!;
    const srcLines = entry.source?.split('\n');
    if (srcLines && srcLines.length >= Math.max(...changed.addedLines)) {
      const bad = changed.addedLines.find(
        (n, i) => (srcLines[n - 1] ?? '').replace(/\r$/, '') !== changed.addedText[i],
      );
      if (bad !== undefined)
        faults.push({
          code: 'REPORT_SOURCE_MISMATCH',
          message: `${file.path}: line ${bad} of the report's source is not the diff's added line`,
        });
    }
    for (const m of entry.mutants) {
      const line = m.location.start.line;
      if (!file.lines.has(line)) continue;
      const status = STATUS[m.status];
      const replacement = m.replacement ?? '';
      if (status === null || status === undefined) {
        faults.push({
          code: m.status === 'Ignored' ? 'MUTANT_IGNORED' : 'MUTANT_PENDING',
          message: `${file.path}:${line}: ${m.mutatorName} mutant ${m.status.toLowerCase()} in the report; it was never judged`,
        });
        continue;
      }
      const column = Math.max(1, m.location.start.column);
      const killer = m.killedBy?.[0];
      mutants.push({
        id: mutantId(
          file.path,
          line,
          column,
          m.mutatorName,
          replacement,
          `${m.location.end.line}:${m.location.end.column}`,
        ),
        file: file.path,
        line,
        column,
        operator: m.mutatorName,
        original: sourceSlice(entry.source, m.location.start, m.location.end),
        replacement,
        status,
        killed_by: status === 'killed' && killer !== undefined ? (testNames.get(killer) ?? killer) : null,
        ...(m.status === 'RuntimeError' ? { ended: 'RuntimeError (StrykerJS: the test run errored)' } : {}),
      });
    }
  }
  const anyChange =
    changes.sourceAdded || changes.foreign.length + changes.deleted.length + changes.linesRemovedOnly.length > 0;
  const reason: MutationArtefact['reason'] = !anyChange
    ? 'no_source_changed'
    : !changes.sourceAdded
      ? 'deletion_only'
      : null;
  const unique = new Map(mutants.map((m) => [m.id, m]));
  if (unique.size !== mutants.length)
    faults.push({ code: 'DUPLICATE_MUTANT', message: 'the report lists the same mutant twice; one copy was kept' });
  return buildArtefact({
    diffSha256: diff.sha256,
    inputs: [
      { role: 'diff', path: diff.file, sha256: diff.sha256 },
      { role: 'stryker-report', path: reportInput.path, sha256: reportInput.sha256 },
    ],
    faults,
    foreign: [...foreign].sort(),
    deleted: changes.deleted,
    mutants: reason === null ? [...unique.values()] : [],
    reason,
    budget: null,
    shard: null,
    engine: 'stryker-import',
  });
}
