/**
 * ag-diffcov's one job: bind a diff and its coverage reports into a diffcov artefact.
 * Reads inputs (the diff, the policy, each report) and returns the artefact; writes nothing.
 * @module
 */
import { statSync } from 'node:fs';
import { bindDiff, classifyPath, InputError, loadPolicyClasses, readDiffBytes } from '@adversary-gate/core';
import { DiffcovArtefact, schemaName, SCHEMA_VERSION } from '@adversary-gate/schemas';
import * as v from 'valibot';
import { LcovParser } from './reports/lcov.js';
import type { LcovPrefetch } from './reports/lcov-prefetch.js';
import { prefetchReports } from './reports/prefetch.js';
import { readReport, type FormatChoice, type ReadReport } from './reports/read.js';
import type { ReportData } from './reports/types.js';
import { indexReports } from './measure/report-index.js';
import { measure, pragmasOf, splitByClass, unmeasured, type ClassSplit } from './measure/measure.js';
import { readFromTree, type FileContext } from './measure/file-context.js';
import { makeMatcher } from './paths/match.js';
import { normaliseRoot } from './paths/normalise.js';
import { diffHeaderPaths } from './paths/diff-header-paths.js';

/** Where the coverage figure comes from (DESIGN.md: computed, untrusted, none). */
export type CoverageSource = 'computed' | 'untrusted' | 'none';

/** Everything one run needs; the CLI checks the combinations before calling. */
export interface DiffcovOptions {
  /** The unified diff (`-` for stdin). */
  readonly diff: string;
  /** Coverage reports, merged (computed source only). */
  readonly coverage: readonly string[];
  /** Report format, `auto` by default (recognised per report by content). */
  readonly format: FormatChoice;
  /** The directory the diff's paths are relative to, as the reports name it; null: none. */
  readonly root: string | null;
  readonly source: CoverageSource;
  /** The caller's ratio (untrusted source only). */
  readonly ratio: number | null;
  /** A policy file whose `files` section overrides the file classes; null: defaults. */
  readonly policy: string | null;
  /**
   * The patch tree (the diff's new side), whose changed source files are read for the
   * coverage-ignore pragmas around their changed lines; null: only the added lines are read.
   */
  readonly tree?: string | null;
  readonly tool: { readonly name: string; readonly version: string };
}

const NO_TOTALS = { measured: 0, covered: 0, uncovered: 0 };

/** Refuse to hand out an artefact its own schema rejects (a bug here must never look like evidence). */
function checked(artefact: DiffcovArtefact): DiffcovArtefact {
  const result = v.safeParse(DiffcovArtefact, artefact);
  if (!result.success) {
    const issue = result.issues[0];
    throw new Error(
      `internal error: the artefact does not match its schema at ${(issue.path ?? []).map((p) => String(p.key)).join('.')}: ${issue.message}`,
    );
  }
  return artefact;
}

/**
 * Measure diff coverage and return the artefact (validated against its schema).
 * @throws InputError / LoadError (exit 3) when an input cannot be read; Error (exit 2) on an internal fault
 */
export async function runDiffcov(opts: DiffcovOptions): Promise<DiffcovArtefact> {
  return checked(await measureDiffcov(opts));
}

async function measureDiffcov(opts: DiffcovOptions): Promise<DiffcovArtefact> {
  // Large lcov reports are scanned on a second core while the diff is read and parsed.
  const root = opts.root === null ? null : normaliseRoot(opts.root);
  const early = opts.source === 'computed' ? await prefetchReports(opts.coverage, opts.format, root) : [];
  try {
    const diffBytes = await readDiffBytes(opts.diff);
    const headerPaths = opts.source === 'computed' ? diffHeaderPaths(diffBytes) : new Set<string>();
    for (const p of early) p?.scan(headerPaths);
    return await measureWith(opts, diffBytes, headerPaths, early);
  } finally {
    for (const p of early) p?.cancel();
  }
}

