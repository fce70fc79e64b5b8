// The peer tool's fail-open findings (its AG-001 … AG-017) that apply to our design, each
// reproduced on the demo project and pinned by name.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AdversarialCase } from '../case.js';
import { BIN, exec, readVerdict, type GateResult } from '../gate.js';
import { fakeCommand } from '../tamper.js';
import { BROKEN_ADD, DOUBLE_TEST, WITH_DOUBLE } from './snippets.js';

const CLEAN = { 'src/cart.js': WITH_DOUBLE, 'test/double.test.js': DOUBLE_TEST };
const VEC = { 'src/vec.cpp': 'int sub(int a, int b) { return a - b; }\n' };

/**
 * AG-015: the five tools run one by one, as gate.sh runs them, on a plain `diff -u`
 * (`--- src/cart.js.orig<TAB>date`) instead of git's `a/`/`b/` headers.
 */
async function plainDiffPipeline(repo: string, env: Readonly<Record<string, string>>): Promise<GateResult> {
  const out = path.join(repo, 'ag');
  mkdirSync(out, { recursive: true });
  for (const [side, ref] of [
    ['baseline', 'main~1'],
    ['patch', 'main'],
    ['coverage-tree', 'main'],
  ] as const) {
    mkdirSync(path.join(out, side));
    execFileSync('sh', ['-c', `git archive ${ref} | tar -x -C ag/${side}`], { cwd: repo });
  }
  writeFileSync(path.join(out, 'cart.js.orig'), readFileSync(path.join(out, 'baseline/src/cart.js')));
  const d = await exec(
    'diff',
    [
      '-u',
      '--label',
      'src/cart.js.orig\t2026-11-30 10:00:00',
      '--label',
      'src/cart.js\t2026-11-30 10:05:00',
      path.join(out, 'cart.js.orig'),
      path.join(out, 'patch/src/cart.js'),
    ],
    out,
  );
  const diff = path.join(out, 'changes.diff');
  writeFileSync(diff, d.stdout);
  const policy = ['--policy', path.join(out, 'baseline/adversary-gate.json')];
  const tool = (name: string, args: string[]) => exec(path.join(BIN, name), [...args, '--quiet'], out);
  await tool('ag-run', [
    '--baseline',
    'baseline',
    '--patch',
    'patch',
    '--diff',
    diff,
    '--test-command',
    env.AG_TEST_COMMAND!,
    '--rounds',
    '1',
    '--out',
    'run.json',
  ]);
  await exec('sh', ['-c', env.AG_COVERAGE_COMMAND!], path.join(out, 'coverage-tree'));
  await tool('ag-diffcov', [
    '--diff',
    diff,
    '--coverage',
    `coverage-tree/${env.AG_COVERAGE_REPORT!}`,
    '--root',
    'coverage-tree',
    ...policy,
    '--out',
    'diffcov.json',
  ]);
  await tool('ag-mutate', [
    '--diff',
    diff,
    '--tree',
    'patch',
    '--test-command',
    env.AG_TEST_COMMAND!,
    '--max',
    env.AG_MUTATE_MAX!,
    ...policy,
    '--out',
    'mutation.json',
  ]);
  await tool('ag-oracle', [
    '--diff',
    diff,
    '--baseline',
    'baseline',
    '--patch',
    'patch',
    ...policy,
    '--out',
    'oracle.json',
  ]);
  const evidence = ['run', 'diffcov', 'mutation', 'oracle'].flatMap((k) => ['--evidence', `${k}.json`]);
  await exec(path.join(BIN, 'ag-decide'), ['--diff', diff, ...evidence, ...policy, '--out', 'verdict.json'], out);
  const r = await exec(path.join(BIN, 'ag-decide'), ['check', 'verdict.json', '--diff', diff], out);
  return { ...r, out, verdict: readVerdict(path.join(out, 'verdict.json')) };
}

