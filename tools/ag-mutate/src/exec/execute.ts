/**
 * Runs the test command: a baseline on the unmutated tree (twice, to see red or flaky),
 * then each mutant in one of `jobs` isolated copies, restored after every run.
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childEnv, runProcess, type ProcessResult } from '@adversary-gate/core';
import { applySite, type Site } from '../engines/site.js';
import { classifyRun, type RunStatus } from './outcome.js';
import { TreeCopy } from './tree-copy.js';
import { neverRan, readV8Coverage, type CoverageMap } from './v8-coverage.js';

/** A mutant's status: what its run meant, or no_coverage when the baseline never ran its code. */
export type ExecStatus = RunStatus | 'no_coverage';

/** How to run the tests. */
export interface ExecOptions {
  readonly tree: string;
  readonly command: string;
  /** The command each mutant runs (e.g. the test command with its runner's bail flag); default `command`. */
  readonly mutantCommand?: string;
  readonly jobs: number;
  readonly timeoutFactor: number;
  /** Wall-clock limit of one baseline run (ms). */
  readonly baselineTimeoutMs: number;
  readonly passEnv: readonly string[];
  /** Files (tree-relative) whose V8 coverage the baseline records, to find uncovered mutants. */
  readonly coverFiles?: ReadonlySet<string>;
  /** Called after each mutant with (done, total, tallies). */
  readonly onProgress?: (done: number, total: number, tally: Readonly<Record<RunStatus, number>>) => void;
}

/** The baseline's verdict and the timing it gives the mutants. */
export interface Baseline {
  readonly status: 'green' | 'red' | 'flaky';
  /** The slower of the two runs (ms). */
  readonly durationMs: number;
  readonly results: readonly ProcessResult[];
}

/** What execution produced. */
export interface ExecResult {
  readonly baseline: Baseline;
  /** Status per site, same order as the input; empty when the baseline was not green. */
  readonly statuses: readonly ExecStatus[];
  readonly mutantTimeoutMs: number;
}

/** Extra slack added to every mutant timeout (process start jitter). */
export const TIMEOUT_SLACK_MS = 2000;

/** The per-mutant limit: the measured baseline time × factor, plus a fixed slack. */
export function mutantTimeout(baselineMs: number, factor: number): number {
  return Math.ceil(baselineMs * factor) + TIMEOUT_SLACK_MS;
}

class Workspace {
  readonly dir: string;
  readonly copies: TreeCopy[] = [];
  readonly homes: string[] = [];

  constructor(tree: string, count: number) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-'));
    for (let i = 0; i < count; i++) {
      this.copies.push(TreeCopy.create(tree, path.join(this.dir, `tree${i}`)));
      const home = path.join(this.dir, `home${i}`);
      mkdirSync(home);
      this.homes.push(home);
    }
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function run(ws: Workspace, i: number, opts: ExecOptions, command: string, timeoutMs: number, extra: Record<string, string> = {}): Promise<ProcessResult> {
  const env = childEnv({ home: ws.homes[i]!, passEnv: opts.passEnv, extra: { PYTHONDONTWRITEBYTECODE: '1', ...extra } });
  return runProcess({ argv: ['/bin/sh', '-c', command], cwd: ws.copies[i]!.root, env, timeoutMs });
}

async function baseline(ws: Workspace, opts: ExecOptions): Promise<Baseline & { coverage: CoverageMap }> {
  const coverDir = path.join(ws.dir, 'v8-coverage');
  const runOnce = async (i: number, extra: Record<string, string> = {}) => {
    const r = await run(ws, i, opts, opts.command, opts.baselineTimeoutMs, extra);
    ws.copies[i]!.restore();
    return r;
  };
  const cover: Record<string, string> = opts.coverFiles !== undefined && opts.coverFiles.size > 0 ? { NODE_V8_COVERAGE: coverDir } : {};
  const results =
    ws.copies.length >= 2 ? await Promise.all([runOnce(0, cover), runOnce(1)]) : [await runOnce(0, cover), await runOnce(0)];
  const green = results.map((r) => r.exitCode === 0 && !r.timedOut && r.signal === null && !r.outputCapHit);
  const status = green.every(Boolean) ? 'green' : green.some(Boolean) ? 'flaky' : 'red';
  const coverage = opts.coverFiles ? readV8Coverage(coverDir, ws.copies[0]!.root, opts.coverFiles) : new Map();
  return { status, durationMs: Math.max(...results.map((r) => r.durationMs)), results, coverage };
}

/**
 * Run the baseline, then every runnable site (`parses`); sites that do not parse are
 * stillborn without a run. Copies live in a fresh temporary folder, removed at the end.
 */
export async function execute(sites: readonly Site[], texts: ReadonlyMap<string, string>, opts: ExecOptions): Promise<ExecResult> {
  const runnable = sites.filter((s) => s.parses).length;
  const ws = new Workspace(opts.tree, Math.max(1, Math.min(opts.jobs, Math.max(2, runnable))));
  try {
    const base = await baseline(ws, opts);
    const timeoutMs = mutantTimeout(base.durationMs, opts.timeoutFactor);
    if (base.status !== 'green') return { baseline: base, statuses: [], mutantTimeoutMs: timeoutMs };
    const statuses: ExecStatus[] = new Array<ExecStatus>(sites.length);
    const tally: Record<RunStatus, number> = { killed: 0, survived: 0, timeout: 0, stillborn: 0 };
    let next = 0;
    let done = 0;
    const worker = async (w: number) => {
      const copy = ws.copies[w]!;
      for (let i = next++; i < sites.length; i = next++) {
        const site = sites[i]!;
        let status: ExecStatus = 'stillborn';
        if (site.parses && neverRan(base.coverage, site.file, site.start) === true) {
          status = 'no_coverage';
        } else if (site.parses) {
          copy.write(site.file, applySite(texts.get(site.file)!, site));
          const command = opts.mutantCommand ?? opts.command;
          status = classifyRun(await run(ws, w, opts, command, timeoutMs), command, site.file);
          if (status === 'timeout') {
            // A timeout counts as a kill: confirm it with twice the time, so a slow moment
            // of a shared machine is not taken for an infinite loop.
            copy.restore();
            status = classifyRun(await run(ws, w, opts, command, 2 * timeoutMs), command, site.file);
          }
          copy.restoreFile(site.file);
          copy.restore();
        }
        statuses[i] = status;
        tally[status === 'no_coverage' ? 'survived' : status]++;
        done++;
        opts.onProgress?.(done, sites.length, tally);
      }
    };
    await Promise.all(ws.copies.map((_, w) => worker(w)));
    return { baseline: base, statuses, mutantTimeoutMs: timeoutMs };
  } finally {
    ws.dispose();
  }
}
