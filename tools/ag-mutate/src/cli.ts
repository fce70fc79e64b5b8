import { defineCommand } from 'citty';
import { main, packageVersion } from '@adversary-gate/core';
import { writeArtefact, type MutationArtefact } from '@adversary-gate/schemas';
import { runImport, runMerge, runMutate } from './commands.js';
import {
  importArgs,
  mergeArgs,
  mutateArgs,
  parseImportFlags,
  parseMergeFlags,
  parseMutateFlags,
  REPEATABLE_FLAGS,
  type OutputFlags,
} from './options.js';
import { progressReporter } from './progress.js';
import { canaryLines, probeLines, revertLines, summaryLine, survivorLines } from './summary.js';

const name = 'ag-mutate';
const version = packageVersion(import.meta.url);

/** Write the artefact, then (unless quiet) its summary and survivors on stderr. */
async function finish(flags: OutputFlags, artefact: MutationArtefact): Promise<number> {
  await writeArtefact(flags.out, artefact);
  if (!flags.quiet)
    process.stderr.write(
      summaryLine(artefact) +
        canaryLines(artefact) +
        probeLines(artefact) +
        survivorLines(artefact, flags.verbose) +
        revertLines(artefact),
    );
  return 0;
}

const mutateCommand = defineCommand({
  meta: {
    name,
    version,
    description:
      'Would the tests notice if the changed lines were wrong? Mutates the lines a diff added, runs the tests on each mutant in an isolated copy of the tree, writes mutation.json. Sub-commands: merge, import.',
  },
  args: mutateArgs,
  async run({ args, rawArgs }) {
    const flags = parseMutateFlags(args, rawArgs, process.stderr.isTTY === true);
    const progress = flags.progress ? progressReporter((line) => process.stderr.write(line)) : undefined;
    return finish(flags, await runMutate(flags, progress));
  },
});

const mergeCommand = defineCommand({
  meta: {
    name: 'merge',
    description: 'Merge the shards of one run (every K of N, once each, same diff and options) into one mutation.json.',
  },
  args: mergeArgs,
  async run({ args }) {
    const flags = parseMergeFlags(args);
    return finish(flags, await runMerge(flags));
  },
});

const importCommand = defineCommand({
  meta: {
    name: 'import',
    description:
      'Turn a mutation-testing-report JSON (StrykerJS) into mutation.json, filtered to the lines the diff added.',
  },
  args: importArgs,
  async run({ args }) {
    const flags = parseImportFlags(args);
    return finish(flags, await runImport(flags));
  },
});

await main({
  name,
  version,
  main: mutateCommand,
  subCommands: { merge: mergeCommand, import: importCommand },
  repeatable: REPEATABLE_FLAGS,
});
