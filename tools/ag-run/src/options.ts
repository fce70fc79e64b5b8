/**
 * Flags to options: every check that needs no file system, each refusal a UsageError (exit 3).
 * @module
 */
import os from 'node:os';
import * as v from 'valibot';
import type { ArgsDef } from 'citty';
import {
  checkRepeatedFlags,
  choiceArg,
  choiceFlag,
  DEFAULT_PROCESS_LIMIT,
  directoryFlag,
  intArg,
  numberArg,
  optionalArg,
  repeatedArg,
  requiredArg,
  runningAsRoot,
  sharedArgs,
  UsageError,
} from '@adversary-gate/core';
import { RelPath } from '@adversary-gate/schemas';
import type { RunOptions } from './gate.js';
import { RUNNERS } from './runners/detect.js';

/** ag-run's flags. */
export const runArgs = {
  baseline: directoryFlag('The baseline tree (never run in: copied per execution)'),
  patch: directoryFlag('The patched tree (never run in: copied per execution)'),
  diff: { type: 'string', description: 'The unified diff the evidence binds to (`-` for stdin)', valueHint: 'FILE' },
  'test-command': {
    type: 'string',
    description: 'A claim command, run by /bin/sh in the tree copy (repeatable)',
    valueHint: 'CMD',
  },
  'full-suite-command': {
    type: 'string',
    description: 'The full suite (default: the claim command when there is one)',
    valueHint: 'CMD',
  },
  'commands-json': {
    type: 'string',
    description: 'A file declaring claim commands as a JSON array of strings',
    valueHint: 'FILE',
  },
  claims: {
    type: 'string',
    description: 'Acceptance criteria file {"criteria":[{id,text,kind,tests}]}',
    valueHint: 'FILE',
  },
  rounds: { type: 'string', description: 'Rounds of each claim on the patch (default 3)', valueHint: 'N' },
  timeout: { type: 'string', description: 'Wall-clock limit per execution in seconds (default 300)', valueHint: 'SEC' },
  sandbox: choiceFlag(['none', 'bwrap'], 'none | bwrap (bwrap asked for and unusable: exit 3)'),
  junit: {
    type: 'string',
    description: 'A JUnit XML report each command writes, relative to the tree',
    valueHint: 'RELPATH',
  },
  seed: { type: 'string', description: 'Exported to every run as AG_SEED and recorded', valueHint: 'N' },
  'pass-env': {
    type: 'string',
    description: 'A variable of the caller passed to the runs (repeatable)',
    valueHint: 'NAME',
  },
  jobs: { type: 'string', description: 'Executions in parallel (default: the number of cores)', valueHint: 'N' },
  'run-as': choiceFlag(
    ['unprivileged', 'caller'],
    'unprivileged | caller: whose uid the tests run as (default: unprivileged when ag-run runs as root; unprivileged needs root)',
    'WHO',
  ),
  'max-processes': {
    type: 'string',
    description:
      "As root: RLIMIT_NPROC of each execution's own uid; stopped at 3/4 of it as rlimit_nproc (default 1024)",
    valueHint: 'N',
  },
  runner: choiceFlag(
    RUNNERS,
    `Force an exit-code taxonomy: ${RUNNERS.join(' | ')} (default: detected per command)`,
    'NAME',
  ),
  ...sharedArgs,
} as const satisfies ArgsDef;

/** Every value of a flag, in order (ag-core's reader of repeated flags). */
export const flagValues = repeatedArg;

/** A flag that carries a shell command: any non-empty string (`true` included). */
function commandList(rawArgs: readonly string[], flag: string): string[] {
  const list = flagValues(rawArgs, flag);
  if (list.some((c) => c.trim() === '')) throw new UsageError(`--${flag} needs a command`);
  return list;
}

/** The flags that may be given more than once; every other one once (checked by ag-core). */
export const REPEATABLE_FLAGS: readonly string[] = ['test-command', 'pass-env'];

/** Read and check the flags. */
export function parseRunOptions(
  args: Record<string, unknown>,
  rawArgs: readonly string[],
): RunOptions & { readonly out: string } {
  checkRepeatedFlags(rawArgs, runArgs, REPEATABLE_FLAGS);
  const sandbox = choiceArg(args.sandbox, 'sandbox', runArgs.sandbox) ?? 'none';
  const runAs = choiceArg(args['run-as'], 'run-as', runArgs['run-as']) ?? (runningAsRoot() ? 'unprivileged' : 'caller');
  if (runAs === 'unprivileged' && !runningAsRoot())
    throw new UsageError(
      '--run-as unprivileged needs ag-run to run as root (only root can give the tests another uid)',
    );
  const runner = choiceArg(args.runner, 'runner', runArgs.runner);
  const junit = optionalArg(args.junit, 'junit') ?? null;
  if (junit !== null && !v.is(RelPath, junit))
    throw new UsageError(`--junit must be a relative path inside the tree without "..", got "${junit}"`);
  const testCommands = commandList(rawArgs, 'test-command');
  const fullSuite = commandList(rawArgs, 'full-suite-command');
  const passEnv = flagValues(rawArgs, 'pass-env');
  for (const name of passEnv)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--pass-env takes a variable name, got "${name}"`);
  const commandsJson = optionalArg(args['commands-json'], 'commands-json') ?? null;
  if (testCommands.length === 0 && commandsJson === null)
    throw new UsageError('give --test-command or --commands-json');
  return {
    out: requiredArg(args.out, 'out'),
    baseline: requiredArg(args.baseline, 'baseline'),
    patch: requiredArg(args.patch, 'patch'),
    diff: requiredArg(args.diff, 'diff'),
    testCommands,
    fullSuiteCommand: fullSuite[0] ?? null,
    commandsJson,
    claims: optionalArg(args.claims, 'claims') ?? null,
    rounds: intArg(args.rounds, 'rounds', 1, 100) ?? 3,
    timeoutSeconds: numberArg(args.timeout, 'timeout', 0.1, 86_400) ?? 300,
    sandbox,
    junit,
    seed: intArg(args.seed, 'seed', 0, 2 ** 31 - 1) ?? null,
    passEnv,
    jobs: intArg(args.jobs, 'jobs', 1, 256) ?? os.availableParallelism(),
    runAs,
    maxProcesses: intArg(args['max-processes'], 'max-processes', 16, 1_000_000) ?? DEFAULT_PROCESS_LIMIT,
    runner: runner ?? null,
  };
}