async function measureWith(
  opts: DiffcovOptions,
  diffBytes: Buffer,
  headerPaths: ReadonlySet<string>,
  early: readonly (LcovPrefetch | null)[],
): Promise<DiffcovArtefact> {
  const diff = bindDiff(opts.diff, diffBytes);
  const inputs: DiffcovArtefact['inputs'] = [{ role: 'diff', path: opts.diff, sha256: diff.sha256 }];
  const faults: DiffcovArtefact['faults'] = [];
  // Without a policy, the default classifier ag-core already built (compiling its globs again costs start-up time).
  const classes = opts.policy === null ? { classify: classifyPath, input: null } : await loadPolicyClasses(opts.policy);
  if (classes.input !== null) inputs.push(classes.input);
  const split = splitByClass(diff.model, classes.classify);
  if (diff.model.files.length === 0)
    faults.push({ code: 'EMPTY_DIFF', message: `${opts.diff} names no changed file; nothing was measured` });
  const base = {
    schema: schemaName('diffcov') as 'adversary-gate/diffcov',
    schema_version: SCHEMA_VERSION,
    tool: { name: opts.tool.name, version: opts.tool.version },
    subject: { diff_sha256: diff.sha256 },
    pragmas: pragmasOf(split),
  };
  if (opts.source !== 'computed') {
    return {
      ...base,
      inputs,
      faults,
      diff_coverage_source: opts.source,
      diff_coverage_ratio: opts.source === 'untrusted' ? opts.ratio : null,
      reason: opts.source === 'untrusted' ? null : 'no_coverage_report',
      totals: NO_TOTALS,
      files: [],
      unmatched_files: [],
      excluded_files: [],
      // where coverage is unknown, so that no summary of this evidence looks clean
      unmeasured_files: unmeasured(split),
      formats: [],
    };
  }
  const matcher = makeMatcher(
    split.source.map((f) => f.path),
    opts.root === null ? null : normaliseRoot(opts.root),
  );
  // An early scan kept only records that may match a header path: usable when the headers named every changed file.
  const hinted = split.source.every((f) => headerPaths.has(f.path));
  if (!hinted) for (const p of early) p?.cancel(); // its scan cannot be used: free the second core
  const reports: ReportData[] = [];
  for (const [i, file] of opts.coverage.entries()) {
    const scanned = hinted ? await early[i]?.result : null;
    const { data, sha256: digest }: ReadReport =
      scanned == null
        ? await readReport(file, opts.format, matcher.wants)
        : { data: LcovParser.fromScan(file, matcher.wants, scanned.scan), sha256: scanned.sha256 };
    inputs.push({ role: 'coverage', path: file, sha256: digest });
    if (data.fileCount === 0)
      faults.push({ code: 'EMPTY_REPORT', message: `${file} names no file: it cannot show that anything ran` });
    reports.push(data);
  }
  const index = indexReports(reports, matcher);
  for (const f of index.faults) faults.push({ code: f.code, message: f.message });
  const tree = opts.tree ?? null;
  const contexts = tree === null ? new Map<string, FileContext>() : readTree(tree, split, inputs, faults);
  return {
    ...base,
    inputs,
    faults,
    diff_coverage_source: 'computed',
    ...measure(split, index.byPath, contexts),
    pragma_scope: tree === null ? 'added_lines' : 'patch_tree',
    formats: reports.map((r) => r.format),
  };
}

/**
 * Each changed source file's text from the patch tree (listed in `inputs` with its digest).
 * A file that cannot be read there, or does not hold the diff's added lines, is a fault
 * (`SOURCE_NOT_READ`, which holds the verdict) and is read from its added lines alone.
 * @throws InputError when `tree` is not a directory
 */
function readTree(
  tree: string,
  split: ClassSplit,
  inputs: DiffcovArtefact['inputs'],
  faults: DiffcovArtefact['faults'],
): Map<string, FileContext> {
  if (!(statSync(tree, { throwIfNoEntry: false })?.isDirectory() ?? false))
    throw new InputError(tree, 'is not a directory (--tree: the patch tree)');
  const contexts = new Map<string, FileContext>();
  for (const f of [...split.source].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const read = readFromTree(tree, f);
    if (read.ok) {
      contexts.set(f.path, read.context);
      inputs.push({ role: 'source', path: `${tree.replace(/\/+$/, '')}/${f.path}`, sha256: read.sha256 });
    } else {
      faults.push({
        code: 'SOURCE_NOT_READ',
        message: `${f.path} in the patch tree ${tree} ${read.problem}: coverage-ignore pragmas around its changed lines were looked for on its added lines only`,
      });
    }
  }
  return contexts;
}
