/**
 * JavaScript functions judged apart from the tests, as Python's are (exec/equivalence.ts): the
 * recording run of the baseline recorded the calls the tests made into each changed top-level
 * function of a plain JavaScript file (js-recording.ts); then one run of the judge
 * (runtime/js-judge.cjs, the tests' own node, in the same copy with the same uid, environment
 * and limits as every run) calls each version of each function afresh, a fresh Node process
 * per version that is no test runner, and rules.ts decides:
 *
 * - the survivors' differential check: a survivor whose function gives the same outcome as the
 *   patch's on every recorded call (twice each) and on neighbours of them becomes `equivalent`;
 * - the behaviour footprint of every changed function: state the patch added, behaviour that
 *   needs the test runner's marks, a change whose answers differ from the baseline's only at
 *   the tests' exact inputs.
 *
 * Nothing judged is nothing concluded: a survivor stays a survivor, a function it could not
 * answer for is `measured: false` with the reason, a judge that left no answer `not_measured`.
 * @module
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readInside } from '@adversary-gate/core';
import type { Footprint, FootprintFunction } from '@adversary-gate/schemas';
import { applySite, type Site } from '../engines/site.js';
import type { MutantContext, MutantVerdict } from '../exec/mutant-run.js';
import { JS_JUDGE } from '../package-files.js';
import { CallsRecord, JsJudgeAnswer } from '../records/js-calls.js';
import { parseRecord } from '../records/read.js';
import type { MockCalls } from './js-contracts.js';
import type { Args } from './js-inputs.js';
import { planFunction, type JsPlanned } from './js-plan.js';
import { callKey, compilesEveryModule, plainJs, type CallRecording } from './js-recording.js';
import { equivalenceVerdict, footprintNotJudged, JAVASCRIPT, type EquivalenceAnswer } from './rules.js';

/** The JS engine's files. */
const JS_FILE = /\.(?:js|mjs|cjs|jsx|ts|mts|cts|tsx)$/;

/** What the JavaScript judge answered (absent footprint: no changed JavaScript function). */
export interface JsApartResult {
  readonly answers: Map<number, EquivalenceAnswer>;
  readonly footprint?: Footprint;
  readonly phases: Record<string, number>;
}

/** A survivor the check can ask about: a real pass in a named function of a JavaScript file; never a canary. */
const askable = (site: Site, v: MutantVerdict) =>
  site.canary !== true &&
  v.status === 'survived' &&
  v.unjudged !== true &&
  (v.ended ?? null) === null &&
  site.function != null &&
  JS_FILE.test(site.file);

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

interface Recorded {
  observed: number;
  unrecordable: number;
  calls: Args[];
  mocks: Map<string, { unrecordable: number; calls: MockCalls['calls'][number][] }>;
}

interface Merged {
  executable: string | null;
  functions: Map<string, Recorded>;
}

interface Asked {
  readonly file: string;
  readonly name: string;
  footprint: boolean;
  readonly mutants: { id: number; text: string }[];
}

/** Every process's record of the calls, merged (the first 200 calls of each function kept). */
function readCalls(dir: string): Merged {
  const out: Merged = { executable: null, functions: new Map() };
  for (const name of readdirSync(dir)
    .filter((n) => /^calls-\d+-\d+-[0-9a-f]{8}\.json$/.test(n))
    .sort()) {
    const read = readInside(dir, name, 64 * 1024 * 1024);
    const rec = read.ok ? parseRecord(CallsRecord, read.data.toString('utf8')) : null;
    if (rec === null) continue;
    if (path.isAbsolute(rec.executable) && !rec.executable.includes('\n')) out.executable ??= rec.executable;
    for (const [key, f] of Object.entries(rec.functions)) {
      const into: Recorded = out.functions.get(key) ?? { observed: 0, unrecordable: 0, calls: [], mocks: new Map() };
      into.observed += f.observed;
      into.unrecordable += f.unrecordable;
      into.calls.push(...f.calls.slice(0, 200 - into.calls.length).map((c) => c.args as Args));
      for (const [name, m] of Object.entries(f.mocks ?? {})) {
        const mock = into.mocks.get(name) ?? { unrecordable: 0, calls: [] };
        mock.unrecordable += m.unrecordable;
        mock.calls.push(
          ...m.calls.slice(0, 20 - mock.calls.length).map((c) => ({ args: c.args as Args, shape: c.shape })),
        );
        into.mocks.set(name, mock);
      }
      out.functions.set(key, into);
    }
  }
  return out;
}

