/**
 * Tampering visible in the diff's lines and statuses alone: markers added, assertions
 * removed, test files deleted or renamed out of the runners' patterns, always-equal hooks.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import { alwaysEqualFindings } from './always-equal.js';
import { countAssertions } from './assertions.js';
import type { TamperFinding } from './finding.js';
import { skipMarker } from './markers.js';
import { testLanguage } from './test-files.js';

/** How to tell test files apart, and whether a path exists on the baseline. */
export interface TestFileRules {
  /** A file the project treats as test code (markers and assertions are read in it). */
  readonly isTestFile: (path: string) => boolean;
  /** A file some runner would run as a test (its deletion or rename loses tests). */
  readonly isRunnableTest: (path: string) => boolean;
}

/** Trimmed texts of removed lines, as a multiset, so a moved line is not "added". */
function removedTexts(file: ChangedFile): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of file.deletedText) counts.set(t.trim(), (counts.get(t.trim()) ?? 0) + 1);
  return counts;
}

/**
 * Skip/only/todo/xfail markers on added lines of a test file, except lines that only moved
 * (the same text removed elsewhere in the file). `existed` says whether the file is on the
 * baseline: there a marker rejects (`skip_added`), in a new file it holds.
 */
export function markerFindings(file: ChangedFile, existed: boolean): TamperFinding[] {
  const lang = testLanguage(file.path);
  if (lang === null || file.status === 'deleted') return [];
  const moved = removedTexts(file);
  const findings: TamperFinding[] = [];
  file.addedText.forEach((text, i) => {
    const marker = skipMarker(text, lang);
    if (marker === null) return;
    const left = moved.get(text.trim()) ?? 0;
    if (left > 0) {
      moved.set(text.trim(), left - 1);
      return;
    }
    findings.push({
      kind: existed ? 'skip_added' : 'skip_added_new_file',
      path: file.path,
      line: file.addedLines[i] ?? null,
      detail: `${marker} added${existed ? '' : ' in a new test file'}`,
    });
  });
  return findings;
}

/**
 * Net assertions removed from a test file that stays (modified or renamed; a copy leaves
 * its source whole): assertions on removed lines minus
 * assertions on added lines. The line is the first removed assertion's, on the baseline side.
 */
export function assertionFinding(file: ChangedFile): TamperFinding | null {
  const lang = testLanguage(file.oldPath ?? file.path);
  if (lang === null || file.status === 'deleted' || file.status === 'added' || file.status === 'copied') return null;
  let removed = 0;
  let added = 0;
  let firstLine: number | null = null;
  file.deletedText.forEach((text, i) => {
    const n = countAssertions(text, lang);
    if (n > 0 && firstLine === null) firstLine = file.deletedLines[i] ?? null;
    removed += n;
  });
  for (const text of file.addedText) added += countAssertions(text, lang);
  if (removed <= added) return null;
  return {
    kind: 'assertion_removed',
    path: file.path,
    line: firstLine,
    detail: `net ${removed - added} assertion${removed - added === 1 ? '' : 's'} removed (${removed} removed, ${added} added); line ${firstLine ?? '?'} is on the baseline side`,
  };
}

/** Every finding the diff alone shows for one changed file. */
export function scanChangedFile(file: ChangedFile, rules: TestFileRules, existedOnBaseline: boolean): TamperFinding[] {
  const findings: TamperFinding[] = [];
  const old = file.oldPath ?? file.path;
  if (file.status === 'deleted') {
    if (rules.isRunnableTest(old))
      findings.push({ kind: 'test_file_deleted', path: old, line: null, detail: 'test file deleted' });
    return findings;
  }
  if (file.status === 'renamed' && rules.isRunnableTest(old) && !rules.isRunnableTest(file.path)) {
    findings.push({
      kind: 'test_file_renamed',
      path: file.path,
      line: null,
      detail: `renamed from ${old}, out of the test runners' patterns`,
    });
  }
  findings.push(...alwaysEqualFindings(file));
  const isTest = rules.isTestFile(file.path) || (file.oldPath !== null && rules.isTestFile(file.oldPath));
  if (!isTest) return findings;
  findings.push(...markerFindings(file, existedOnBaseline));
  const a = assertionFinding(file);
  if (a !== null) findings.push(a);
  return findings;
}
