/**
 * The coverage stage: the coverage command in the coverage tree (the isolated regime, the
 * sandbox when asked), then its report read back without following a link. A report that is
 * not there or not readable is a named fault, with the command's own last error line.
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readInside, rebaseLcov } from '@adversary-gate/core';
import type { Commands } from './commands.js';
import type { PipelineFaults } from './faults.js';
import { runIsolated } from './isolated.js';
import type { Settings } from './settings.js';
import type { Workspace } from './workspace.js';

/** The largest coverage report read back from the coverage tree. */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

/** `: <the log's last line that names an error>` (colours stripped, cut short), or nothing. */
function lastError(log: string): string {
  let text: string;
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    return '';
  }
  const line = text
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /\b(?:error|cannot find|not found)\b/i.test(l))
    .at(-1);
  return line === undefined ? '' : `: ${line.slice(0, 240)}`;
}

/**
 * The coverage command in the coverage tree, then its report read back without following a
 * link (a test may have put one where the report should be): ag-diffcov's arguments, or none.
 */
export async function coverage(
  s: Settings,
  ws: Workspace,
  c: Commands,
  faults: PipelineFaults,
  signal: AbortSignal,
  checkout: string,
): Promise<string[]> {
  const log = path.join(ws.out, 'coverage.log');
  const ran = await runIsolated(ws.coverageTree, c.coverage, {
    signal,
    timeoutSeconds: s.timeout,
    log,
    scratch: ws.work,
    passEnv: s.passEnv,
    // Sandboxed as ag-run's and ag-mutate's runs are: the work folder (the installed packages,
    // the gate's tools and reporter) read-only; the evidence and the user's checkout not there.
    ...(s.sandbox === 'bwrap' ? { sandbox: { readOnly: [ws.work], keepOut: [ws.out, checkout] } } : {}),
  });
  const read = readInside(ws.coverageTree, c.coverageReport, MAX_REPORT_BYTES);
  if (!read.ok) {
    if (read.problem !== 'does not exist')
      faults.add(`the coverage report ${c.coverageReport} ${read.problem}: not read, so coverage was not measured`);
    else if (ran.status !== 0)
      // Why there is no report, in the verdict: the command's own last error line.
      faults.add(
        `the coverage command ${ran.timedOut ? 'timed out' : `exited ${ran.status}`} and wrote no ${c.coverageReport}${lastError(log)}, so coverage was not measured`,
        log,
      );
    return [];
  }
  const kept = path.join(ws.out, 'coverage', path.basename(c.coverageReport));
  mkdirSync(path.dirname(kept), { recursive: true });
  // A workspace's lcov names files relative to the workspace: made relative to the tree's root.
  writeFileSync(kept, c.coverageBase === null ? read.data : rebaseLcov(read.data.toString('utf8'), c.coverageBase));
  return ['--coverage', kept, '--root', ws.coverageTree];
}
