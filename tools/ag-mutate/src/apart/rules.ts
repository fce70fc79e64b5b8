/**
 * What the answers of a judge apart from the tests mean, for Python and JavaScript alike: the
 * behaviour footprint's findings (a replaced collaborator's in contract-rules.ts) and the
 * survivors' differential check, decided here and nowhere else, from the raw outcomes the
 * judges measured (Python's ag_mutate_judge.py, read in py-evidence.ts; JavaScript's
 * runtime/js-judge.cjs, read in js-plan.ts). The judges decide
 * nothing: they call, and report what each call answered and what its arguments were.
 *
 * An outcome is text: `value …` or `raise …` (what a caller gets back: the value, or the
 * exception's type and message), `timeout`, and for the equivalence check ` | args … | module …
 * | printed …` after it. What differs between the languages is in `Language`, below; what the
 * arguments of a call mean (a base case, a constant of the baseline) is in argument-rules.ts.
 * @module
 */
import type { FootprintFunction, Mutant } from '@adversary-gate/schemas';
import { contractFindings, type Contract } from './contract-rules.js';
import { boundary, takesArguments, trivial, type ArgFact, type Literals, type Parameters } from './argument-rules.js';

/** Neighbours on which a version must return normally before a special case is named (and a JavaScript survivor is probably equivalent). */
export const MIN_NEIGHBOURS = 8;
/** Distinct recorded calls (and of them returning normally) a survivor needs before it can be equivalent. */
export const MIN_CALLS = 3;
/** Findings named per function and kind. */
const MAX_FINDINGS = 3;

/** A survivor's verdict, as mutation.json records it. */
export type EquivalenceAnswer = NonNullable<Mutant['equivalence']>;

/**
 * What the rules of one language differ in. `marked` and `receivers` are the languages' own;
 * the other three are where Python's rules and JavaScript's were written apart and still
 * differ (each kept as it was; making them one is a change of behaviour, to be decided).
 */
export interface Language {
  /** How a finding's detail names the run with the test runner's marks. */
  readonly marked: string;
  /** Names of a leading positional parameter that is the receiver (`self`, `cls`), not an argument. */
  readonly receivers: readonly string[];
  /** Neighbours a survivor's reference must answer (not time out on) before the survivor is probably equivalent. */
  readonly equivalenceMinNeighbours: number;
  /** A call that timed out in both runs without the marks counts as answering the same (true), or as unasked. */
  readonly runnerTimeoutsSteady: boolean;
  /** An inconclusive verdict because the reference could not be relied on counts the inputs tried (true), or none. */
  readonly countsInputsOfUnsoundReference: boolean;
}

export const PYTHON: Language = {
  marked: 'when pytest is loaded',
  receivers: ['self', 'cls'],
  // At least one: calls whose arguments no neighbour can be made of conclude nothing. Python's
  // objects (a method's receiver and its peer) give few, so its floor stays below JavaScript's.
  equivalenceMinNeighbours: 1,
  runnerTimeoutsSteady: true,
  countsInputsOfUnsoundReference: false,
};

export const JAVASCRIPT: Language = {
  marked: "with a test runner's marks (NODE_TEST_CONTEXT, JEST_WORKER_ID, VITEST set; describe/it defined)",
  receivers: [],
  equivalenceMinNeighbours: MIN_NEIGHBOURS,
  runnerTimeoutsSteady: false,
  countsInputsOfUnsoundReference: true,
};

/** An outcome cut short for a note (240 characters, not splitting one), without an empty printed part. */
export const brief = (outcome: string) =>
  Array.from(outcome.replace(/ \| printed $/, ''))
    .slice(0, 240)
    .join('');

/** A distinct recorded call as the rules see it: its text for a finding, and its arguments. */
export interface RuledCall {
  readonly text: string;
  readonly args: readonly ArgFact[];
}

/** The outcomes a judge gathered for one function (null: that question could not be asked). */
export interface FootprintEvidence {
  /** Every recorded call's text, repeats kept, in order. */
  readonly calls: readonly string[];
  /** The distinct calls, in the order of `special`'s first entries. */
  readonly unique: readonly RuledCall[];
  readonly parameters: Parameters;
  /** The baseline has a version of the function (it is not new). */
  readonly hasBaseline: boolean;
  /** The constants of the baseline's version (none when it has no version). */
  readonly baselineLiterals: Literals;
  /** The recorded sequence, each call twice in a row: two runs of the patch's version, one of the baseline's. */
  readonly twice: {
    readonly first: readonly (readonly string[])[] | null;
    readonly second: readonly (readonly string[])[] | null;
    readonly old: readonly (readonly string[])[] | null;
  };
  /** The distinct calls once: twice without the test runner's marks, once with them. */
  readonly runner: {
    readonly plain: readonly string[] | null;
    readonly again: readonly string[] | null;
    readonly marked: readonly string[] | null;
  } | null;
  /**
   * The distinct calls then their neighbours, once, on the patch's and the baseline's versions
   * (absent: no baseline). For a new function (`unguarded`), the baseline's place is taken by the
   * function with its guards keyed on exact values made false (`if year == 1900: return …`), and
   * `baselineLiterals` are that version's constants.
   */
  readonly special?: { readonly patched: readonly string[] | null; readonly old: readonly string[] | null };
  readonly unguarded?: boolean;
  /** The collaborators the tests replaced, with the real ones' answers (absent: not watched, as in JavaScript). */
  readonly contracts?: readonly Contract[];
}

