/**
 * Python functions judged apart from the tests: one more run of the tests that cover the
 * changed functions (pytest's per-test selection, on the unmutated tree) records the calls
 * they make into them (ag_mutate_record.py: arguments pickled on entry, repeats kept, in
 * order, capped); then a fresh interpreter that is not pytest (ag_mutate_judge.py, the tests'
 * own interpreter, run in the same copy with the same uid, environment and limits as every
 * run) imports each module afresh and measures what two questions need, which the rules of
 * apart/rules.ts (read through apart/py-evidence.ts) answer, as they do for JavaScript:
 *
 * - the survivors' differential check: a survivor whose function gives the same outcome on
 *   every recorded call and every neighbour of them becomes `equivalent`; one that some input
 *   tells apart stays a survivor, with that input as its evidence;
 * - the behaviour footprint of every changed function a test covers: state the patch added
 *   (the same call answering differently twice), behaviour that needs the test runner, and a
 *   change whose answers differ from the baseline's only at the tests' exact inputs.
 *
 * Any failure of either leaves the survivors survivors; a footprint that could not be measured
 * says so (`not_measured`), never clean.
 * @module
 */
import { writeFileSync } from 'node:fs';
import { readInside } from '@adversary-gate/core';
import path from 'node:path';
import type { Footprint, FootprintFunction } from '@adversary-gate/schemas';
import { pythonFootprint, pythonVerdicts } from '../apart/py-evidence.js';
import { MIN_CALLS, type EquivalenceAnswer } from '../apart/rules.js';
import { applySite, type Site } from '../engines/site.js';
import { JudgeAnswer } from '../records/judge.js';
import { parseRecord } from '../records/read.js';
import { PYTEST_PLUGIN_DIR } from '../package-files.js';
import { pytestPluginEnv } from './instrument.js';
import type { MutantContext, MutantVerdict } from './mutant-run.js';
import { orderTests, type TestUnit } from './test-map.js';

/** The time one version of a function may take on all its inputs (s), as ag_mutate_equiv.py allows it. */
const VERSION_SECONDS = 30;
/** The forked versions the footprint runs per function (state twice and the baseline's, the module again thrice, baseline and patch, a replaced collaborator twice). */
const FOOTPRINT_VERSIONS = 10;
const JUDGE = path.join(PYTEST_PLUGIN_DIR, 'ag_mutate_judge.py');

/** What the judge answered: the survivors' answers by site index, the footprint (absent: no changed Python function), and the time of each step. */
export interface ApartResult {
  readonly answers: Map<number, EquivalenceAnswer>;
  readonly footprint?: Footprint;
  readonly phases: Record<string, number>;
}

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

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

interface Asked {
  file: string;
  rel: string;
  qualname: string;
  baseline: string | null;
  footprint: boolean;
  mutants: { id: string; text: string }[];
  tests: Map<string, TestUnit>;
  /** Some site of it was judged: the map knows its tests (or that none runs it). */
  judged?: boolean;
}

/**
 * Record and judge, in copy `w`: the survivors when `equivalence`, and the footprint of every
 * named Python function that holds a judged site or a changed line (`changedFunctions`).
 * `baselines`: each changed file's baseline text (null: added).
 */
