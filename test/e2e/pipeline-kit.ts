// Running the three pipelines the same way from a test, and watching what each passes to
// the tools: a bin directory of wrappers that log every argument, then run the real binary.
import type { ExecutionContext } from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDemoRepo, type Files } from '../../pipelines/demo/repo.mjs';
import { PROJECTS } from '../../pipelines/demo/scenarios.mjs';
import { ROOT, run } from './helpers.js';

export const PIPELINES = ['gate.sh', 'gate.mk', 'gate.mjs'] as const;
/** The pipelines that detect and install (ag-gate's wrappers); gate.mk composes the tools by hand. */
export const ZERO_CONFIG = ['gate.sh', 'gate.mjs'] as const;
export type Pipeline = (typeof PIPELINES)[number];
export const TOOLS = ['ag-run', 'ag-diffcov', 'ag-mutate', 'ag-oracle', 'ag-decide'] as const;
type Tool = (typeof TOOLS)[number];

/** One pipeline's settings, named as gate.sh's AG_* variables without the prefix. */
export interface Settings {
  readonly test: string;
  readonly coverage?: string;
  readonly coverageReport?: string;
  readonly mutateMax?: string;
  readonly timeout?: string;
  readonly rounds?: string;
  readonly binDir?: string;
  readonly policy?: string;
  /** The install command (AG_INSTALL_COMMAND); absent: what the pipeline detects. */
  readonly install?: string;
}

const js = PROJECTS.js.env;
/** The demo's JavaScript project, measured with coverage. */
export const JS: Settings = {
  test: js.AG_TEST_COMMAND!,
  coverage: js.AG_COVERAGE_COMMAND!,
  coverageReport: js.AG_COVERAGE_REPORT!,
  mutateMax: '6',
  rounds: '2',
};

/** Run `pipeline` in `repo` on main~1..main with the evidence in `out` (in one of the file's slots); never rejects. */
export function runPipeline(
  pipeline: Pipeline,
  repo: string,
  out: string,
  s: Settings,
  env: Record<string, string> = {},
) {
  const file = path.join(ROOT, 'pipelines', pipeline);
  if (pipeline === 'gate.sh') {
    const vars: Record<string, string | undefined> = {
      AG_TEST_COMMAND: s.test,
      AG_COVERAGE_COMMAND: s.coverage ?? '',
      AG_COVERAGE_REPORT: s.coverageReport,
      AG_MUTATE_MAX: s.mutateMax,
      AG_TIMEOUT: s.timeout,
      AG_ROUNDS: s.rounds,
      AG_BIN_DIR: s.binDir,
      AG_POLICY: s.policy,
      AG_INSTALL_COMMAND: s.install,
    };
    const set = Object.fromEntries(Object.entries(vars).filter((e): e is [string, string] => e[1] !== undefined));
    return run('sh', [file, '--base', 'main~1', '--head', 'main', '--out', out], repo, { ...set, ...env });
  }
  if (pipeline === 'gate.mk') {
    const vars: Record<string, string | undefined> = {
      BASE: 'main~1',
      HEAD: 'main',
      OUT: out,
      TEST_COMMAND: s.test,
      COVERAGE_COMMAND: s.coverage ?? '',
      COVERAGE_REPORT: s.coverageReport,
      MUTATE_MAX: s.mutateMax,
      TIMEOUT: s.timeout,
      ROUNDS: s.rounds,
      BIN: s.binDir,
      POLICY: s.policy,
      INSTALL_COMMAND: s.install,
    };
    const args = Object.entries(vars).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`]));
    return run('make', ['-s', '-f', file, ...args], repo, env);
  }
  const flags: Record<string, string | undefined> = {
    '--test-command': s.test,
    '--coverage-command': s.coverage,
    '--coverage-report': s.coverageReport,
    '--mutate-max': s.mutateMax,
    '--timeout': s.timeout,
    '--rounds': s.rounds,
    '--bin-dir': s.binDir,
    '--policy': s.policy,
    '--install-command': s.install,
  };
  const args = Object.entries(flags).flatMap(([k, v]) => (v === undefined || v === '' ? [] : [k, v]));
  return run(process.execPath, [file, '--base', 'main~1', '--head', 'main', '--out', out, ...args], repo, env);
}

type Verdict = { verdict: string; reasons: { code: string; evidence?: string; message?: string }[] };
export const verdictAt = (dir: string): Verdict =>
  JSON.parse(readFileSync(path.join(dir, 'verdict.json'), 'utf8')) as Verdict;
export const codes = (v: Verdict) => [...new Set(v.reasons.map((r) => r.code))];

/** A temporary directory others can enter (tests run as a fresh uid when root), removed at the end. */
export function scratch(t: ExecutionContext, prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(dir, 0o755);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The demo's repository for `patch`, moved to `dir` (a path of the test's choosing). */
export function demoRepoAt(dir: string, patch: string, files: { baseFiles?: Files; patchFiles?: Files } = {}): string {
  renameSync(buildDemoRepo('js', patch, files), dir);
  chmodSync(dir, 0o755);
  return dir;
}

const sq = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** One tool invocation as a wrapper saw it. */
export interface Call {
  readonly tool: Tool;
  readonly args: readonly string[];
}

/**
 * A bin directory of wrappers for the real binaries: each appends its name and arguments to a
 * log (NUL-separated) and runs `before[tool]` (sh, with the arguments in "$@") first.
 */
export function loggingBins(
  dir: string,
  before: Partial<Record<Tool, string>> = {},
): { dir: string; calls: () => Call[] } {
  mkdirSync(dir, { recursive: true });
  const log = `${dir}.log`;
  writeFileSync(log, '');
  for (const tool of TOOLS) {
    const script = [
      '#!/bin/sh',
      `{ printf '%s\\0' ${tool}; printf '%s\\0' "$@"; printf '\\n\\0'; } >> ${sq(log)}`,
      before[tool] ?? '',
      `exec ${sq(path.join(ROOT, 'node_modules/.bin', tool))} "$@"`,
      '',
    ].join('\n');
    writeFileSync(path.join(dir, tool), script);
    chmodSync(path.join(dir, tool), 0o755);
  }
  const calls = () =>
    readFileSync(log, 'utf8')
      .split('\n\0')
      .filter((c) => c !== '')
      .map((c) => {
        const [tool, ...args] = c.split('\0').slice(0, -1);
        return { tool: tool as Tool, args };
      });
  return { dir, calls };
}

/** The value after `flag` in an argument list (`--flag value`), or undefined. */
export function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}
