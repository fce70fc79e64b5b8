/**
 * Flags to options: the three commands' flags and every check that needs no file system,
 * each refusal a UsageError (exit 3).
 * @module
 */
import os from 'node:os';
import type { ArgsDef } from 'citty';
import {
  choiceArg,
  choiceFlag,
  directoryFlag,
  intArg,
  numberArg,
  optionalArg,
  repeatedArg,
  requiredArg,
  sharedArgs,
  UsageError,
  variadicPositional,
} from '@adversary-gate/core';
import type { MutateOptions } from './measure.js';
import { parseOrder, parseShard, type MutantOrder } from './select.js';

const selectFlag = choiceFlag(
  ['auto', 'whole'],
  'auto: each mutant runs only the tests that execute it, where the runner allows (node --test, mocha, pytest); whole: always the whole command (default auto)',
);
const equivalenceFlag = choiceFlag(
  ['check', 'off'],
  'check: a survivor (Python under pytest, JavaScript under jest, vitest, node --test or mocha) whose function gives the same outcome on every call its tests make, and on neighbours of them, is counted as equivalent, not as a survivor; off: every survivor counts (default check)',
);
const warmHostFlag = choiceFlag(
  ['auto', 'off'],
  'auto: a vitest project whose config allows it (no plugins, no setup files, isolation on) judges its mutants on warm vitest hosts, with clean checks and a fall back to fresh processes; off: every mutant runs as a fresh process (default auto)',
);
const sandboxFlag = choiceFlag(
  ['none', 'bwrap'],
  'none | bwrap: every run inside bubblewrap (bwrap asked for and unusable: exit 3)',
);

/** `ag-mutate`'s flags. */
export const mutateArgs = {
  diff: {
    type: 'string',
    description: 'The unified diff whose added lines are mutated (`-` for stdin)',
    valueHint: 'FILE',
    required: true,
  },
  tree: { ...directoryFlag('The patch-side tree the diff produced (never written to)'), required: true },
  'test-command': {
    type: 'string',
    description: 'The test command, run with /bin/sh -c in a copy of the tree',
    valueHint: 'CMD',
    required: true,
  },
  'mutant-command': {
    type: 'string',
    description:
      "What each mutant runs instead (the same tests with the runner's bail flag: mocha --bail, pytest -x); default: the test command",
    valueHint: 'CMD',
  },
  max: {
    type: 'string',
    description:
      'Mutant budget, spread over the changed lines; the revert mutants have max(N, 16) of their own (0 disables the measurement; default: every site)',
    valueHint: 'N',
  },
  'line-budget': {
    type: 'string',
    description:
      'Past --max, every changed line gets its best-ranked mutant while the lines with a mutant number at most K (default 0: --max alone)',
    valueHint: 'K',
  },
  jobs: { type: 'string', description: 'Parallel tree copies (default: number of cores)', valueHint: 'N' },
  'timeout-factor': {
    type: 'string',
    description:
      'Mutant wall-clock limit = baseline time × F + 2 s, a backstop: a mutant run past 2 × the baseline CPU time + 2 CPU-s is stopped first (default 2)',
    valueHint: 'F',
  },
  timeout: { type: 'string', description: 'Limit of one baseline run in seconds (default 600)', valueHint: 'SEC' },
  shard: { type: 'string', description: 'Run only shard K of N of the selected mutants', valueHint: 'K/N' },
  python: {
    type: 'string',
    description: 'Interpreter that lists Python mutation sites (default python3)',
    valueHint: 'PATH',
  },
  'pass-env': {
    type: 'string',
    description: 'Pass this environment variable to the tests (repeatable)',
    valueHint: 'NAME',
  },
  policy: {
    type: 'string',
    description: 'Policy file whose "files" globs override the test / not-code classes (as ag-decide applies them)',
    valueHint: 'FILE',
  },
  run: {
    type: 'string',
    description:
      "ag-run's run.json for the same diff and patch tree: its full-suite execution on the patch, when it passed with the same command, sandbox and passed environment, stands for ag-mutate's second baseline run",
    valueHint: 'FILE',
  },
  select: selectFlag,
  equivalence: equivalenceFlag,
  sandbox: sandboxFlag,
  'warm-host': warmHostFlag,
  order: {
    type: 'string',
    description:
      'forward | reverse | shuffle:SEED: the order in which the mutants are judged; no verdict may depend on it (the equality check runs all three) (default forward)',
    valueHint: 'ORDER',
  },
  'canary-seed': {
    type: 'string',
    description:
      'Seed that draws the canaries (behaviour-neutral edits of up to 3 changed functions, judged as mutants, that must survive): to reproduce a run (default: fresh random bits, recorded as canary_seed)',
    valueHint: 'N',
  },
  progress: { type: 'boolean', description: 'Print progress on stderr even when it is not a terminal' },
  ...sharedArgs,
  out: { ...sharedArgs.out, description: 'Where to write mutation.json (`-` for stdout)', required: true },
} as const satisfies ArgsDef;

/** `ag-mutate merge`'s flags. */
export const mergeArgs = {
  shards: variadicPositional('Shard files written with --shard K/N'),
  ...sharedArgs,
  out: { ...sharedArgs.out, description: 'Where to write the merged mutation.json (`-` for stdout)', required: true },
} as const satisfies ArgsDef;

