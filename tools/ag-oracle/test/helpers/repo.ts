/**
 * Tiny real git repositories for the tests: a baseline commit, a patch commit, the diff
 * between them, and both trees checked out side by side.
 */
import { spawn } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitPair, type Files } from '../../../ag-core/test/support/git-repo.js';
import { tempDir } from './tmp.js';

/** At most this many git or binary processes at once (the machine has two cores). */
const SLOTS = 3;
let busy = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (busy >= SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  busy++;
  try {
    return await work();
  } finally {
    busy--;
    waiting.shift()?.();
  }
}

/** A file's content, a symlink, or null to delete it. */
export type Tree = Files;

export interface Repos {
  readonly dir: string;
  readonly baseline: string;
  readonly patch: string;
  readonly diff: string;
  readonly out: string;
}

/** A policy that protects the oracle tests and names a fixture root and a freeze list. */
export const POLICY = JSON.stringify({
  schema_version: 1,
  oracle: { protected: ['tests/oracle/**'], fixtures: ['tests/fixtures'], freeze: 'tests/flake_freeze.json' },
});

/** A baseline every behaviour test starts from: source, a test, fixtures, a freeze list. */
export const BASE: Tree = {
  'adversary-gate.json': POLICY,
  'package.json': JSON.stringify({ name: 'demo', scripts: { test: 'node --test' } }, null, 2),
  'src/add.js': 'export function add(a, b) {\n  return a + b;\n}\n',
  'src/sub.js': 'export function sub(a, b) {\n  return a - b;\n}\n',
  'test/add.test.js':
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/add.js';\n\ntest('adds', () => {\n  assert.equal(add(1, 2), 3);\n  assert.equal(add(2, 2), 4);\n});\n",
  'tests/oracle/hidden.test.js': "import test from 'node:test';\ntest('hidden', () => {});\n",
  'tests/fixtures/golden.json': '{"sum": 3}\n',
  'tests/fixtures/deep/more.txt': 'more\n',
  'tests/flake_freeze.json': '[]\n',
};

/**
 * Commit `base`, then `changes` on top (null deletes; `renames` moves with git mv), and
 * write the diff. The patch tree is the repository; the baseline is a copy of the first commit.
 */
export async function makeRepos(
  base: Tree,
  changes: Tree,
  renames: Readonly<Record<string, string>> = {},
): Promise<Repos> {
  const dir = tempDir('repo');
  const patch = path.join(dir, 'patch');
  const baseline = path.join(dir, 'baseline');
  const copyBaseline = () => {
    cpSync(patch, baseline, { recursive: true, verbatimSymlinks: true });
    rmSync(path.join(baseline, '.git'), { recursive: true, force: true });
  };
  const pair = await limited(() =>
    Promise.resolve(commitPair(patch, base, changes, { renames, between: copyBaseline })),
  );
  const diff = path.join(dir, 'changes.diff');
  writeFileSync(diff, pair.diff);
  return { dir, baseline, patch, diff, out: path.join(dir, 'oracle.json') };
}

export const BIN = fileURLToPath(new URL('../../bin/ag-oracle.js', import.meta.url));

/** What a run of the binary left: exit code, stdout, stderr. */
export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run the real binary (stdin gets `input`, or nothing). */
export function runOracle(args: readonly string[], input = ''): Promise<RunResult> {
  return limited(() => spawnOracle(args, input));
}

function spawnOracle(args: readonly string[], input: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** The usual arguments for a pair of repositories. */
export function oracleArgs(r: Repos, extra: readonly string[] = []): string[] {
  return [
    '--diff',
    r.diff,
    '--baseline',
    r.baseline,
    '--patch',
    r.patch,
    '--today',
    '2026-11-30',
    '--out',
    r.out,
    ...extra,
  ];
}
