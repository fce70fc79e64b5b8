/**
 * The JavaScript judge's plan for one function: the inputs (from the recorded calls), the
 * version files it loads (written beside the original in the judge's copy) and the jobs each
 * question needs; then, from the jobs' outcomes, the function's footprint and its survivors'
 * verdicts (rules.ts decides).
 * @module
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FootprintFunction } from '@adversary-gate/schemas';
import { planContracts, type MockCalls, type RealJob } from './js-contracts.js';
import { constantsOf, literalsOf, readModule, type Keys } from './js-functions.js';
import { unguardedText } from './js-guards.js';
import { argFacts, callText, distinct, neighbours, type Args } from './js-inputs.js';
import { judgedVariant } from './js-texts.js';
import { equivalenceVerdict, footprintFindings, JAVASCRIPT, type EquivalenceAnswer, type Outcomes } from './rules.js';

/** One job of the judge (runtime/js-judge.cjs): one version of one function, in a fresh process. */
export interface JsJob {
  readonly module: string;
  readonly kind: 'commonjs' | 'module';
  readonly name: string;
  readonly inputs: readonly Args[];
  readonly times: 1 | 2;
  readonly full: boolean;
  readonly marks: boolean;
  /** The module data left out of a full outcome: what only this function names and reads, in the patch's text (every version alike). */
  readonly own: readonly string[];
}

/** A job of the judge: a version of a function, or a real collaborator. */
export type JudgeJob = JsJob | RealJob;

/** What the plan needs to know of a function. */
export interface JsAsked {
  readonly file: string;
  readonly name: string;
  /** The copy's root (the version files go beside the file there). */
  readonly root: string;
  readonly kind: 'commonjs' | 'module';
  readonly text: string;
  /** The baseline's text of the file (null: the file is new). */
  readonly baseline: string | null;
  readonly footprint: boolean;
  readonly mutants: readonly { readonly id: number; readonly text: string }[];
  /** Every recorded call's arguments, repeats kept; the calls made in all; those that could not be carried. */
  readonly calls: readonly Args[];
  readonly observed: number;
  readonly unrecordable: number;
  /** What the mocks among its collaborators answered inside its calls, by collaborator. */
  readonly mocks: ReadonlyMap<string, MockCalls>;
  /** How Node loads a plain JavaScript file of the copy (null: not plain). */
  readonly kindOf: (file: string) => 'commonjs' | 'module' | null;
}

/** A planned function: its jobs, and how to read their outcomes back. */
export interface JsPlanned {
  readonly jobs: JudgeJob[];
  finish(outcomes: readonly Outcomes[]): { footprint?: FootprintFunction; answers: Map<number, EquivalenceAnswer> };
}

let written = 0;

/** Write `text` as a version file beside `file` in `root` (the same folder and extension: its imports resolve alike). */
function versionFile(root: string, file: string, text: string): string {
  const ext = path.extname(file);
  const to = path.join(root, path.dirname(file), `.ag-judge-${process.pid}-${written++}${ext}`);
  writeFileSync(to, text, { mode: 0o644 });
  return to;
}

const ALL: Keys = { ints: [], strs: [] };
const merged = (...k: Keys[]): Keys => ({
  ints: [...new Set(k.flatMap((x) => x.ints))],
  strs: [...new Set(k.flatMap((x) => x.strs))],
});

