/**
 * Which reverts a run judges: every file an engine read gets one revert per hunk with an
 * executable change (reverts.ts), and one of them all at once where it has two or more
 * (whole-file-revert.ts; the first 16 such files, apart from the budget below). `--max N` bounds them apart from the mutants, to the first
 * max(N, 16) in file and line order (a small mutant budget never starves them, a huge diff stays
 * bounded); `--shard K/N` takes every N-th. A revert the budget left out is recorded `not_run`,
 * never dropped.
 * @module
 */
import type { DiffModel } from '@adversary-gate/core';
import type { Revert } from '@adversary-gate/schemas';
import { languageOf } from './changes.js';
import { jsAnalysis } from './engines/js.js';
import { jsCode } from './engines/js-code.js';
import { pythonAnalysis } from './engines/python.js';
import type { CanarySpot, Site } from './engines/site.js';
import type { MutantVerdict } from './exec/mutant-run.js';
import { deletesDeadCode, namedInTree } from './dead-definitions.js';
import { followsMove, movedNames } from './moved-imports.js';
import { hunksOf, type Hunk, type RevertCheck } from './hunks.js';
import { revertRecord, revertSites } from './reverts.js';
import { shardSites, type Shard } from './select.js';
import { wholeFileRevert } from './whole-file-revert.js';

/** The fewest reverts a positive `--max` lets run: a small mutant budget never starves them. */
export const REVERT_BUDGET_FLOOR = 16;

/** What planning the reverts needs. */
export interface RevertInputs {
  /** The files an engine read (tree-relative), their patch-side texts in `texts`. */
  readonly files: readonly string[];
  readonly texts: ReadonlyMap<string, string>;
  /** The tree the files are in (what code names a deleted definition). */
  readonly tree: string;
  /** Whether code of the tree names a word (default: `namedInTree(tree)`, read once by the caller that has one). */
  readonly named?: (name: string) => boolean;
  readonly model: DiffModel;
  readonly python: string;
  readonly spots: readonly CanarySpot[];
  readonly max: number | null;
  readonly shard: Shard | null;
}

/** The reverts this run judges, and how to record them (with those the budget left out) once judged. */
export interface RevertPlan {
  readonly run: readonly Site[];
  /** The functions around the hunks (where a canary can go), beyond those the mutants' engines listed. */
  readonly spots: readonly CanarySpot[];
  /** Every hunk of the files planned needs no revert (it only deletes dead code or follows a moved file), and there was one. */
  readonly noneNeeded: boolean;
  records(verdicts: ReadonlyMap<Site, MutantVerdict>): Revert[];
}

function jsCheck(file: string, text: string): (texts: readonly string[]) => Promise<RevertCheck[]> {
  const own = jsCode(file, text);
  return (texts) =>
    Promise.resolve(
      texts.map((t) => {
        const code = jsCode(file, t);
        return { parses: code !== null, same: code !== null && code === own };
      }),
    );
}

function pythonCheck(python: string, file: string, text: string): (texts: readonly string[]) => Promise<RevertCheck[]> {
  return async (texts) => {
    try {
      const answer = (await pythonAnalysis(python, [{ path: file, text, lines: new Set(), reverts: texts }])).get(file);
      if (answer !== undefined && !(answer instanceof Error)) return answer.reverts;
    } catch {
      // no answer: judged as not parsing below, so the revert is recorded stillborn (not measured)
    }
    return texts.map(() => ({ parses: false, same: false }));
  };
}

/**
 * The functions that hold each hunk's first line, or the line before a deletion (the engines'
 * canary spots name them), so that a revert in a function no added line touches is named too.
 */
async function functionsAround(
  python: string,
  file: string,
  language: 'js' | 'python',
  text: string,
  hunks: readonly Hunk[],
): Promise<CanarySpot[]> {
  const lines = new Set(hunks.map((h) => Math.max(1, h.newLines > 0 ? h.newStart : h.newStart - 1)));
  try {
    if (language === 'js') return jsAnalysis(file, text, lines).canarySpots;
    const answer = (await pythonAnalysis(python, [{ path: file, text, lines }])).get(file);
    return answer === undefined || answer instanceof Error ? [] : answer.canarySpots;
  } catch {
    // the name is for the reader only: without it the revert says no function
    return [];
  }
}

/** Plan the reverts of `inputs.files`. */
export async function judgedReverts(inputs: RevertInputs): Promise<RevertPlan> {
  const all: Site[] = [];
  const wholes: Site[] = [];
  const extraSpots: CanarySpot[] = [];
  const named = inputs.named ?? namedInTree(inputs.tree);
  let hunkCount = 0;
  let unneeded = 0;
  for (const file of [...inputs.files].sort()) {
    // A new file has no baseline code to put back: its mutants judge it.
    const changed = inputs.model.files.find((f) => f.path === file && f.status !== 'deleted' && f.status !== 'added');
    const text = inputs.texts.get(file);
    const language = languageOf(file);
    if (changed === undefined || text === undefined || language === null) continue;
    const hunks = hunksOf(changed);
    if (hunks.length === 0) continue;
    const check = language === 'js' ? jsCheck(file, text) : pythonCheck(inputs.python, file, text);
    const around = await functionsAround(inputs.python, file, language, text, hunks);
    extraSpots.push(...around);
    const spots = [...inputs.spots, ...around];
    const moved = movedNames(inputs.model, file);
    hunkCount += hunks.length;
    const sites = await revertSites(file, text, hunks, check, spots, (h) => {
      const none = deletesDeadCode(text, h, language, named) || followsMove(text, h, moved, language);
      if (none) unneeded++;
      return none;
    });
    all.push(...sites);
    const whole = await wholeFileRevert(file, text, sites, check);
    if (whole !== null) wholes.push(whole);
  }
  const limit = inputs.max === null ? all.length : Math.max(inputs.max, REVERT_BUDGET_FLOOR);
  // Whole-file reverts are bounded apart: the first 16 files' run, whatever the hunks' budget.
  const budgeted = [...all.slice(0, limit), ...wholes.slice(0, REVERT_BUDGET_FLOOR)];
  const left = [...all.slice(limit), ...wholes.slice(REVERT_BUDGET_FLOOR)];
  const run = shardSites(budgeted, inputs.shard);
  const notRun = shardSites(left, inputs.shard);
  return {
    run,
    spots: extraSpots,
    noneNeeded: hunkCount > 0 && unneeded === hunkCount,
    records: (verdicts) => [
      ...run.map((site) => revertRecord(site, verdicts.get(site))),
      ...notRun.map((site) => revertRecord(site, undefined)),
    ],
  };
}

/**
 * `plan` whose records keep `added_guard` only where every mutant site on the hunk's lines is
 * among `selected` (the budget left none out): ag-decide's reading of a guard needs them all.
 */
export function guardsFullyJudged(plan: RevertPlan, all: readonly Site[], selected: readonly Site[]): RevertPlan {
  const chosen = new Set(selected);
  const complete = (r: Revert) =>
    all.every((s) => s.file !== r.file || s.line < r.new_start || s.line >= r.new_start + r.new_lines || chosen.has(s));
  return {
    ...plan,
    records: (verdicts) =>
      plan.records(verdicts).map((r) => {
        if (r.added_guard !== true || complete(r)) return r;
        const { added_guard: _dropped, ...rest } = r;
        return rest;
      }),
  };
}