type Measures = Pick<FootprintFunction, 'measured' | 'note' | 'repeats' | 'baseline' | 'findings'>;

/** The footprint of a function no question could be asked of: `note` says why. */
export function footprintNotJudged(note: string): Measures {
  return { measured: false, note, repeats: null, baseline: null, findings: [] };
}

/** The footprint of one function from its evidence. */
export function footprintFindings(e: FootprintEvidence, language: Language): Measures {
  if (e.calls.length === 0) return footprintNotJudged('no call was recorded');
  const findings: FootprintFunction['findings'][number][] = [];
  const notes: string[] = [];
  let repeats: Measures['repeats'] = null;
  let baseline: Measures['baseline'] = null;

  // State: a call whose second answer differs from its first, the same way in both runs.
  const { first, second, old } = e.twice;
  if (first === null || second === null || (e.hasBaseline && old === null))
    notes.push('the repeated calls could not be made (a crash or past the time limit)');
  else {
    const same = (a: readonly string[], b: readonly string[] | undefined) =>
      b !== undefined && a[0] === b[0] && a[1] === b[1];
    const differed = first.flatMap((pair, i) => (pair[0] !== pair[1] && same(pair, second[i]) ? [i] : []));
    repeats = { checked: e.calls.length, differed: differed.length };
    if (takesArguments(e.parameters, language.receivers)) {
      const named = new Map<string, number>();
      for (const i of differed) {
        const text = e.calls[i]!;
        if ((old === null || old[i]?.[0] === old[i]?.[1]) && !named.has(text)) named.set(text, i);
      }
      for (const [text, i] of [...named].slice(0, MAX_FINDINGS)) {
        findings.push({
          kind: 'stateful',
          call: text,
          detail: `the same call answers ${brief(first[i]![0]!)}, then ${brief(first[i]![1]!)}${e.hasBaseline ? "; the baseline's version answers the same twice" : ''}`,
        });
      }
    }
  }

  // The test runner's marks: a difference on a call that answers the same in two plain runs.
  if (e.runner !== null) {
    const { plain, again, marked } = e.runner;
    if (plain === null || again === null || marked === null)
      notes.push("the calls could not be made with the test runner's marks");
    else {
      const steady = e.unique.flatMap((_, i) =>
        plain[i] === again[i] && (language.runnerTimeoutsSteady || plain[i] !== 'timeout') ? [i] : [],
      );
      for (const i of steady.filter((i) => plain[i] !== marked[i]).slice(0, MAX_FINDINGS))
        findings.push({
          kind: 'runner_dependent',
          call: e.unique[i]!.text,
          detail: `answers ${brief(plain[i]!)} outside a test run and ${brief(marked[i]!)} ${language.marked}`,
        });
    }
  }

  // Special-casing: the baseline's and the patch's versions differ at recorded calls and at no neighbour.
  if (e.special !== undefined) {
    const { patched, old: was } = e.special;
    if (patched === null || was === null)
      notes.push("the baseline's and the patch's versions could not both be called");
    else {
      const k = e.unique.length;
      const atRecorded = e.unique.flatMap((_, i) => (patched[i] !== was[i] ? [i] : []));
      const evaluated = patched.flatMap((p, i) => (i >= k && p !== 'timeout' && was[i] !== 'timeout' ? [i] : []));
      const informative = evaluated.filter((i) => patched[i]!.startsWith('value ') || was[i]!.startsWith('value '));
      const nearDiffer = evaluated.filter((i) => patched[i] !== was[i]);
      baseline = {
        recorded_differ: atRecorded.length,
        neighbours: informative.length,
        neighbours_differ: nearDiffer.length,
      };
      const special = atRecorded.filter(
        (i) => !trivial(e.unique[i]!.args) && !boundary(e.unique[i]!.args, e.baselineLiterals),
      );
      // A new function whose answer without its guards is one and the same everywhere is a
      // table with a default (`if (PHRASES[code]) return PHRASES[code]; return 'Unknown'`): its
      // entries are its behaviour, however many of them the tests ask for. A special case
      // overrides a computation that answers each input for itself.
      const fallback = new Set([...e.unique.keys(), ...evaluated].map((i) => was[i]));
      const tableWithDefault = e.unguarded === true && fallback.size === 1;
      if (special.length > 0 && nearDiffer.length === 0 && !tableWithDefault) {
        if (informative.length < MIN_NEIGHBOURS)
          notes.push(
            `special-casing not measured: ${informative.length} neighbours returned normally, at least ${MIN_NEIGHBOURS} are needed`,
          );
        else
          for (const i of special.slice(0, MAX_FINDINGS))
            findings.push({
              kind: 'special_case',
              call: e.unique[i]!.text,
              detail: e.unguarded
                ? `the new function's guards on exact values change the answer here (${brief(patched[i]!)}, without them ${brief(was[i]!)}) and at none of ${informative.length} neighbouring inputs`
                : `the patch changes the answer here (${brief(patched[i]!)}, was ${brief(was[i]!)}) and at none of ${informative.length} neighbouring inputs`,
            });
      }
    }
  }
  // Replaced collaborators: a replacement whose answer cannot be the real one's.
  if (e.contracts !== undefined) {
    const c = contractFindings(e.contracts, MAX_FINDINGS);
    findings.push(...c.findings);
    notes.push(...c.notes);
  }
  return {
    measured: notes.length === 0,
    note: notes.length > 0 ? notes.join('; ') : null,
    repeats,
    baseline,
    findings,
  };
}