/** Plan the questions of `f`; a string when it cannot be judged (the reason). */
export function planFunction(f: JsAsked): JsPlanned | string {
  const mod = readModule(f.file, f.text);
  const fn = mod?.functions.get(f.name);
  const variant = judgedVariant(f.file, f.text);
  if (mod == null || fn === undefined || variant === null) return 'the function could not be read again';
  const oldMod = f.baseline !== null ? readModule(f.file, f.baseline) : null;
  const oldFn = oldMod?.functions.get(f.name);
  const oldVariant = oldFn !== undefined ? judgedVariant(f.file, f.baseline!) : null;
  const patched = versionFile(f.root, f.file, variant);
  const old = oldVariant !== null ? versionFile(f.root, f.file, oldVariant) : null;
  // A new function: itself with its keyed guards made false stands in for a baseline in the special-case question.
  const unguarded = oldFn === undefined ? unguardedText(f.text, fn) : null;
  const unguardedFn = unguarded !== null ? readModule(f.file, unguarded)?.functions.get(f.name) : undefined;
  const unguardedVariant = unguardedFn !== undefined ? judgedVariant(f.file, unguarded!) : null;
  const versus = old ?? (unguardedVariant !== null ? versionFile(f.root, f.file, unguardedVariant) : null);
  const reference = oldFn ?? unguardedFn;
  const unique = distinct(f.calls);
  const jobs: JudgeJob[] = [];
  const mine = mod.privateState.get(f.name) ?? [];
  const job = (module: string, inputs: readonly Args[], times: 1 | 2, full = false, marks = false) => {
    jobs.push({ module, kind: f.kind, name: f.name, inputs, times, full, marks, own: full ? mine : [] });
    return jobs.length - 1;
  };

  // The footprint's questions (as ag_mutate_footprint.py asks them).
  const own = constantsOf(fn.node, mod.tables);
  const was = reference !== undefined ? constantsOf(reference.node) : ALL;
  const near = neighbours(
    unique,
    merged(own, was, oldFn !== undefined ? constantsOf(oldFn.node, oldMod!.tables) : ALL),
    true,
  );
  const fp =
    f.footprint && f.calls.length > 0
      ? {
          first: job(patched, f.calls, 2),
          second: job(patched, f.calls, 2),
          old: old !== null ? job(old, f.calls, 2) : null,
          again: job(patched, unique, 1),
          marked: job(patched, unique, 1, false, true),
          special:
            versus !== null
              ? { patched: job(patched, [...unique, ...near], 1), old: job(versus, [...unique, ...near], 1) }
              : null,
          plain: versus === null ? job(patched, unique, 1) : null,
        }
      : null;

  const contracts =
    fp !== null && f.mocks.size > 0
      ? planContracts(f, (j) => {
          jobs.push(j);
          return jobs.length - 1;
        })
      : null;

  // The survivors' check (as ag_mutate_equiv.py asks it): recorded calls and neighbours, twice each.
  const inputs = [...unique, ...neighbours(unique, own)];
  const eq =
    f.mutants.length > 0 && unique.length > 0
      ? {
          reference: job(patched, inputs, 2, true),
          mutants: f.mutants.map((m) => {
            const text = judgedVariant(f.file, m.text);
            return { id: m.id, job: text === null ? null : job(versionFile(f.root, f.file, text), inputs, 2, true) };
          }),
        }
      : null;

  return {
    jobs,
    finish(outcomes) {
      const at = (i: number | null) => (i === null ? null : (outcomes[i] ?? null));
      const once = (o: Outcomes) => (o === null ? null : o.map((x) => x[0] ?? 'timeout'));
      const answers = new Map<number, EquivalenceAnswer>();
      const texts = inputs.map((a) => callText(f.name, a));
      for (const m of f.mutants)
        answers.set(
          m.id,
          equivalenceVerdict(
            {
              texts,
              k: unique.length,
              unrecordable: f.unrecordable,
              reference: eq === null ? null : at(eq.reference),
              mutant: eq === null ? null : at(eq.mutants.find((x) => x.id === m.id)!.job),
            },
            JAVASCRIPT,
          ),
        );
      if (!f.footprint) return { answers };
      const record = {
        file: f.file,
        function: f.name,
        recorded_calls: f.observed,
        kept_calls: f.calls.length,
        distinct_calls: unique.length,
        unpicklable_calls: f.unrecordable,
      };
      const special = fp?.special != null ? once(at(fp.special.patched)) : null;
      const measures = footprintFindings(
        {
          calls: f.calls.map((a) => callText(f.name, a)),
          unique: unique.map((a) => ({ text: callText(f.name, a), args: argFacts(a) })),
          parameters: fn.parameters,
          hasBaseline: old !== null,
          baselineLiterals: reference !== undefined ? literalsOf(reference.node) : { ints: [], strs: [] },
          ...(oldFn === undefined && reference !== undefined ? { unguarded: true } : {}),
          twice: { first: at(fp?.first ?? null), second: at(fp?.second ?? null), old: at(fp?.old ?? null) },
          runner: {
            plain: special !== null ? special.slice(0, unique.length) : once(at(fp?.plain ?? null)),
            again: once(at(fp?.again ?? null)),
            marked: once(at(fp?.marked ?? null)),
          },
          ...(fp?.special != null ? { special: { patched: special, old: once(at(fp.special.old)) } } : {}),
          ...(contracts !== null ? { contracts: contracts.finish(at) } : {}),
        },
        JAVASCRIPT,
      );
      return { answers, footprint: { ...record, ...measures } };
    },
  };
}
