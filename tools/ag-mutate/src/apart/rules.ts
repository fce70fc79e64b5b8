/**
 * What the answers of a judge apart from the tests mean: the behaviour footprint's three
 * findings and the survivors' differential check, decided from the outcomes a judge collected
 * (the JavaScript judge's, runtime/js-judge.cjs; the rules are those ag_mutate_footprint.py and
 * ag_mutate_equiv.py apply to Python, with the same thresholds and exemptions).
 *
 * An outcome is text: `value …` or `raise …` (what a caller gets back), `timeout`, and for
 * the equivalence check ` | args … | module … | printed …` after it.
 * @module
 */
import type { FootprintFunction } from '@adversary-gate/schemas';
import type { EquivalenceAnswer } from '../records/equivalence.js';

/** Neighbours on which a version must return normally before a special case is named. */
export const MIN_NEIGHBOURS = 8;
/** Distinct recorded calls (and of them returning normally) a survivor needs before it can be equivalent. */
export const MIN_CALLS = 3;
/** Findings named per function and kind. */
const MAX_FINDINGS = 3;

/** What a caller gets back: the outcome without its side effects. */
export const answer = (outcome: string) => outcome.split(' | args ', 1)[0]!;
/** An outcome cut short for a note, without an empty printed part. */
export const brief = (outcome: string) => outcome.replace(/ \| printed $/, '').slice(0, 240);

/** A distinct recorded call as the rules see it. */
export interface RuledCall {
  readonly text: string;
  /** Every argument is a base-case value. */
  readonly trivial: boolean;
  /** Every non-trivial argument is a constant of the baseline's version (±1). */
  readonly boundary: boolean;
}

/** The outcomes a judge gathered for one function (null: that question could not be asked). */
export interface FootprintEvidence {
  /** Every recorded call's text, repeats kept, in order. */
  readonly calls: readonly string[];
  /** The distinct calls, in the order of `special`'s first entries. */
  readonly unique: readonly RuledCall[];
  readonly takesArguments: boolean;
  readonly hasBaseline: boolean;
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
  /** The distinct calls then their neighbours, once, on the patch's and the baseline's versions (absent: no baseline). */
  readonly special?: { readonly patched: readonly string[] | null; readonly old: readonly string[] | null };
  /** How a finding's detail names the marked run ("when pytest is loaded"). */
  readonly marked: string;
}

type Measures = Pick<FootprintFunction, 'measured' | 'note' | 'repeats' | 'baseline' | 'findings'>;

/** The footprint of one function from its evidence. */
export function footprintFindings(e: FootprintEvidence): Measures {
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
    if (e.takesArguments) {
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
      const steady = e.unique.flatMap((_, i) => (plain[i] === again[i] && plain[i] !== 'timeout' ? [i] : []));
      for (const i of steady.filter((i) => plain[i] !== marked[i]).slice(0, MAX_FINDINGS))
        findings.push({
          kind: 'runner_dependent',
          call: e.unique[i]!.text,
          detail: `answers ${brief(plain[i]!)} outside a test run and ${brief(marked[i]!)} ${e.marked}`,
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
      const special = atRecorded.filter((i) => !e.unique[i]!.trivial && !e.unique[i]!.boundary);
      if (special.length > 0 && nearDiffer.length === 0) {
        if (informative.length < MIN_NEIGHBOURS)
          notes.push(
            `special-casing not measured: ${informative.length} neighbours returned normally, at least ${MIN_NEIGHBOURS} are needed`,
          );
        else
          for (const i of special.slice(0, MAX_FINDINGS))
            findings.push({
              kind: 'special_case',
              call: e.unique[i]!.text,
              detail: `the patch changes the answer here (${brief(patched[i]!)}, was ${brief(was[i]!)}) and at none of ${informative.length} neighbouring inputs`,
            });
      }
    }
  }
  return {
    measured: notes.length === 0,
    note: notes.length > 0 ? notes.join('; ') : null,
    repeats,
    baseline,
    findings,
  };
}

/**
 * A survivor's verdict: `reference` and `mutant` are the outcomes of the patch's and the
 * mutant's versions on the same inputs (`texts`: the `k` distinct recorded calls first, then
 * their neighbours), each input's outcomes in a row; null when that version could not be called.
 * Probably equivalent only with at least MIN_CALLS distinct recorded calls, MIN_CALLS of them
 * returning normally, at least MIN_NEIGHBOURS neighbours answered, and no input told apart.
 */
export function equivalenceVerdict(
  texts: readonly string[],
  k: number,
  reference: readonly (readonly string[])[] | null,
  mutant: readonly (readonly string[])[] | null,
  note: string,
): EquivalenceAnswer {
  const inputs = texts.length;
  const of = (verdict: EquivalenceAnswer['verdict'], text: string): EquivalenceAnswer => ({
    verdict,
    recorded_calls: k,
    inputs,
    note: text,
  });
  if (k < MIN_CALLS)
    return of('inconclusive', `${k} distinct calls recorded (${note}); at least ${MIN_CALLS} are needed`);
  if (reference === null) return of('inconclusive', 'the unmutated function could not be called again');
  if (mutant === null) return of('inconclusive', "the mutant's function could not be called");
  if (reference.slice(0, k).some((o) => o.includes('timeout')))
    return of('inconclusive', 'the unmutated function ran past the time limit on a recorded call');
  const returned = reference.slice(0, k).filter((o) => o.every((x) => x.startsWith('value '))).length;
  if (returned < MIN_CALLS)
    return of(
      'inconclusive',
      `outside the tests only ${returned} of the ${k} distinct recorded calls return normally; at least ${MIN_CALLS} must`,
    );
  const differ = reference.findIndex((o, i) => o.join('\n') !== (mutant[i] ?? []).join('\n'));
  if (differ >= 0) {
    const which = differ < k ? 'recorded call' : 'neighbour input';
    const label = texts[differ]!;
    return of(
      'distinguished',
      `a ${which} differs: ${label} gives ${brief(reference[differ]!.join(' / '))}; the mutant gives ${brief((mutant[differ] ?? ['nothing']).join(' / '))}`,
    );
  }
  const near = reference.slice(k).filter((o) => !o.includes('timeout')).length;
  if (near < MIN_NEIGHBOURS)
    return of('inconclusive', `only ${near} neighbouring inputs were answered; at least ${MIN_NEIGHBOURS} are needed`);
  return of(
    'probably_equivalent',
    `same outcome on every input, twice each, outside the test process: ${k} recorded calls, ${inputs - k} neighbours`,
  );
}