/** Each input's outcomes in a row (one per call made of it); null when that version could not be called. */
export type Outcomes = readonly (readonly string[])[] | null;

/** What the survivors' check measured of one mutant. */
export interface EquivalenceEvidence {
  /** Every input as text: the `k` distinct recorded calls first, then their neighbours (empty: none was built). */
  readonly texts: readonly string[];
  readonly k: number;
  /** Recorded calls that could not be carried out of the test process. */
  readonly unrecordable: number;
  /** Why nothing could be measured (the function could not be read again), if so. */
  readonly problem?: string | null;
  /**
   * The function as the freshly loaded module holds it, on the recorded calls, when the
   * reference is rebuilt from the file's text (Python): the reference must give its outcomes.
   * Absent: the reference is the module's own (JavaScript).
   */
  readonly live?: Outcomes;
  /** The patch's version on every input. */
  readonly reference: Outcomes;
  readonly mutant: Outcomes;
}

const same = (a: readonly string[], b: readonly string[] | undefined) =>
  b !== undefined && a.join('\n') === b.join('\n');

/**
 * A survivor's verdict: probably equivalent only with at least MIN_CALLS distinct recorded
 * calls, a reference that can be relied on (called, faithful to the module's own, answering the
 * recorded calls in time) and returning normally on MIN_CALLS of them, the language's minimum
 * of neighbours answered, and no input telling the mutant apart.
 */
export function equivalenceVerdict(e: EquivalenceEvidence, language: Language): EquivalenceAnswer {
  const { k, reference, live, mutant } = e;
  const inputs = e.texts.length;
  const of = (verdict: EquivalenceAnswer['verdict'], note: string, counted = inputs): EquivalenceAnswer => ({
    verdict,
    recorded_calls: k,
    inputs: counted,
    note,
  });
  const unsound = (note: string) => of('inconclusive', note, language.countsInputsOfUnsoundReference ? inputs : 0);
  if (e.problem != null) return of('inconclusive', e.problem);
  if (k < MIN_CALLS)
    return of(
      'inconclusive',
      `${k} distinct calls recorded (${e.unrecordable} could not be carried out of the test process); at least ${MIN_CALLS} are needed`,
    );
  if (reference === null || live === null) return unsound('the unmutated function could not be called again');
  if (
    live !== undefined &&
    (live.length !== k || live.some((o, i) => !same(o, reference[i])) || reference.some((o) => o.includes('timeout')))
  )
    return unsound("the function rebuilt from its text does not give what the module's own gives");
  if (reference.slice(0, k).some((o) => o.includes('timeout')))
    return unsound('the unmutated function ran past the time limit on a recorded call');
  const returned = reference.slice(0, k).filter((o) => o.every((x) => x.startsWith('value '))).length;
  if (returned < MIN_CALLS)
    return unsound(
      `outside the tests only ${returned} of the ${k} distinct recorded calls return normally; at least ${MIN_CALLS} must`,
    );
  if (mutant === null) return of('inconclusive', "the mutant's function could not be called");
  const differ = reference.findIndex((o, i) => !same(o, mutant[i]));
  if (differ >= 0) {
    const which = differ < k ? 'recorded call' : 'neighbour input';
    const label = e.texts[differ]!;
    return of(
      'distinguished',
      `a ${which} differs: ${label} gives ${brief(reference[differ]!.join(' / '))}; the mutant gives ${brief((mutant[differ] ?? ['nothing']).join(' / '))}`,
    );
  }
  const near = reference.slice(k).filter((o) => !o.includes('timeout')).length;
  // Inputs never varied say nothing of a boundary: a survivor is equivalent only on neighbours answered too.
  if (near < language.equivalenceMinNeighbours)
    return of(
      'inconclusive',
      `only ${near} neighbouring inputs were answered; at least ${language.equivalenceMinNeighbours} are needed`,
    );
  const twice = reference.length > 0 && reference.every((o) => o.length === 2) ? ', twice each' : '';
  return of(
    'probably_equivalent',
    `same outcome on every input${twice}, outside the test process: ${k} recorded calls, ${inputs - k} neighbours`,
  );
}
