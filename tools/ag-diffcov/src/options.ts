/**
 * ag-diffcov's flags, and the checks that turn them into one consistent set of options.
 * @module
 */
import {
  choiceArg,
  choiceFlag,
  numberArg,
  optionalArg,
  outputFlag,
  repeatedArg,
  requiredArg,
  sharedArgs,
  UsageError,
} from '@adversary-gate/core';
import type { ArgsDef } from 'citty';
import type { FormatChoice } from './reports/read.js';
import type { CoverageSource, DiffcovOptions } from './diffcov.js';

export const FORMATS = ['auto', 'lcov', 'istanbul', 'coveragepy', 'cobertura', 'jacoco', 'go', 'llvm'] as const;
const SOURCES = ['computed', 'untrusted', 'none'] as const;

/** The flags, declared once. */
export const diffcovArgs = {
  diff: {
    type: 'string',
    description: 'The unified diff to measure (`-` for stdin)',
    valueHint: 'FILE',
    required: true,
  },
  coverage: {
    type: 'string',
    description: 'A coverage report (repeat to merge several: a line run in any report is covered)',
    valueHint: 'FILE',
  },
  format: choiceFlag(
    FORMATS,
    `Report format: ${FORMATS.join('|')} (default auto: recognised by content, per report)`,
    'FORMAT',
  ),
  root: {
    type: 'string',
    description:
      'The directory the diff paths are relative to, as the reports name it (absolute report paths under it become relative)',
    valueHint: 'DIR',
  },
  tree: {
    type: 'string',
    description:
      'The patch tree (the checkout the diff leads to): each changed source file is read there for coverage-ignore pragmas around its changed lines (without it, only pragmas on added lines are seen)',
    valueHint: 'DIR',
  },
  'coverage-source': choiceFlag(
    SOURCES,
    'computed (with --coverage), untrusted (with --coverage-ratio) or none (no report: ratio null)',
    'SOURCE',
  ),
  'coverage-ratio': {
    type: 'string',
    description: 'A ratio in [0,1] the caller asserts; needs --coverage-source untrusted',
    valueHint: 'R',
  },
  policy: {
    type: 'string',
    description: 'Policy file whose "files" globs override the test / not-code classes',
    valueHint: 'FILE',
  },
  markdown: outputFlag('Also write a Markdown summary here'),
  sarif: outputFlag('Also write SARIF 2.1.0 (one result per uncovered range) here'),
  ...sharedArgs,
  out: { ...sharedArgs.out, description: 'Where to write diffcov.json (`-` for stdout)', required: true },
} as const satisfies ArgsDef;

/** Outputs besides the artefact. */
export interface Outputs {
  readonly out: string;
  readonly markdown: string | undefined;
  readonly sarif: string | undefined;
}

/** Check the flags and build the options. @throws UsageError */
export function parseOptions(
  args: Record<string, unknown>,
  rawArgs: readonly string[],
  tool: DiffcovOptions['tool'],
): { options: DiffcovOptions; outputs: Outputs } {
  const coverage = repeatedArg(rawArgs, 'coverage');
  const format = choiceArg(args.format, 'format', diffcovArgs.format) ?? 'auto';
  const sourceFlag = choiceArg(args['coverage-source'], 'coverage-source', diffcovArgs['coverage-source']);
  const ratio = numberArg(args['coverage-ratio'], 'coverage-ratio', 0, 1) ?? null;
  const source: CoverageSource =
    sourceFlag ?? (coverage.length > 0 ? 'computed' : ratio !== null ? 'untrusted' : 'none');
  if (ratio !== null && sourceFlag !== 'untrusted')
    throw new UsageError('--coverage-ratio is a number the caller asserts: it needs --coverage-source untrusted');
  if (source === 'untrusted' && ratio === null)
    throw new UsageError('--coverage-source untrusted needs --coverage-ratio');
  if (source !== 'computed' && coverage.length > 0)
    throw new UsageError(`--coverage contradicts --coverage-source ${source}`);
  if (source === 'computed' && coverage.length === 0)
    throw new UsageError('--coverage-source computed needs at least one --coverage report');
  if (source !== 'computed' && (args.format !== undefined || args.root !== undefined))
    throw new UsageError('--format and --root apply only to --coverage reports');
  const outputs: Outputs = {
    out: requiredArg(args.out, 'out'),
    markdown: optionalArg(args.markdown, 'markdown'),
    sarif: optionalArg(args.sarif, 'sarif'),
  };
  if ([outputs.out, outputs.markdown, outputs.sarif].filter((o) => o === '-').length > 1)
    throw new UsageError('only one output can go to stdout (`-`)');
  return {
    options: {
      diff: requiredArg(args.diff, 'diff'),
      coverage,
      format: format satisfies FormatChoice,
      root: optionalArg(args.root, 'root') ?? null,
      source,
      ratio,
      policy: optionalArg(args.policy, 'policy') ?? null,
      tree: optionalArg(args.tree, 'tree') ?? null,
      tool,
    },
    outputs,
  };
}
