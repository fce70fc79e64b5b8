import { defineCommand } from 'citty';
import {
  choiceArg,
  choiceFlag,
  main,
  optionalArg,
  outputFlag,
  packageVersion,
  readDiff,
  repeatedArg,
  requiredArg,
  sharedArgs,
  UsageError,
} from '@adversary-gate/core';
import { checkVerdict } from './check.js';
import { exitCodeOf, runDecision } from './run-decision.js';
import { computeStats, readLog, statsTable } from './stats.js';

const name = 'ag-decide';
const version = packageVersion(import.meta.url);

/** The longest `--pipeline-fault` text kept (characters); a longer one is cut with an ellipsis. */
const FAULT_CHARS = 500;

/** `--pipeline-fault` texts as one line each (white space folded); an empty one is a usage error. */
function faultArgs(values: readonly string[]): string[] {
  return values.map((value) => {
    const line = value.replace(/\s+/g, ' ').trim();
    if (line === '') throw new UsageError('--pipeline-fault needs a text that names the step that failed');
    return line.length > FAULT_CHARS ? `${line.slice(0, FAULT_CHARS - 1)}…` : line;
  });
}

/** A git tree id flag: 40 or 64 lower-case hex digits, or absent. */
function treeArg(value: unknown, flag: string): string | undefined {
  const v = optionalArg(value, flag);
  if (v !== undefined && !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(v))
    throw new UsageError(`--${flag} must be a git tree id (40 or 64 lower-case hex digits), got "${v}"`);
  return v;
}

const decideCommand = defineCommand({
  meta: {
    name,
    version,
    description:
      'The only writer of verdict.json: reads the evidence, applies the policy, decides ACCEPT (exit 0), REJECT (1) or HOLD (2). Sub-commands: check, stats.',
  },
  args: {
    diff: {
      type: 'string',
      description: 'The unified diff every evidence file must be bound to (`-` for stdin)',
      valueHint: 'FILE',
      required: true,
    },
    evidence: {
      type: 'string',
      description: 'An evidence file (repeat for each: run, diffcov, mutation, oracle)',
      valueHint: 'FILE',
    },
    policy: {
      type: 'string',
      description: "The policy (adversary-gate.json from the baseline); default: DESIGN.md's defaults",
      valueHint: 'FILE',
    },
    markdown: outputFlag(
      'Also write the reviewer page (verdict, reasons, coverage per file, surviving mutants, test deltas, oracle findings) here',
    ),
    annotations: {
      type: 'boolean',
      description:
        'Print GitHub workflow commands (::error file=…,line=…::) on stdout: the verdict first, then the findings, errors first, at most 10 ::error/::warning lines (the 10th says how many more are in verdict.md)',
    },
    log: outputFlag('Append one evidence-log record (JSONL) here; needs --model'),
    model: { type: 'string', description: 'The model whose patch this is, for --log', valueHint: 'NAME' },
    'baseline-tree': {
      type: 'string',
      description:
        "The baseline tree's git id (git rev-parse BASE^{tree}): evidence that measured another tree is stale",
      valueHint: 'ID',
    },
    'patch-tree': {
      type: 'string',
      description: "The patch tree's git id (git rev-parse HEAD^{tree}): evidence that measured another tree is stale",
      valueHint: 'ID',
    },
    'pipeline-fault': {
      type: 'string',
      description:
        'A step the pipeline could not do (an install that failed, a runner it could not find), in one line: a HOLD (PIPELINE_FAULT) that names it (repeat for each)',
      valueHint: 'TEXT',
    },
    ...sharedArgs,
    out: {
      ...sharedArgs.out,
      description: 'Where to write verdict.json (a regular file there is deleted first, whatever happens next)',
      required: true,
    },
  },
  async run({ args, rawArgs }) {
    const logFile = optionalArg(args.log, 'log');
    const model = optionalArg(args.model, 'model');
    if ((logFile === undefined) !== (model === undefined)) throw new UsageError('--log and --model go together');
    const out = requiredArg(args.out, 'out');
    if (out === '-' && args.annotations === true)
      throw new UsageError('--annotations and --out - both write to stdout; choose one');
    const trees = {
      baseline: treeArg(args['baseline-tree'], 'baseline-tree'),
      patch: treeArg(args['patch-tree'], 'patch-tree'),
    };
    const verdict = await runDecision({
      diff: requiredArg(args.diff, 'diff'),
      evidence: repeatedArg(rawArgs, 'evidence'),
      policy: optionalArg(args.policy, 'policy'),
      out,
      annotations: args.annotations === true,
      markdown: optionalArg(args.markdown, 'markdown'),
      log: logFile !== undefined && model !== undefined ? { file: logFile, model } : undefined,
      tool: { name, version },
      trees,
      pipelineFaults: faultArgs(repeatedArg(rawArgs, 'pipeline-fault')),
    });
    if (!args.quiet) {
      const codes = [...new Set(verdict.reasons.map((r) => r.code))].join(', ');
      process.stderr.write(`${name}: ${verdict.verdict}${codes ? ` (${codes})` : ''}\n`);
    }
    return exitCodeOf(verdict.verdict);
  },
});

const checkCommand = defineCommand({
  meta: {
    name: 'check',
    description:
      'The CI required check: exit 0 only when VERDICT exists, validates, reads ACCEPT and (with --diff) judged that diff; 1 for REJECT, 2 otherwise.',
  },
  args: {
    verdict: { type: 'positional', description: 'The verdict.json to check', required: true },
    diff: { type: 'string', description: 'Require the verdict to be bound to this diff', valueHint: 'FILE' },
    quiet: sharedArgs.quiet,
    verbose: sharedArgs.verbose,
  },
  async run({ args }) {
    const diffFile = optionalArg(args.diff, 'diff');
    const diff = diffFile === undefined ? undefined : await readDiff(diffFile);
    const result = await checkVerdict(String(args.verdict), diff?.sha256);
    (result.code === 0 ? process.stdout : process.stderr).write(`${name} check: ${result.line}\n`);
    return result.code;
  },
});

const statsFormat = choiceFlag(['table', 'json'], 'Output format: table or json (default table)', 'FORMAT');

const statsCommand = defineCommand({
  meta: {
    name: 'stats',
    description: 'Per-model figures over an evidence log: verdict counts, reasons, self_deception_index.',
  },
  args: {
    log: { type: 'positional', description: 'The JSONL evidence log written with --log', required: true },
    format: statsFormat,
    quiet: sharedArgs.quiet,
    verbose: sharedArgs.verbose,
  },
  async run({ args }) {
    const stats = computeStats(await readLog(String(args.log)));
    const format = choiceArg(args.format, 'format', statsFormat) ?? 'table';
    process.stdout.write(format === 'json' ? `${JSON.stringify(stats, null, 2)}\n` : statsTable(stats));
    return 0;
  },
});

// `--out` is deleted before anything else (a regular file only), so no stale verdict survives a bad invocation.
await main({
  name,
  version,
  main: decideCommand,
  subCommands: { check: checkCommand, stats: statsCommand },
  repeatable: ['evidence', 'pipeline-fault'],
  clearFirst: ['out'],
});
