import { defineCommand } from 'citty';
import { main, packageVersion } from '@adversary-gate/core';
import { writeArtefact, writeAtomic } from '@adversary-gate/schemas';
import { runDiffcov } from './diffcov.js';
import { diffcovArgs, parseOptions } from './options.js';
import { headline, renderMarkdown } from './render/markdown.js';
import { renderSarif } from './render/sarif.js';

const name = 'ag-diffcov';
const version = packageVersion(import.meta.url);

/** Thin adapter: flags → runDiffcov → artefact (and the optional Markdown and SARIF). */
const command = defineCommand({
  meta: {
    name,
    version,
    description:
      'Were the changed lines executed? Measures diff coverage from a unified diff and coverage reports and writes diffcov.json (exit 0), or exit 3 on bad arguments or an unreadable input.',
  },
  args: diffcovArgs,
  async run({ args, rawArgs }) {
    const { options, outputs } = parseOptions(args, rawArgs, { name, version });
    const artefact = await runDiffcov(options);
    await writeArtefact(outputs.out, artefact);
    if (outputs.markdown !== undefined) await writeAtomic(outputs.markdown, renderMarkdown(artefact));
    if (outputs.sarif !== undefined)
      await writeAtomic(outputs.sarif, `${JSON.stringify(renderSarif(artefact, { name, version }), null, 2)}\n`);
    if ((args.verbose || process.stderr.isTTY) && !args.quiet) {
      const extra =
        artefact.faults.length > 0
          ? ` (${artefact.faults.length} fault(s): ${artefact.faults.map((f) => f.code).join(', ')})`
          : '';
      process.stderr.write(`${name}: ${headline(artefact).replace(/\*\*/g, '')}${extra}\n`);
    }
    return 0;
  },
});

await main({ name, version, main: command, repeatable: ['coverage'] });