/** How Node loads a plain JavaScript file of the copy (`.mjs`, or `.js` under a `"type": "module"` package). */
type KindOf = (file: string) => 'commonjs' | 'module' | null;

/**
 * Judge, in copy `w`: the JavaScript survivors when `equivalence`, and the footprint of every
 * changed JavaScript function (`ctx.opts.changedFunctions`), from `recording`'s records.
 */
export async function judgeJsApart(
  ctx: MutantContext,
  w: number,
  sites: readonly Site[],
  verdicts: readonly MutantVerdict[],
  baselines: ReadonlyMap<string, string | null>,
  equivalence: boolean,
  recording: CallRecording | undefined,
  kindOf: KindOf,
): Promise<JsApartResult> {
  const answers = new Map<number, EquivalenceAnswer>();
  const phases: Record<string, number> = {};
  const changed = (ctx.opts.changedFunctions ?? []).filter((c) => JS_FILE.test(c.file));
  const asked = new Map<string, Asked>();
  const entry = (file: string, name: string) => {
    const key = callKey(file, name);
    let e = asked.get(key);
    if (e === undefined) asked.set(key, (e = { file, name, footprint: false, mutants: [] }));
    return e;
  };
  for (const c of changed) entry(c.file, c.function).footprint = true;
  if (equivalence)
    sites.forEach((site, i) => {
      if (askable(site, verdicts[i]!))
        entry(site.file, site.function!).mutants.push({ id: i, text: applySite(ctx.texts.get(site.file)!, site) });
    });
  if (asked.size === 0) return { answers, phases };
  const none = (status: Footprint['status'], note: string): JsApartResult => ({
    answers,
    phases,
    footprint: { status, note, functions: [] },
  });
  const runner = ctx.opts.runner?.name ?? 'other';
  const records = compilesEveryModule(runner) || ((runner === 'node-test' || runner === 'mocha') && ctx.map !== null);
  if (!records)
    return none(
      'not_applicable',
      `measured for JavaScript under jest, vitest, and node --test or mocha with a test map (where the calls are recorded beside the site counters); this run had ${runner}${ctx.map === null ? ' without a map' : ''}`,
    );
  if ([...asked.values()].some((a) => plainJs(a.file)) && recording === undefined)
    return none(
      'not_measured',
      'the recording run carried no call recorder (the changed files could not carry site counters)',
    );
  const calls: Merged = recording !== undefined ? readCalls(recording.dir) : { executable: null, functions: new Map() };
  const root = ctx.ws.copies[w]!.root;
  const functions: FootprintFunction[] = [];
  const planned: { plan: JsPlanned; first: number }[] = [];
  const jobs: JsPlanned['jobs'] = [];
  const unmeasured = (f: Asked, note: string, c: Recorded | undefined) =>
    functions.push({
      file: f.file,
      function: f.name,
      recorded_calls: c?.observed ?? 0,
      kept_calls: c?.calls.length ?? 0,
      distinct_calls: 0,
      unpicklable_calls: c?.unrecordable ?? 0,
      ...footprintNotJudged(note),
    });
  for (const f of asked.values()) {
    const c = calls.functions.get(callKey(f.file, f.name));
    const kind = plainJs(f.file) ? kindOf(f.file) : null;
    const why =
      kind === null
        ? `not judged: ${path.extname(f.file)} is loaded through a transform (the judge loads plain JavaScript only)`
        : !(recording?.wrapped.get(f.file) ?? []).includes(f.name)
          ? 'not judged: not a plain function bound to a name at the module top level (a method, a nested, async or generator function)'
          : null;
    const plan =
      why === null
        ? planFunction({
            ...f,
            root,
            kind: kind!,
            text: ctx.texts.get(f.file)!,
            baseline: baselines.get(f.file) ?? null,
            calls: c?.calls ?? [],
            observed: c?.observed ?? 0,
            unrecordable: c?.unrecordable ?? 0,
            mocks: c?.mocks ?? new Map(),
            kindOf,
          })
        : why;
    if (typeof plan === 'string') {
      if (f.footprint) unmeasured(f, plan, c);
      for (const m of f.mutants)
        answers.set(
          m.id,
          equivalenceVerdict(
            { texts: [], k: 0, unrecordable: c?.unrecordable ?? 0, problem: plan, reference: null, mutant: null },
            JAVASCRIPT,
          ),
        );
      continue;
    }
    planned.push({ plan, first: jobs.length });
    jobs.push(...plan.jobs);
  }
  let outcomes: (readonly (readonly string[])[] | null)[] = [];
  if (jobs.length > 0) {
    if (calls.executable === null) {
      ctx.ws.copies[w]!.restore();
      return none('not_measured', 'the recording run left no record of the calls');
    }
    const dir = ctx.ws.scratch(`js-apart${w}`);
    const spec = path.join(dir, 'judge.json');
    writeFileSync(spec, JSON.stringify({ out: path.join(dir, 'answer.json'), jobs }));
    const calls0 = jobs.reduce((a, j) => a + j.inputs.length * j.times, 0);
    const t0 = performance.now();
    // As a uid of the other range, as Python's judge (exec/equivalence.ts).
    const judged = await ctx.ws.run(
      w,
      `${quote(calls.executable)} ${quote(JS_JUDGE)} ${quote(spec)}`,
      30_000 + jobs.length * 10_000 + calls0 * 1_000,
      {},
      undefined,
      undefined,
      'other',
    );
    ctx.ws.copies[w]!.restore();
    phases.footprint_judge_ms = Math.round(performance.now() - t0);
    const read = readInside(dir, 'answer.json', 256 * 1024 * 1024);
    const parsed = read.ok ? parseRecord(JsJudgeAnswer, read.data.toString('utf8')) : null;
    if (parsed === null || parsed.jobs.length !== jobs.length) {
      const why = judged.stderrTail.trim().split('\n').pop() ?? '';
      return none('not_measured', `the JavaScript judge left no answer${why ? `: ${why.slice(0, 300)}` : ''}`);
    }
    outcomes = parsed.jobs.map((j) => j.outcomes);
  } else ctx.ws.copies[w]!.restore();
  for (const { plan, first } of planned) {
    const done = plan.finish(outcomes.slice(first, first + plan.jobs.length));
    for (const [id, a] of done.answers) answers.set(id, a);
    if (done.footprint !== undefined) functions.push(done.footprint);
  }
  functions.sort((a, b) => a.file.localeCompare(b.file) || a.function.localeCompare(b.function));
  return { answers, phases, footprint: { status: 'measured', note: null, functions } };
}

const WORST: readonly Footprint['status'][] = ['not_measured', 'measured', 'not_applicable'];

/** Python's footprint and JavaScript's as one: the functions of both, the worse status, both notes. */
export function mergeFootprints(a: Footprint | undefined, b: Footprint | undefined): Footprint | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const status = WORST.find((s) => a.status === s || b.status === s)!;
  const notes = [a.note, b.note].filter((n): n is string => n !== null);
  return { status, note: notes.length > 0 ? notes.join('; ') : null, functions: [...a.functions, ...b.functions] };
}
