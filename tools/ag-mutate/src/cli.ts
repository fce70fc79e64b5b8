import os from 'node:os';
import { defineCommand } from 'citty';
import {
  childEnv,
  choiceArg,
  choiceFlag,
  classifyPath,
  directoryFlag,
  probeBwrap,
  loadPolicyClasses,
  intArg,
  main,
  numberArg,
  optionalArg,
  packageVersion,
  readDiff,
  repeatedArg,
  requiredArg,
  sharedArgs,
  UsageError,
  variadicPositional,
} from '@adversary-gate/core';
import { loadJson, sha256, writeArtefact, type MutationArtefact } from '@adversary-gate/schemas';
import { importStryker, StrykerReport } from './import-stryker.js';
import { measureMutation } from './measure.js';
import { loadShards, mergeShards } from './merge.js';
import { progressReporter } from './progress.js';
import { summaryLine, survivorLines } from './summary.js';
import { parseShard } from './select.js';

const name = 'ag-mutate';
const version = packageVersion(import.meta.url);

async function finish(out: string, artefact: MutationArtefact, quiet: boolean, verbose = false): Promise<number> {
  await writeArtefact(out, artefact);
  if (!quiet) process.stderr.write(summaryLine(artefact) + survivorLines(artefact, verbose));
  return 0;
}

const selectFlag = choiceFlag(
  ['auto', 'whole'],
  'auto: each mutant runs only the tests that execute it, where the runner allows (node --test, mocha, pytest); whole: always the whole command (default auto)',
);
const sandboxFlag = choiceFlag(
  ['none', 'bwrap'],
  'none | bwrap: every run inside bubblewrap (bwrap asked for and unusable: exit 3)',
);

const mutateCommand = defineCommand({
  meta: {
    name,
    version,
    description:
      'Would the tests notice if the changed lines were wrong? Mutates the lines a diff added, runs the tests on each mutant in an isolated copy of the tree, writes mutation.json. Sub-commands: merge, import.',
  },
  args: {
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
      description: 'Mutant budget, spread over the changed lines (0 disables the measurement; default: every site)',
      valueHint: 'N',
    },
    jobs: { type: 'string', description: 'Parallel tree copies (default: number of cores)', valueHint: 'N' },
    'timeout-factor': {
      type: 'string',
      description: 'Mutant timeout = baseline time × F + 2 s (default 2)',
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
    select: selectFlag,
    sandbox: sandboxFlag,
    progress: { type: 'boolean', description: 'Print progress on stderr even when it is not a terminal' },
    ...sharedArgs,
    out: { ...sharedArgs.out, description: 'Where to write mutation.json (`-` for stdout)', required: true },
  },
  async run({ args, rawArgs }) {
    const out = requiredArg(args.out, 'out');
    const shardText = optionalArg(args.shard, 'shard');
    const shard = shardText === undefined ? null : parseShard(shardText);
    if (shard === null && shardText !== undefined)
      throw new UsageError(`--shard must be K/N with 1 ≤ K ≤ N, got "${shardText}"`);
    const command = requiredArg(args['test-command'], 'test-command');
    const tree = requiredArg(args.tree, 'tree');
    const max = intArg(args.max, 'max', 0) ?? null;
    const jobs = intArg(args.jobs, 'jobs', 1, 256) ?? Math.max(1, os.availableParallelism());
    const timeoutFactor = numberArg(args['timeout-factor'], 'timeout-factor', 1, 1000) ?? 2;
    const baselineTimeoutMs = (intArg(args.timeout, 'timeout', 1, 86400) ?? 600) * 1000;
    const python = optionalArg(args.python, 'python') ?? 'python3';
    const showProgress = !args.quiet && (args.progress === true || process.stderr.isTTY === true);
    const select = choiceArg(args.select, 'select', selectFlag) ?? 'auto';
    const sandbox = choiceArg(args.sandbox, 'sandbox', sandboxFlag) ?? 'none';
    const diff = await readDiff(requiredArg(args.diff, 'diff'));
    const classes = await loadPolicyClasses(optionalArg(args.policy, 'policy'));
    if (sandbox === 'bwrap') {
      const probe = await probeBwrap(childEnv({ home: os.tmpdir() }), os.tmpdir());
      if (!probe.ok) throw new UsageError(`--sandbox bwrap: ${probe.problem}; refusing to run unsandboxed`);
    }
    const artefact = await measureMutation({
      diff,
      tree,
      command,
      mutantCommand: optionalArg(args['mutant-command'], 'mutant-command'),
      max,
      jobs,
      timeoutFactor,
      baselineTimeoutMs,
      shard,
      python,
      passEnv: repeatedArg(rawArgs, 'pass-env'),
      classify: classes.classify,
      policyInput: classes.input,
      onProgress: showProgress ? progressReporter((line) => process.stderr.write(line)) : undefined,
      sandbox,
      selectTests: select === 'auto',
    });
    return finish(out, artefact, args.quiet === true, args.verbose === true);
  },
});

const mergeCommand = defineCommand({
  meta: {
    name: 'merge',
    description: 'Merge the shards of one run (every K of N, once each, same diff and options) into one mutation.json.',
  },
  args: {
    shards: variadicPositional('Shard files written with --shard K/N'),
    ...sharedArgs,
    out: { ...sharedArgs.out, description: 'Where to write the merged mutation.json (`-` for stdout)', required: true },
  },
  async run({ args }) {
    const out = requiredArg(args.out, 'out');
    const files = (args._ as string[]).map(String);
    const artefact = mergeShards(await loadShards(files));
    return finish(out, artefact, args.quiet === true, args.verbose === true);
  },
});

const importCommand = defineCommand({
  meta: {
    name: 'import',
    description:
      'Turn a mutation-testing-report JSON (StrykerJS) into mutation.json, filtered to the lines the diff added.',
  },
  args: {
    stryker: {
      type: 'string',
      description: 'The mutation-testing-report JSON',
      valueHint: 'REPORT.json',
      required: true,
    },
    diff: { type: 'string', description: 'The unified diff (`-` for stdin)', valueHint: 'FILE', required: true },
    ...sharedArgs,
    out: { ...sharedArgs.out, description: 'Where to write mutation.json (`-` for stdout)', required: true },
  },
  async run({ args }) {
    const out = requiredArg(args.out, 'out');
    const reportFile = requiredArg(args.stryker, 'stryker');
    const diff = await readDiff(requiredArg(args.diff, 'diff'));
    const { bytes, value } = await loadJson(reportFile, StrykerReport);
    const artefact = importStryker(value, diff, { path: reportFile, sha256: sha256(bytes) }, classifyPath);
    return finish(out, artefact, args.quiet === true, args.verbose === true);
  },
});

await main({
  name,
  version,
  main: mutateCommand,
  subCommands: { merge: mergeCommand, import: importCommand },
  repeatable: ['pass-env'],
});
