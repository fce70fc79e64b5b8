/**
 * Where one run works: the evidence directory (`--out`, the gate's own) holding the two
 * exported trees and every artefact, and a work folder outside it (the installs, the gate's
 * tools, the coverage tree run in place), removed at the end.
 * @module
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageDir } from '@adversary-gate/core';

/** The paths of one run. */
export interface Workspace {
  readonly out: string;
  readonly baseline: string;
  readonly patch: string;
  readonly diff: string;
  readonly work: string;
  readonly coverageTree: string;
  readonly toolsDir: string;
  /** The gate's node:test reporter, staged where every test uid can read it. */
  readonly nodeReporter: string;
  /** The gate's launcher of jest and mocha (the program sees the project's argv alone), staged beside it. */
  readonly launcher: string;
}

/** Make the work folder and the trees' folders for the evidence directory `out`. */
export function makeWorkspace(out: string): Workspace {
  const work = mkdtempSync(path.join(os.tmpdir(), 'ag-gate-'));
  chmodSync(work, 0o755);
  const ws: Workspace = {
    out,
    baseline: path.join(out, 'baseline'),
    patch: path.join(out, 'patch'),
    diff: path.join(out, 'changes.diff'),
    work,
    coverageTree: path.join(work, 'coverage-tree'),
    toolsDir: path.join(work, 'tools'),
    nodeReporter: path.join(work, 'reporter', 'node-test-junit.mjs'),
    launcher: path.join(work, 'reporter', 'runner-launcher.cjs'),
  };
  mkdirSync(ws.baseline);
  mkdirSync(ws.patch);
  // The gate may be installed where only its owner can enter; the tests run as another uid.
  mkdirSync(path.dirname(ws.nodeReporter), { mode: 0o755 });
  chmodSync(path.dirname(ws.nodeReporter), 0o755);
  for (const staged of [ws.nodeReporter, ws.launcher]) {
    copyFileSync(path.join(packageDir(import.meta.url), 'runtime', path.basename(staged)), staged);
    chmodSync(staged, 0o644);
  }
  return ws;
}
