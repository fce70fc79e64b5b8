/**
 * Equality probes: every equality hook the patch adds or changes in a changed file (a
 * JavaScript/TypeScript class method `equals`, `isEqual` or `equal`: js-hooks.ts; a Python
 * `__eq__`: py-hooks.ts) made strict, judged exactly as a mutant is (same copies, command,
 * environment and selection of the tests that run the hook) and never counted toward the
 * strength, as the canaries are. The probe answers "not equal" wherever the strict comparison
 * (the baseline's own hook where there is one, else every field) tells the values apart, and
 * the patch's own answer elsewhere: a test that fails on it passes only because the hook
 * equates values that differ. Killed (or timed out): ag-decide holds `EQUALITY_LOOSENED`;
 * survived: nothing to say; stillborn (it did not compile or load, or no probe could be built
 * for the hook) or not run (past {@link PROBE_LIMIT}): an `EQUALITY_PROBE_UNJUDGED` fault.
 * @module
 */
import { createHash } from 'node:crypto';
import type { BoundDiff } from '@adversary-gate/core';
import type { EqualityProbe, MutationArtefact } from '@adversary-gate/schemas';
import { baselineTexts } from '../changed-texts.js';
import type { MutableFile } from '../changes.js';
import { shorten, type Site } from '../engines/site.js';
import type { MutantVerdict } from '../exec/mutant-run.js';
import { failedOnIt, judgedFields } from '../judged-record.js';
import { shardSites, type Shard } from '../select.js';
import { jsProbes } from './js-hooks.js';
import { pyProbes } from './py-hooks.js';

/** The most probes one run judges: each is one more mutant's runs. */
export const PROBE_LIMIT = 16;

type Fault = MutationArtefact['faults'][number];

/** The probes this run judges, and how to record them (with those past the limit) once judged. */
export interface ProbePlan {
  readonly run: readonly Site[];
  records(verdicts: ReadonlyMap<Site, MutantVerdict>): EqualityProbe[];
}

/**
 * Plan the probes of the changed files `files` (their texts in `texts`): every hook's probe,
 * the first {@link PROBE_LIMIT} in file and line order run, the shard's share of them. A Python
 * interpreter that cannot list them is a fault: the hooks of those files go unprobed.
 */
export async function planProbes(
  files: readonly MutableFile[],
  texts: ReadonlyMap<string, string>,
  diff: BoundDiff,
  python: string,
  shard: Shard | null,
  faults: Fault[],
): Promise<ProbePlan> {
  const baselines = baselineTexts(files, texts, diff);
  const all: Site[] = [];
  for (const f of files)
    if (f.language === 'js') all.push(...jsProbes(f.path, texts.get(f.path)!, baselines.get(f.path) ?? null, f.lines));
  const py = files.filter((f) => f.language === 'python');
  try {
    all.push(
      ...(await pyProbes(
        python,
        py.map((f) => ({
          path: f.path,
          text: texts.get(f.path)!,
          baseline: baselines.get(f.path) ?? null,
          lines: f.lines,
        })),
      )),
    );
  } catch (e) {
    faults.push({
      code: 'EQUALITY_PROBE_UNJUDGED',
      message: `the equality hooks of the changed Python files could not be listed (${e instanceof Error ? e.message : String(e)}): whether a test relies on a loosened __eq__ is not measured`,
    });
  }
  all.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.probe!.line - b.probe!.line));
  const run = shardSites(all.slice(0, PROBE_LIMIT), shard);
  const notRun = shardSites(all.slice(PROBE_LIMIT), shard);
  return {
    run,
    records: (verdicts) => [
      ...run.map((site) => probeRecord(site, verdicts.get(site))),
      ...notRun.map((site) => probeRecord(site, undefined)),
    ],
  };
}

/** A probe's stable id: file, hook and replacement. */
function probeId(site: Site): string {
  const h = createHash('sha256')
    .update(`equality-probe\0${site.file}\0${site.probe!.hook}\0${site.probe!.line}\0${site.replacement}`)
    .digest('hex');
  return `e${h.slice(0, 16)}`;
}

/** A probe as mutation.json records it (`verdict` undefined: not run, past the limit). */
export function probeRecord(site: Site, verdict: MutantVerdict | undefined): EqualityProbe {
  const p = site.probe!;
  return {
    id: probeId(site),
    file: site.file,
    line: p.line,
    column: p.column,
    hook: p.hook,
    comparison: p.comparison,
    ...(p.fields !== undefined ? { fields: [...p.fields] } : {}),
    original: site.original,
    replacement: shorten(site.replacement),
    ...judgedFields(verdict),
  };
}

/** How a probe is named in a message: the hook and where it is defined. */
export function probeName(p: Pick<EqualityProbe, 'file' | 'line' | 'hook'>): string {
  return `${p.file}:${p.line} ${p.hook}()`;
}

/**
 * The faults of the probes that measured nothing: one `EQUALITY_PROBE_UNJUDGED` each that was
 * stillborn, not run, or whose run could not start (`unjudged`: their sites' verdicts said so).
 */
export function probeFaults(records: readonly EqualityProbe[], unjudged: ReadonlySet<string>): Fault[] {
  return records.flatMap((p) => {
    const why =
      p.status === 'stillborn'
        ? 'did not compile or load here (or no strict comparison could be built for it)'
        : p.status === 'not_run'
          ? `was not run (past the run's ${PROBE_LIMIT} probes)`
          : unjudged.has(p.id)
            ? 'could not be judged (a run that could not start)'
            : null;
    return why === null
      ? []
      : [
          {
            code: 'EQUALITY_PROBE_UNJUDGED',
            message: `the equality probe of ${probeName(p)} ${why}: whether a test passes only because the hook equates values that differ is not measured`,
          },
        ];
  });
}

/** One stderr line per probe that was killed or timed out. */
export function probeKilledLine(p: EqualityProbe): string {
  const { verb, by } = failedOnIt(p);
  return `equality probe of ${probeName(p)} was ${verb}: ${by}; with the hook made strict (${p.comparison === 'baseline' ? "the baseline's comparison" : 'every field compared'}) a test fails, so it passes only because the hook equates values that differ`;
}
