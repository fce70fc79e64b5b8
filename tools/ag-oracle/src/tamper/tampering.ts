/**
 * All test tampering visible in a diff, checked against both trees where bytes matter.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import { scanRunnerConfig, type SideReader } from './config-scan.js';
import { scanChangedFile, type TestFileRules } from './diff-scan.js';
import { expectationFindings, type ExpectationRules } from './expectations.js';
import { moduleNamesOf } from './fixture-conftest.js';
import { sourceRenames } from './renames.js';
import { sortFindings, type TamperFinding } from './finding.js';
import { placeholderFindings } from './placeholders.js';
import { assertionRedefinedFindings } from './assert-redefined.js';
import { runnerHookFindings } from './runner-hooks.js';
import { testLanguage } from './test-files.js';

/** What the scan needs from the outside world. */
export interface TamperContext extends TestFileRules, ExpectationRules {
  /** True when a repository path exists on the baseline tree. */
  readonly existsOnBaseline: (path: string) => Promise<boolean>;
  readonly read: SideReader;
}

/**
 * Every tampering finding for the changed files, sorted. A test file counts as existing on
 * the baseline when the diff modifies or renames it, or the baseline tree holds its path
 * (a copy is a new file). Placeholder tests are read from the patch tree's text of each
 * changed test file, so a body emptied by deleted lines is seen too.
 */
export async function findTampering(files: readonly ChangedFile[], ctx: TamperContext): Promise<TamperFinding[]> {
  const findings: TamperFinding[] = [];
  // The test-side modules the patch adds or changes: a new conftest that imports one runs the
  // patch's test code on import (the source under test is imported by every test anyway).
  const changedModules = new Set(
    files.filter((f) => f.status !== 'deleted' && ctx.isTestFile(f.path)).flatMap((f) => moduleNamesOf(f.path)),
  );
  const renames = sourceRenames(files, ctx.isTestFile);
  for (const file of files) {
    const existed = file.status === 'modified' || file.status === 'renamed' || (await ctx.existsOnBaseline(file.path));
    findings.push(...scanChangedFile(file, ctx, existed));
    findings.push(...(await scanRunnerConfig(file, ctx.read, changedModules)));
    findings.push(...expectationFindings(file, ctx, renames));
    findings.push(...runnerHookFindings(file, ctx.isTestFile(file.path) || /(?:^|\/)conftest\.py$/i.test(file.path)));
    if (file.status !== 'deleted' && !file.binary && testLanguage(file.path) !== null) {
      const bytes = await ctx.read('patch', file.path);
      const text = Buffer.isBuffer(bytes) ? bytes.toString('utf8') : null;
      if (ctx.isTestFile(file.path)) findings.push(...placeholderFindings(file, text));
      findings.push(...assertionRedefinedFindings(file, text, ctx.isTestFile(file.path)));
    }
  }
  return sortFindings(findings);
}