export const PEER: readonly AdversarialCase[] = [
  {
    id: 'AG-001',
    what: 'a deleted source file is a change nothing measured',
    base: { 'src/legacy.js': 'export const legacy = 1;\n' },
    patch: { 'src/legacy.js': null },
    verdict: 'HOLD',
    code: 'STRENGTH_UNVERIFIED',
  },
  {
    id: 'AG-002',
    what: 'no coverage input is not 100% coverage',
    patch: CLEAN,
    env: { AG_COVERAGE_COMMAND: '' },
    verdict: 'HOLD',
    code: 'COVERAGE_NOT_MEASURED',
  },
  {
    id: 'AG-003',
    what: 'a sandbox asked for and unusable never becomes a silent unsandboxed run',
    patch: CLEAN,
    env: (ctx) => ({
      AG_SANDBOX: 'bwrap',
      PATH: `${fakeCommand(path.join(ctx.hostDir, 'path'), 'bwrap', 'exit 127')}:${process.env.PATH ?? ''}`,
    }),
    verdict: 'HOLD',
    code: 'EVIDENCE_MISSING',
  },
  // ag-mutate refuses to read through the link (no mutation evidence); the runs do not report the baseline's tests.
  {
    id: 'AG-004',
    what: 'a changed source path that is a symlink out of the tree',
    patch: { 'src/evil.js': { symlink: '../../../../etc/hostname' } },
    verdict: 'REJECT',
    code: 'TEST_LOST',
    also: ['EVIDENCE_MISSING'],
  },
  {
    id: 'AG-009',
    what: 'a new test that fails on the patch is direct evidence, not flakiness',
    patch: {
      'test/new.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../src/cart.js';\n\ntest('adds three', () => {\n  assert.equal(add(1, 1), 3);\n});\n",
    },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    id: 'AG-010',
    what: 'a full suite that never ran is not a suite that passed',
    patch: CLEAN,
    env: { AG_FULL_SUITE_COMMAND: 'no-such-suite-runner' },
    verdict: 'HOLD',
    code: 'CLAIM_UNVERIFIED',
  },
  {
    id: 'AG-011',
    what: 'direct evidence outranks missing coverage',
    patch: { 'src/cart.js': BROKEN_ADD },
    env: { AG_COVERAGE_COMMAND: '' },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
    also: ['COVERAGE_NOT_MEASURED'],
  },
  {
    id: 'AG-012',
    what: 'a C++ change beside a tested JavaScript one',
    base: VEC,
    patch: { ...CLEAN, 'src/vec.cpp': 'int sub(int a, int b) { return a * b; }\n' },
    verdict: 'HOLD',
    code: 'STRENGTH_UNVERIFIED',
  },
  {
    id: 'AG-013',
    what: 'a .sql change is source no engine judges, not "no source changed"',
    base: { 'db/schema.sql': 'create table t (id int);\n' },
    patch: { 'db/schema.sql': 'create table t (id text);\n' },
    verdict: 'HOLD',
    code: 'STRENGTH_UNVERIFIED',
  },
  {
    id: 'AG-014',
    what: 'the foreign-source guard holds with the mutation budget at 0',
    base: VEC,
    patch: { ...CLEAN, 'src/vec.cpp': 'int sub(int a, int b) { return a * b; }\n' },
    env: { AG_MUTATE_MAX: '0' },
    verdict: 'HOLD',
    code: 'STRENGTH_UNVERIFIED',
  },
  {
    id: 'AG-015',
    what: 'a plain diff -u (no a/ b/ prefixes, dated headers) still measures the added lines',
    patch: { 'src/cart.js': WITH_DOUBLE },
    verdict: 'HOLD',
    code: 'COVERAGE_BELOW_FLOOR',
    pipeline: (ctx, env) => plainDiffPipeline(ctx.repo, env),
  },
  {
    id: 'AG-017',
    what: 'a source file deleted beside a tested change',
    base: { 'src/legacy.js': 'export const legacy = 1;\n' },
    patch: { ...CLEAN, 'src/legacy.js': null },
    verdict: 'HOLD',
    code: 'STRENGTH_UNVERIFIED',
  },
];
