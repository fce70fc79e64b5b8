import { rmSync } from 'node:fs';
import { defineCommand } from 'citty';
import { main, optionalArg, packageVersion, readDiff, repeatedArg, requiredArg, sharedArgs, UsageError } from '@adversary-gate/core';
import { checkVerdict } from './check.js';
import { exitCodeOf, runDecision } from './run-decision.js';
import { computeStats, readLog, statsTable } from './stats.js';

const name = 'ag-decide';
const version = packageVersion(import.meta.url);

const decideCommand = defineCommand({
  meta: {
    name,
    version,
    description: 'The only writer of verdict.json: reads the evidence, applies the policy, decides ACCEPT (exit 0), REJECT (1) or HOLD (2). Sub-commands: check, stats.',
  },
  args: {
    diff: { type: 'string', description: 'The unified diff every evidence file must be bound to (`-` for stdin)', valueHint: 'FILE', required: true },
    evidence: { type: 'string', description: 'An evidence file (repeat for each: run, diffcov, mutation, oracle)', valueHint: 'FILE' },
    policy: { type: 'string', description: "The policy (adversary-gate.json from the baseline); default: DESIGN.md's defaults", valueHint: 'FILE' },
    markdown: { type: 'string', description: 'Also write the reviewer page (verdict, reasons, coverage per file, surviving mutants, test deltas, oracle findings) here', valueHint: 'FILE' },
    annotations: { type: 'boolean', description: 'Print GitHub workflow commands (::error file=…,line=…::) for every finding on stdout' },
    log: { type: 'string', description: 'Append one evidence-log record (JSONL) here; needs --model', valueHint: 'FILE' },
    model: { type: 'string', description: 'The model whose patch this is, for --log', valueHint: 'NAME' },
    ...sharedArgs,
    out: { ...sharedArgs.out, description: 'Where to write verdict.json (deleted first, whatever happens next)', required: true },
  },
  async run({ args, rawArgs }) {
    const logFile = optionalArg(args.log, 'log');
    const model = optionalArg(args.model, 'model');
    if ((logFile === undefined) !== (model === undefined)) throw new UsageError('--log and --model go together');
    const out = requiredArg(args.out, 'out');
    if (out === '-' && args.annotations === true) throw new UsageError('--annotations and --out - both write to stdout; choose one');
    const verdict = await runDecision({
      diff: requiredArg(args.diff, 'diff'),
      evidence: repeatedArg(rawArgs, 'evidence'),
      policy: optionalArg(args.policy, 'policy'),
      out,
      annotations: args.annotations === true,
      markdown: optionalArg(args.markdown, 'markdown'),
      log: logFile !== undefined && model !== undefined ? { file: logFile, model } : undefined,
      tool: { name, version },
    });
    if (!args.quiet) {
      const codes = [...new Set(verdict.reasons.map((r) => r.code))].join(', ');
      process.stderr.write(`${name}: ${verdict.verdict}${codes ? ` (${codes})` : ''}\n`);
    }
    return exitCodeOf(verdict.verdict);
  },
});

const checkCommand = defineCommand({
  meta: { name: 'ag-decide check', description: 'The CI required check: exit 0 only when VERDICT exists, validates, reads ACCEPT and (with --diff) judged that diff; 1 for REJECT, 2 otherwise.' },
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

const statsCommand = defineCommand({
  meta: { name: 'ag-decide stats', description: 'Per-model figures over an evidence log: verdict counts, reasons, self_deception_index.' },
  args: {
    log: { type: 'positional', description: 'The JSONL evidence log written with --log', required: true },
    format: { type: 'enum', options: ['table', 'json'], default: 'table', description: 'Output format' },
    quiet: sharedArgs.quiet,
    verbose: sharedArgs.verbose,
  },
  async run({ args }) {
    const stats = computeStats(await readLog(String(args.log)));
    process.stdout.write(args.format === 'json' ? `${JSON.stringify(stats, null, 2)}\n` : statsTable(stats));
    return 0;
  },
});

/** Delete `--out` before anything else, so no stale verdict survives a bad invocation. */
function deleteOutFirst(argv: readonly string[]): void {
  if (argv[0] === 'check' || argv[0] === 'stats') return;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const target = a === '--out' ? argv[i + 1] : a.startsWith('--out=') ? a.slice(6) : undefined;
    if (target !== undefined && target !== '-' && target !== '') rmSync(target, { force: true });
  }
}

try {
  deleteOutFirst(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${name}: cannot delete the existing --out file: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 3;
}
if (process.exitCode === undefined) await main({ name, version, main: decideCommand, subCommands: { check: checkCommand, stats: statsCommand }, repeatable: ['evidence'] });