export async function judgeApart(
  ctx: MutantContext,
  w: number,
  sites: readonly Site[],
  verdicts: readonly MutantVerdict[],
  baselines: ReadonlyMap<string, string | null>,
  equivalence: boolean,
): Promise<ApartResult> {
  const answers = new Map<number, EquivalenceAnswer>();
  const phases: Record<string, number> = {};
  const changed = (ctx.opts.changedFunctions ?? []).filter((c) => c.file.endsWith('.py'));
  const python = sites.filter((s) => s.function != null && s.file.endsWith('.py'));
  if (python.length === 0 && changed.length === 0) return { answers, phases };
  const none = (status: Footprint['status'], note: string): ApartResult => ({
    answers,
    phases,
    footprint: { status, note, functions: [] },
  });
  if (ctx.opts.runner?.name !== 'pytest' || ctx.map?.mode !== 'per-test')
    return none('not_applicable', 'measured for Python under pytest with a per-test map only; this run had none');
  const root = ctx.ws.copies[w]!.root;
  const functions = new Map<string, Asked>();
  const entry = (file: string, qualname: string) => {
    const key = `${file}\0${qualname}`;
    let f = functions.get(key);
    if (f === undefined) {
      f = {
        file: path.join(root, file),
        rel: file,
        qualname,
        baseline: baselines.get(file) ?? null,
        footprint: false,
        mutants: [],
        tests: new Map(),
      };
      functions.set(key, f);
    }
    return f;
  };
  // The tests of a function: those that run its judged sites. A changed function none of whose
  // sites was judged (a mutant budget) has no known tests: then the whole suite records.
  let whole = false;
  for (const site of python) {
    const cov = ctx.map.coverers(site);
    const own = entry(site.file, site.function!);
    own.footprint = true;
    own.judged = true;
    if (cov.kind === 'tests') for (const t of orderTests(cov.tests, site.file)) own.tests.set(t.id, t);
    else if (cov.kind === 'unknown') whole = true;
  }
  for (const c of changed) {
    const f = entry(c.file, c.function);
    f.footprint = true;
    if (f.judged !== true) whole = true;
  }
  if (equivalence)
    sites.forEach((site, i) => {
      if (!askable(site, verdicts[i]!) || ctx.map!.coverers(site).kind !== 'tests') return;
      entry(site.file, site.function!).mutants.push({
        id: String(i),
        text: applySite(ctx.texts.get(site.file)!, site),
      });
    });
  const tests = new Map<string, TestUnit>();
  for (const f of functions.values())
    if (f.footprint || f.mutants.length > 0) for (const [id, t] of f.tests) tests.set(id, t);
  const asked = [...functions.values()].filter((f) => f.footprint || f.mutants.length > 0);
  if (asked.length === 0) return none('not_applicable', 'no changed function is named');

  const dir = ctx.ws.scratch(`apart${w}`);
  const record = path.join(dir, 'calls.pkl');
  const recordSpec = path.join(dir, 'record.json');
  writeFileSync(
    recordSpec,
    JSON.stringify({ out: record, functions: asked.map((f) => ({ file: f.file, qualname: f.qualname })) }),
  );
  const select = path.join(dir, 'tests.txt');
  writeFileSync(select, [...tests.keys()].map((id) => `${id}\n`).join(''));
  const t0 = performance.now();
  const command = ctx.opts.mutantCommand ?? ctx.opts.command;
  const recorded = await ctx.ws.run(w, command, whole ? ctx.opts.baselineTimeoutMs : ctx.timeoutMs, {
    ...pytestPluginEnv(ctx.opts.passEnv),
    ...(whole ? {} : { AG_MUTATE_SELECT: select }),
    AG_MUTATE_RECORD: recordSpec,
  });
  if (whole) phases.footprint_record_whole_suite = 1;
  ctx.ws.copies[w]!.restore();
  phases.footprint_record_ms = Math.round(performance.now() - t0);
  const executable = recordedExecutable(dir, 'calls.pkl.json');
  if (executable === null) {
    const how = recorded.timedOut ? 'timed out' : `ended with exit ${recorded.exitCode ?? recorded.signal ?? '?'}`;
    return none('not_measured', `the recording run of the covering tests left no record of the calls (it ${how})`);
  }
  const answer = path.join(dir, 'answer.json');
  const judgeSpec = path.join(dir, 'judge.json');
  writeFileSync(
    judgeSpec,
    JSON.stringify({
      record,
      out: answer,
      min_distinct_calls: MIN_CALLS,
      functions: asked.map(({ file, qualname, baseline, footprint, mutants }) => ({
        file,
        qualname,
        baseline,
        footprint,
        mutants,
      })),
    }),
  );
  const versions = asked.reduce((a, f) => a + (f.footprint ? FOOTPRINT_VERSIONS : 0) + 2 + f.mutants.length, 0);
  const t1 = performance.now();
  // As a uid of the other range: code right only for the test runs' uids answers as it would for a user.
  const judged = await ctx.ws.run(
    w,
    `${quote(executable)} ${quote(JUDGE)} ${quote(judgeSpec)}`,
    30_000 + versions * VERSION_SECONDS * 1000,
    {},
    undefined,
    undefined,
    'other',
  );
  ctx.ws.copies[w]!.restore();
  phases.footprint_judge_ms = Math.round(performance.now() - t1);
  const read = readInside(dir, 'answer.json', 256 * 1024 * 1024);
  const parsed = read.ok ? parseRecord(JudgeAnswer, read.data.toString('utf8')) : null;
  if (parsed === null) {
    const why = judged.stderrTail.trim().split('\n').pop() ?? '';
    return none('not_measured', `the judge apart from the tests left no answer${why ? `: ${why.slice(0, 300)}` : ''}`);
  }
  const footprints: FootprintFunction[] = [];
  for (const f of parsed.functions) {
    for (const [id, a] of pythonVerdicts(f)) answers.set(id, a);
    const measures = pythonFootprint(f);
    const own = asked.find((a) => a.file === f.file && a.qualname === f.qualname);
    if (measures !== undefined) footprints.push({ file: own?.rel ?? f.file, function: f.qualname, ...measures });
  }
  const notes = [
    ...(parsed.runner_free ? [] : ['pytest was loaded in the judge (the code under test imports it)']),
    ...(recorded.exitCode === 0
      ? []
      : [
          `the recording run ended with exit ${recorded.exitCode ?? recorded.signal ?? '?'} (a test failed while its calls were recorded: the calls may be incomplete)`,
        ]),
  ];
  return {
    answers,
    phases,
    footprint: {
      status: 'measured',
      note: notes.length > 0 ? notes.join('; ') : null,
      functions: footprints,
    },
  };
}

/** The interpreter the recording run's pytest ran on (an absolute path), or null when the run left no record. */
function recordedExecutable(dir: string, name: string): string | null {
  const read = readInside(dir, name, 64 * 1024);
  if (!read.ok) return null;
  try {
    const parsed = JSON.parse(read.data.toString('utf8')) as { executable?: unknown };
    const exe = parsed.executable;
    return typeof exe === 'string' && path.isAbsolute(exe) && !exe.includes('\n') ? exe : null;
  } catch {
    return null;
  }
}
