import { defineCommand } from 'citty';
import {
  directoryFlag,
  main,
  optionalArg,
  packageVersion,
  requiredArg,
  sharedArgs,
  UsageError,
} from '@adversary-gate/core';
import { writeArtefact } from '@adversary-gate/schemas';
import { measureOracle } from './oracle.js';
import { isRealDate, todayUtc } from './today.js';

const name = 'ag-oracle';
const version = packageVersion(import.meta.url);

const command = defineCommand({
  meta: {
    name,
    version,
    description:
      "Did the patch touch what it must not? Reports protected paths touched, fixture drift, the flake freeze list and test tampering, judged under the baseline's policy; writes oracle.json and exits 0 (3 on bad arguments or unreadable inputs).",
  },
  args: {
    diff: {
      type: 'string',
      description: 'The unified diff of the patch (`-` for stdin)',
      valueHint: 'FILE',
      required: true,
    },
    baseline: { ...directoryFlag('The trusted baseline tree (its adversary-gate.json is the policy)'), required: true },
    patch: { ...directoryFlag('The patched tree (never trusted, its policy never read)'), required: true },
    policy: {
      type: 'string',
      description: "A policy file outside the patch tree, instead of the baseline's adversary-gate.json",
      valueHint: 'FILE',
    },
    today: {
      type: 'string',
      description: 'The date freeze entries expire against (default: today, UTC)',
      valueHint: 'YYYY-MM-DD',
    },
    ...sharedArgs,
    out: { ...sharedArgs.out, description: 'Where to write oracle.json (`-` for stdout)', required: true },
  },
  async run({ args }) {
    const today = optionalArg(args.today, 'today') ?? todayUtc();
    if (!isRealDate(today)) throw new UsageError(`--today must be a real date as YYYY-MM-DD, got "${today}"`);
    const out = requiredArg(args.out, 'out');
    const artefact = await measureOracle({
      diff: requiredArg(args.diff, 'diff'),
      baseline: requiredArg(args.baseline, 'baseline'),
      patch: requiredArg(args.patch, 'patch'),
      policy: optionalArg(args.policy, 'policy'),
      today,
      tool: { name, version },
    });
    await writeArtefact(out, artefact);
    if (!args.quiet && args.verbose) {
      const counts = `${artefact.oracle_touched.length} protected, ${artefact.fixtures.filter((f) => f.expected !== f.actual).length} drifted, ${artefact.tampering.length} tampering, ${artefact.faults.length} faults`;
      process.stderr.write(`${name}: wrote ${out} (${counts})\n`);
    }
    return 0;
  },
});

await main({ name, version, main: command });
