/**
 * Existing expectations the patch edits: assertions and expected-value literals of a test
 * file the baseline has, lines of a snapshot or of a golden file the policy names, changed
 * or removed in a patch that also changes source. Added lines (a new row in a cases table, a
 * new snapshot) are not edits; a line that only moved or was reformatted is not either, nor
 * one whose only change is an identifier the source renames too (renames.ts).
 * @module
 */
import { onlyRenamed, type ChangedFile } from '@adversary-gate/core';
import { countAssertions } from './assertions.js';
import type { TamperFinding } from './finding.js';
import { carriesExpectation, normalised, quoted, shapeOf } from './literals.js';

import { testLanguage } from './test-files.js';

/** What the expectation scan needs to know about the patch and the project. */
export interface ExpectationRules {
  /** True when the patch changes a source file (the code the tests judge). */
  readonly sourceChanged: boolean;
  /** A test file whose lines are read as test code. */
  readonly isTestFile: (path: string) => boolean;
  /** A test-named file the baseline's source imports: source code, whose literals are no expectations. */
  readonly importedBySource: (path: string) => boolean;
  /** A recorded expectation read line by line: a snapshot or a golden file of the policy. */
  readonly isRecordedExpectation: (path: string) => 'snapshot' | 'golden' | null;
}

/** Multiset of normalised added lines: what a removed line may have moved to. */
function addedForms(file: ChangedFile): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of file.addedText) m.set(normalised(t), (m.get(normalised(t)) ?? 0) + 1);
  return m;
}

function take(m: Map<string, number>, key: string): boolean {
  const n = m.get(key) ?? 0;
  if (n === 0) return false;
  m.set(key, n - 1);
  return true;
}

/** How far (in lines) an added line may be from a removed one to be read as its replacement. */
const PAIR_WINDOW = 20;

/** The unpaired added line of `shape` closest to baseline line `line` (within the window), or -1. */
function nearestOfShape(file: ChangedFile, shape: string, line: number | null, paired: ReadonlySet<number>): number {
  let best = -1;
  let distance = PAIR_WINDOW + 1;
  file.addedText.forEach((a, k) => {
    const d = Math.abs((file.addedLines[k] ?? 0) - (line ?? 0));
    if (!paired.has(k) && d < distance && shapeOf(a) === shape) {
      best = k;
      distance = d;
    }
  });
  return best;
}

/** The normalised line without the closing brackets and separators at its end. */
const open = (s: string) => s.replace(/[)\]},;]+$/, '');

/**
 * Removed lines of an existing test file that carried an expectation and did not survive
 * (as moved or reformatted text, or, for a line that is no assertion, as the start of a
 * longer line: a row appended on the same line). Each is paired, where it can be, with the
 * added line of the same shape (the same code with other values).
 */
function codeExpectations(file: ChangedFile, lang: 'js' | 'py', renames: ReadonlySet<string>): TamperFinding[] {
  const survivors = addedForms(file);
  const addedNorm = file.addedText.map(normalised);
  const paired = new Set<number>();
  const findings: TamperFinding[] = [];
  file.deletedText.forEach((text, i) => {
    if (!carriesExpectation(text, lang)) return;
    const form = normalised(text);
    if (take(survivors, form)) return;
    // A call site of a rename refactor: the same values expected of the renamed code.
    const renamed = file.addedText.findIndex(
      (a, k) => !paired.has(k) && (survivors.get(addedNorm[k]!) ?? 0) > 0 && onlyRenamed(text, a, renames),
    );
    if (renamed >= 0) {
      paired.add(renamed);
      take(survivors, addedNorm[renamed]!);
      return;
    }
    const assertion = countAssertions(text, lang) > 0;
    if (!assertion && open(form) !== '' && addedNorm.some((a) => a.startsWith(open(form)) && a.length > form.length))
      return;
    const line = file.deletedLines[i] ?? null;
    const j = nearestOfShape(file, shapeOf(text), line, paired);
    if (j >= 0) paired.add(j);
    findings.push({
      kind: 'expectation_changed',
      path: file.path,
      line,
      detail:
        j >= 0
          ? `existing expectation edited: ${quoted(text)} became ${quoted(file.addedText[j]!)} (line ${line ?? '?'} on the baseline side, ${file.addedLines[j] ?? '?'} on the patch side)`
          : `existing expectation removed or rewritten: ${quoted(text)} (line ${line ?? '?'} on the baseline side)`,
    });
  });
  return findings;
}

/** Removed lines of a snapshot or golden file that did not survive, one finding per run of consecutive lines. */
function recordedExpectations(file: ChangedFile, what: 'snapshot' | 'golden'): TamperFinding[] {
  const survivors = addedForms(file);
  const lines: number[] = [];
  file.deletedText.forEach((text, i) => {
    if (text.trim() === '' || take(survivors, normalised(text))) return;
    const n = file.deletedLines[i];
    if (n !== undefined) lines.push(n);
  });
  const runs: [number, number][] = [];
  for (const n of lines) {
    const last = runs.at(-1);
    if (last !== undefined && n === last[1] + 1) last[1] = n;
    else runs.push([n, n]);
  }
  return runs.map(([a, b]) => ({
    kind: 'expectation_changed',
    path: file.path,
    line: a,
    detail: `existing ${what} ${a === b ? `line ${a}` : `lines ${a}-${b}`} changed or removed (baseline side)`,
  }));
}

/**
 * Existing expectations one changed file loses or edits, when the patch also changes
 * source; none otherwise, and none for a file the baseline lacks (everything in it is new).
 */
export function expectationFindings(
  file: ChangedFile,
  rules: ExpectationRules,
  renames: ReadonlySet<string> = new Set(),
): TamperFinding[] {
  if (!rules.sourceChanged || file.status === 'added' || file.status === 'copied') return [];
  const old = file.oldPath ?? file.path;
  const recorded = rules.isRecordedExpectation(old) ?? rules.isRecordedExpectation(file.path);
  if (recorded !== null) {
    if (file.status === 'deleted')
      return [{ kind: 'expectation_changed', path: old, line: null, detail: `existing ${recorded} file deleted` }];
    if (file.binary)
      return [
        {
          kind: 'expectation_changed',
          path: file.path,
          line: null,
          detail: `existing ${recorded} file changed (binary)`,
        },
      ];
    return recordedExpectations(file, recorded);
  }
  if (file.status === 'deleted') return [];
  const lang = testLanguage(old);
  if (
    file.binary ||
    lang === null ||
    !(rules.isTestFile(file.path) || rules.isTestFile(old)) ||
    rules.importedBySource(old)
  )
    return [];
  return codeExpectations(file, lang, renames);
}
