import os from 'node:os';
import path from 'node:path';
import { defineCommand } from 'citty';
import {
  gitTreeId,
  InputError,
  intArg,
  main,
  optionalArg,
  packageVersion,
  requiredArg,
  UsageError,
} from '@adversary-gate/core';
import { decideFromEvidence } from './decide.js';
import { runGate } from './pipeline.js';
import { readSettings } from './settings.js';

const name = 'ag-gate';
const version = packageVersion(import.meta.url);

const text = (description: string, valueHint: string) => ({ type: 'string', description, valueHint }) as const;

const command = defineCommand({
  meta: {
    name,
    version,
    description:
      'Judge the patch HEAD against the base in this git repository with no settings: exports both commits, detects the install and the test runner from the baseline, installs each side, runs ag-oracle first, then ag-run, the coverage command and ag-diffcov, ag-mutate, the checks after, and ag-decide; prints one line per stage and the verdict. Every flag may be given as its AG_* variable instead (--test-command: AG_TEST_COMMAND). Exits 0 ACCEPT, 1 REJECT, 2 HOLD (also: another run holds --out), 3 bad usage. Sub-commands: decide, tree-id.',
  },
  args: {
    base: text('The baseline commit (default: origin/main)', 'REF'),
    head: text('The patch commit (default: HEAD)', 'REF'),
    out: text(
      "The evidence directory (default: .adversary-gate): created by the gate and marked as its own; an existing one must be the gate's or empty",
      'DIR',
    ),
    'test-command': text('The tests to run, with their per-test report (default: detected)', 'CMD'),
    'full-suite-command': text('The full suite (default: the test command)', 'CMD'),
    'coverage-command': text('Writes a coverage report in the patch tree (default: detected; empty: none)', 'CMD'),
    'coverage-report': text("That report's path in the tree (default: detected, else coverage/lcov.info)", 'PATH'),
    junit: text('A JUnit report the test command writes (default: detected)', 'PATH'),
    'install-command': text(
      "Installs a side's dependencies (default: detected from the lock file; empty: none)",
      'CMD',
    ),
    'install-cache': text(
      'Package caches kept between runs, for the installs only (default: ~/.cache/adversary-gate; empty: a fresh cache per install)',
      'DIR',
    ),
    'install-timeout': text('Seconds for one install (default: 900)', 'N'),
    rounds: text('Claim rounds on the patch (default: 3)', 'N'),
    timeout: text('Seconds per test run (default: 120)', 'N'),
    deadline: text(
      'Seconds for the whole run: past it the stage running is stopped and the verdict holds, naming it (default: 2 × the install timeout + 30 × the timeout)',
      'N',
    ),
    'mutate-max': text(
      'The mutant budget (default: 20, raised to one mutant per changed line for up to 200 lines)',
      'N',
    ),
    python: text('The interpreter for Python projects (default: python3)', 'PATH'),
    policy: text("A policy file outside the patch (default: the baseline's adversary-gate.json)", 'FILE'),
    sandbox: text('none or bwrap (default: none)', 'MODE'),
    'max-processes': text("As root: each test run's process limit (default: ag-run's, 1024)", 'N'),
    'pass-env': text(
      "Variables of this environment every run of the project's code gets too, comma-separated (TZ,LANG: what the project's own CI sets; default: none, TZ=UTC and LANG=C.UTF-8)",
      'NAMES',
    ),
    shard: text('K/N: run only mutation shard K of N into DIR/mutation-K.json (no verdict)', 'K/N'),
    'bin-dir': text('Where the five tools are (default: the installed packages)', 'DIR'),
    quiet: { type: 'boolean', description: 'Print nothing on stderr but errors and faults' },
    verbose: { type: 'boolean', description: 'Print stack traces with errors' },
  },
  async run({ args }) {
    return runGate(readSettings(args, process.env, process.env.AG_GATE_WHO || name), process.cwd());
  },
});

const decide = defineCommand({
  meta: {
    name: 'decide',
    description:
      "The trusted end of a split pipeline: never runs the patch's code. Recomputes the diff and the trees from the commits, reads the policy from the base commit, merges N mutation shards, runs ag-decide on the evidence directory and exits with `ag-decide check`: 0 ACCEPT, 1 REJECT, 2 HOLD, 3 bad usage.",
  },
  args: {
    base: text('The baseline commit (AG_BASE)', 'REF'),
    head: text('The patch commit (AG_HEAD)', 'REF'),
    evidence: text('The evidence directory the measuring job wrote (AG_EVIDENCE)', 'DIR'),
    out: text(
      "Where verdict.json, verdict.md and the merged shards go: the gate's own directory (default: $RUNNER_TEMP or the system's temporary folder, /adversary-gate-decide)",
      'DIR',
    ),
    shards: text('N when mutation ran in N shards (AG_SHARDS; merges mutation-1.json .. mutation-N.json)', 'N'),
    'bin-dir': text('Where the five tools are (default: the installed packages)', 'DIR'),
    quiet: { type: 'boolean', description: 'Print nothing on stderr but errors' },
    verbose: { type: 'boolean', description: 'Print stack traces with errors' },
  },
  async run({ args }) {
    const env = process.env;
    const need = (flag: 'base' | 'head' | 'evidence', variable: string) => {
      const v = optionalArg(args[flag], flag) ?? (env[variable] || undefined);
      if (v === undefined) throw new UsageError(`--${flag} (${variable}) is required`);
      return v;
    };
    const shards = intArg(optionalArg(args.shards, 'shards') ?? (env.AG_SHARDS || undefined), 'shards', 1);
    const binDir = optionalArg(args['bin-dir'], 'bin-dir') ?? (env.AG_BIN_DIR || undefined);
    return decideFromEvidence(
      {
        base: need('base', 'AG_BASE'),
        head: need('head', 'AG_HEAD'),
        evidence: need('evidence', 'AG_EVIDENCE'),
        out: optionalArg(args.out, 'out') ?? path.join(env.RUNNER_TEMP || os.tmpdir(), 'adversary-gate-decide'),
        ...(shards === undefined ? {} : { shards }),
        ...(binDir === undefined ? {} : { binDir }),
        quiet: args.quiet === true,
        ...(env.GITHUB_STEP_SUMMARY ? { stepSummary: env.GITHUB_STEP_SUMMARY } : {}),
        ...(env.GITHUB_OUTPUT ? { output: env.GITHUB_OUTPUT } : {}),
      },
      process.cwd(),
    );
  },
});

const treeId = defineCommand({
  meta: {
    name: 'tree-id',
    description:
      "Print the git tree id of an exported tree (the node_modules links a pipeline adds left out, at any depth): the id every tool that ran on it records, for ag-decide's --baseline-tree and --patch-tree. Take it right after the export, before any of the patch's code runs. Exits 0, or 3 when the folder cannot be read.",
  },
  args: { dir: { type: 'positional', description: 'The exported tree', required: true } },
  async run({ args }) {
    const dir = requiredArg(args.dir, 'dir');
    let id: string;
    try {
      id = await gitTreeId(dir, ['node_modules']);
    } catch (e) {
      throw new InputError(dir, e instanceof Error ? e.message : String(e));
    }
    process.stdout.write(`${id}\n`);
    return 0;
  },
});

await main({ name, version, main: command, subCommands: { decide, 'tree-id': treeId } });