/** `ag-mutate import`'s flags. */
export const importArgs = {
  stryker: {
    type: 'string',
    description: 'The mutation-testing-report JSON',
    valueHint: 'REPORT.json',
    required: true,
  },
  diff: { type: 'string', description: 'The unified diff (`-` for stdin)', valueHint: 'FILE', required: true },
  ...sharedArgs,
  out: { ...sharedArgs.out, description: 'Where to write mutation.json (`-` for stdout)', required: true },
} as const satisfies ArgsDef;

/** The flags that may be given more than once; every other one once (checked by ag-core). */
export const REPEATABLE_FLAGS: readonly string[] = ['pass-env'];

/** What every command prints and where it writes. */
export interface OutputFlags {
  readonly out: string;
  readonly quiet: boolean;
  readonly verbose: boolean;
}

/** The flags that pass to `measureMutation` as they are. */
type MeasuredAsGiven = Pick<
  MutateOptions,
  | 'tree'
  | 'command'
  | 'max'
  | 'lineBudget'
  | 'jobs'
  | 'timeoutFactor'
  | 'baselineTimeoutMs'
  | 'shard'
  | 'python'
  | 'passEnv'
>;

/** `ag-mutate`'s checked flags; the files they name are read by `loadMutateInputs`. */
export interface MutateFlags extends OutputFlags, MeasuredAsGiven {
  readonly diff: string;
  readonly mutantCommand: string | undefined;
  readonly policy: string | undefined;
  readonly run: string | undefined;
  readonly select: 'auto' | 'whole';
  readonly equivalence: 'check' | 'off';
  readonly sandbox: 'none' | 'bwrap';
  readonly warmHost: 'auto' | 'off';
  readonly order: MutantOrder | undefined;
  readonly canarySeed: number | undefined;
  readonly progress: boolean;
}

function outputFlags(args: Record<string, unknown>, out: string): OutputFlags {
  return { out, quiet: args.quiet === true, verbose: args.verbose === true };
}

/** Read and check `ag-mutate`'s flags (in the order their errors have always been reported). */
export function parseMutateFlags(
  args: Record<string, unknown>,
  rawArgs: readonly string[],
  stderrIsTTY: boolean,
): MutateFlags {
  const out = requiredArg(args.out, 'out');
  const shardText = optionalArg(args.shard, 'shard');
  const shard = shardText === undefined ? null : parseShard(shardText);
  if (shard === null && shardText !== undefined)
    throw new UsageError(`--shard must be K/N with 1 ≤ K ≤ N, got "${shardText}"`);
  const command = requiredArg(args['test-command'], 'test-command');
  const tree = requiredArg(args.tree, 'tree');
  const max = intArg(args.max, 'max', 0) ?? null;
  const lineBudget = intArg(args['line-budget'], 'line-budget', 0) ?? 0;
  const jobs = intArg(args.jobs, 'jobs', 1, 256) ?? Math.max(1, os.availableParallelism());
  const timeoutFactor = numberArg(args['timeout-factor'], 'timeout-factor', 1, 1000) ?? 2;
  const baselineTimeoutMs = (intArg(args.timeout, 'timeout', 1, 86400) ?? 600) * 1000;
  const python = optionalArg(args.python, 'python') ?? 'python3';
  const output = outputFlags(args, out);
  const progress = !output.quiet && (args.progress === true || stderrIsTTY);
  const select = choiceArg(args.select, 'select', selectFlag) ?? 'auto';
  const sandbox = choiceArg(args.sandbox, 'sandbox', sandboxFlag) ?? 'none';
  const equivalence = choiceArg(args.equivalence, 'equivalence', equivalenceFlag) ?? 'check';
  const warmHost = choiceArg(args['warm-host'], 'warm-host', warmHostFlag) ?? 'auto';
  const orderText = optionalArg(args.order, 'order');
  const order = orderText === undefined ? undefined : parseOrder(orderText);
  if (order === null) throw new UsageError(`--order must be forward, reverse or shuffle:SEED, got "${orderText}"`);
  const canarySeed = intArg(args['canary-seed'], 'canary-seed', 0, 0xffffffff);
  return {
    ...output,
    diff: requiredArg(args.diff, 'diff'),
    tree,
    command,
    mutantCommand: optionalArg(args['mutant-command'], 'mutant-command'),
    max,
    lineBudget,
    jobs,
    timeoutFactor,
    baselineTimeoutMs,
    shard,
    python,
    passEnv: repeatedArg(rawArgs, 'pass-env'),
    policy: optionalArg(args.policy, 'policy'),
    run: optionalArg(args.run, 'run'),
    select,
    equivalence,
    sandbox,
    warmHost,
    order,
    canarySeed,
    progress,
  };
}

/** `ag-mutate merge`'s checked flags. */
export interface MergeFlags extends OutputFlags {
  readonly shards: readonly string[];
}

/** Read and check `ag-mutate merge`'s flags. */
export function parseMergeFlags(args: Record<string, unknown> & { _: unknown[] }): MergeFlags {
  const out = requiredArg(args.out, 'out');
  return { ...outputFlags(args, out), shards: args._.map(String) };
}

/** `ag-mutate import`'s checked flags. */
export interface ImportFlags extends OutputFlags {
  readonly stryker: string;
  readonly diff: string;
}

/** Read and check `ag-mutate import`'s flags. */
export function parseImportFlags(args: Record<string, unknown>): ImportFlags {
  const out = requiredArg(args.out, 'out');
  const stryker = requiredArg(args.stryker, 'stryker');
  return { ...outputFlags(args, out), stryker, diff: requiredArg(args.diff, 'diff') };
}
