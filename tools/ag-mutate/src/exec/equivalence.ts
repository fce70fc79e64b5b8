/**
 * The differential check of surviving Python mutants (ag_mutate_equiv.py): one more run of
 * the tests that cover them, on the unmutated tree, that records the calls their functions
 * get and then calls each version of each function on those calls and on neighbours of them.
 * A survivor whose function gives the same outcome on every input becomes `equivalent`; one
 * that some input tells apart stays a survivor, with that input as its evidence. Only
 * survivors are asked, only with pytest's per-test selection, only in a named function: any
 * other case, and any failure of the check, leaves the mutant a survivor.
 * @module
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { applySite, type Site } from '../engines/site.js';
import { EquivalenceAnswers, type EquivalenceAnswer } from '../records/equivalence.js';
import { readRecord } from '../records/read.js';
import { pytestPluginEnv } from './instrument.js';
import type { MutantContext, MutantVerdict } from './mutant-run.js';
import { orderTests, type TestUnit } from './test-map.js';

/** The time one version of a function may take on all its inputs (s), as ag_mutate_equiv.py allows it. */
const VERSION_SECONDS = 30;

/** A survivor the check can ask about: a real pass (no odd ending), in a named function of a Python file; never a canary. */
function askable(site: Site, verdict: MutantVerdict): boolean {
  return (
    site.canary !== true &&
    verdict.status === 'survived' &&
    verdict.unjudged !== true &&
    (verdict.ended ?? null) === null &&
    site.function != null &&
    site.file.endsWith('.py')
  );
}

/**
 * Ask about every askable survivor in one run in copy `w`. Returns the answer per site index;
 * empty when there is nothing to ask, the runner is not pytest with a per-test map, or the run
 * left no readable answer.
 */
export async function checkEquivalence(
  ctx: MutantContext,
  w: number,
  sites: readonly Site[],
  verdicts: readonly MutantVerdict[],
): Promise<Map<number, EquivalenceAnswer>> {
  const out = new Map<number, EquivalenceAnswer>();
  if (ctx.opts.runner?.name !== 'pytest' || ctx.map?.mode !== 'per-test') return out;
  const asked = sites.flatMap((site, i) => (askable(site, verdicts[i]!) ? [i] : []));
  const tests = new Map<string, TestUnit>();
  const functions = new Map<string, { file: string; qualname: string; mutants: { id: string; text: string }[] }>();
  const root = ctx.ws.copies[w]!.root;
  for (const i of asked) {
    const site = sites[i]!;
    const cov = ctx.map.coverers(site);
    if (cov.kind !== 'tests') continue;
    for (const t of orderTests(cov.tests, site.file)) tests.set(t.id, t);
    const key = `${site.file}\0${site.function}`;
    const f = functions.get(key) ?? { file: path.join(root, site.file), qualname: site.function!, mutants: [] };
    functions.set(key, f);
    f.mutants.push({ id: String(i), text: applySite(ctx.texts.get(site.file)!, site) });
  }
  if (functions.size === 0) return out;
  const dir = ctx.ws.scratch(`equivalence${w}`);
  const spec = path.join(dir, 'spec.json');
  const answer = path.join(dir, 'answer.json');
  writeFileSync(spec, JSON.stringify({ out: answer, functions: [...functions.values()] }));
  const select = path.join(dir, 'tests.txt');
  writeFileSync(select, [...tests.keys()].map((id) => `${id}\n`).join(''));
  const versions = [...functions.values()].reduce((a, f) => a + 2 + f.mutants.length, 0);
  const command = ctx.opts.mutantCommand ?? ctx.opts.command;
  await ctx.ws.run(w, command, ctx.timeoutMs + versions * VERSION_SECONDS * 1000, {
    ...pytestPluginEnv(ctx.opts.passEnv),
    AG_MUTATE_SELECT: select,
    AG_MUTATE_EQUIV: spec,
  });
  ctx.ws.copies[w]!.restore();
  const parsed = readRecord(EquivalenceAnswers, answer);
  if (parsed === null) return out;
  for (const i of asked) {
    const a = parsed.mutants[String(i)];
    if (a !== undefined) out.set(i, a);
  }
  return out;
}
