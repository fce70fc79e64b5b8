import { defineCommand } from 'citty';
import { main, packageVersion } from '@adversary-gate/core';
import { writeArtefact } from '@adversary-gate/schemas';
import { runGate } from './gate.js';
import { parseRunOptions, REPEATABLE_FLAGS, runArgs } from './options.js';

const version = packageVersion(import.meta.url);

const command = defineCommand({
  meta: {
    name: 'ag-run',
    version,
    description:
      'Run the claim commands and the full suite on the baseline and the patch, each in a throwaway copy, and record what really happened in run.json.',
  },
  args: runArgs,
  async run({ args, rawArgs }) {
    const opts = parseRunOptions(args, rawArgs);
    const artefact = await runGate(opts, { name: 'ag-run', version });
    await writeArtefact(opts.out, artefact);
    if (!args.quiet && (process.stderr.isTTY || args.verbose === true)) {
      const counts = artefact.claims.map((c) => `${c.id} ${c.status} (${c.class})`).join(', ');
      process.stderr.write(
        `ag-run: ${counts || 'no claim ran'}; full suite ${artefact.full_suite.baseline?.outcome ?? '-'} → ${artefact.full_suite.patch?.outcome ?? '-'}; wrote ${opts.out}\n`,
      );
    }
    return 0;
  },
});

await main({ name: 'ag-run', version, main: command, repeatable: REPEATABLE_FLAGS });
