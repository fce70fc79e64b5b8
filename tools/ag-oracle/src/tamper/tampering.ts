/**
 * All test tampering visible in a diff, checked against both trees where bytes matter.
 * @module
 */
import { retiredTests, sourceRenames, type ChangedFile } from '@adversary-gate/core';
import { scanRunnerConfig, type SideReader } from './config-scan.js';
import { scanChangedFile, type TestFileRules } from './diff-scan.js';
import { expectationFindings, type ExpectationRules } from './expectations.js';
import { moduleNamesOf } from './fixture-conftest.js';
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
  /** The code's identifier renames (ag-core's `sourceRenames`), when the caller read them already. */
  readonly renames?: ReadonlySet<string>;
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
  const renames = ctx.renames ?? sourceRenames(files, ctx.isTestFile);
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
  return sortFindings(await retire(files, findings, ctx));
}

/**
 * A deleted test file whose subject the patch deleted too (ag-core's rule) is retired, not
 * lost: its finding becomes `test_file_retired`, naming the deleted files it imports.
 */
async function retire(
  files: readonly ChangedFile[],
  findings: TamperFinding[],
  ctx: TamperContext,
): Promise<TamperFinding[]> {
  if (!findings.some((f) => f.kind === 'test_file_deleted')) return findings;
  const retired = await retiredTests(
    { files },
    {
      isRunnableTest: ctx.isRunnableTest,
      isTestFile: ctx.isTestFile,
      existsOnBaseline: ctx.existsOnBaseline,
      readBaseline: async (p) => {
        const bytes = await ctx.read('baseline', p);
        return Buffer.isBuffer(bytes) ? bytes.toString('utf8') : null;
      },
    },
  );
  const subjects = new Map(retired.map((r) => [r.path, r.subjects]));
  return findings.map((f) => {
    const gone = f.kind === 'test_file_deleted' ? subjects.get(f.path) : undefined;
    if (gone === undefined) return f;
    return {
      kind: 'test_file_retired',
      path: f.path,
      line: null,
      detail: `deleted together with ${gone.join(', ')}, which it imports`,
    };
  });
}
