/**
 * All test tampering visible in a diff, checked against both trees where bytes matter.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import { scanRunnerConfig, type SideReader } from './config-scan.js';
import { scanChangedFile, type TestFileRules } from './diff-scan.js';
import { sortFindings, type TamperFinding } from './finding.js';

/** What the scan needs from the outside world. */
export interface TamperContext extends TestFileRules {
  /** True when a repository path exists on the baseline tree. */
  readonly existsOnBaseline: (path: string) => Promise<boolean>;
  readonly read: SideReader;
}

/**
 * Every tampering finding for the changed files, sorted. A test file counts as existing on
 * the baseline when the diff modifies or renames it, or the baseline tree holds its path
 * (a copy is a new file).
 */
export async function findTampering(files: readonly ChangedFile[], ctx: TamperContext): Promise<TamperFinding[]> {
  const findings: TamperFinding[] = [];
  for (const file of files) {
    const existed = file.status === 'modified' || file.status === 'renamed' || (await ctx.existsOnBaseline(file.path));
    findings.push(...scanChangedFile(file, ctx, existed));
    findings.push(...(await scanRunnerConfig(file, ctx.read)));
  }
  return sortFindings(findings);
}
