/**
 * Tiny real git repositories for the tests: a baseline commit, a patch commit, the diff
 * between them, and both trees checked out side by side.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from './tmp.js';

const execFileP = promisify(execFile);

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
export type Entry = string | { readonly symlink: string } | null;
export type Tree = Readonly<Record<string, Entry>>;

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

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await limited(() =>
    execFileP(
      'git',
      ['-c', 'user.email=dev@example.com', '-c', 'user.name=dev', '-c', 'core.autocrlf=false', ...args],
      {
        cwd,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd },
      },
    ),
  );
  return stdout;
}

function apply(root: string, tree: Tree): void {
  for (const [rel, entry] of Object.entries(tree)) {
    const file = path.join(root, rel);
    rmSync(file, { force: true, recursive: true });
    if (entry === null) continue;
    mkdirSync(path.dirname(file), { recursive: true });
    if (typeof entry === 'string') writeFileSync(file, entry);
    else symlinkSync(entry.symlink, file);
  }
}

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
  mkdirSync(patch);
  await git(patch, 'init', '-q');
  apply(patch, base);
  await git(patch, 'add', '-A');
  await git(patch, 'commit', '-qm', 'baseline', '--allow-empty');
  cpSync(patch, baseline, { recursive: true, verbatimSymlinks: true });
  rmSync(path.join(baseline, '.git'), { recursive: true, force: true });
  for (const [from, to] of Object.entries(renames)) {
    mkdirSync(path.dirname(path.join(patch, to)), { recursive: true });
    await git(patch, 'mv', from, to);
  }
  apply(patch, changes);
  await git(patch, 'add', '-A');
  await git(patch, 'commit', '-qm', 'patch', '--allow-empty');
  const diff = path.join(dir, 'changes.diff');
  writeFileSync(diff, await git(patch, 'diff', '-M', '--binary', 'HEAD~1', 'HEAD'));
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
