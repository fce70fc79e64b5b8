/**
 * Replaced collaborators judged against the real ones: when the tests replace a function of the
 * project that a changed function calls (a mock, a monkeypatched fake), the judge calls the real
 * one on the same arguments apart from the tests, and these rules tell whether the replacement's
 * answers could be the real one's. A test chooses its mock's values freely (that is what
 * isolating a unit means), so values are never compared: the **contract** is, the shape of the
 * answer (ag_mutate_contract.py's shapes). A replacement contradicts the real collaborator when,
 * on a call the real one answers normally and the same way twice (not a clock, a random draw or
 * a failure outside the tests), its answer is of a kind the real one's cannot be:
 *
 * - another kind of value (a string for a number, a dict for an object, a list for a dict);
 * - a number of a wider kind (a float where the real answers an int: the numeric tower bool ⊂
 *   int ⊂ float ⊂ complex, so an int where the real answers a float is no contradiction);
 * - a mapping with a key the real one's lacks (a subset of its keys is a partial fake, allowed);
 * - the same, inside a sequence's, a set's or a mapping's items.
 *
 * - an exception where the real one answers a value, None included, unless the real one's own
 *   source raises an exception of that name (a failure it can have, simulated).
 *
 * Never a contradiction: None on either side (absence is an answer in both worlds), a
 * `unittest.mock` object as the answer (the test set no contract), an iterator, an empty
 * container, two objects of any classes. So a mock returning 2 where the real rate is 0.9, a fake
 * repository's record where the real, empty one answers None, and a MagicMock answer all pass;
 * a fake answering euros as a float where the real answers cents as an int does not.
 * @module
 */
import type { FootprintFunction } from '@adversary-gate/schemas';

/** A value's shape, as ag_mutate_contract.py's `shape` gives it. */
export type Shape =
  | { readonly t: 'none' | 'bool' | 'int' | 'float' | 'complex' | 'str' | 'bytes' | 'mock' | 'iter' }
  | { readonly t: 'seq' | 'set'; readonly items: readonly Shape[] }
  | { readonly t: 'map'; readonly keys: Readonly<Record<string, Shape>> | null; readonly items: readonly Shape[] }
  | { readonly t: 'object'; readonly type: string }
  | { readonly t: 'raise'; readonly type: string };

/** A real collaborator's answer to one call: the value or exception as text, and the value's shape (null: no value). */
export interface RealAnswer {
  readonly answer: string;
  readonly shape: Shape | null;
}

/** One replaced collaborator: the calls its replacement answered in the tests, each with the real one's two answers. */
export interface Contract {
  readonly name: string;
  /** Why the real collaborator could not be asked (it could not be found in the fresh module). */
  readonly problem: string | null;
  readonly unpicklable: number;
  readonly mock_answers: number;
  /** The exception names the real collaborator's own source raises. */
  readonly raises: readonly string[];
  readonly calls: readonly {
    readonly text: string;
    readonly mock: Shape;
    readonly real: readonly RealAnswer[] | null;
  }[];
}

const NUMBERS = ['bool', 'int', 'float', 'complex'];

const an = (text: string) => `${/^[aeiou]/.test(text) ? 'an' : 'a'} ${text}`;

const show = (s: Shape): string => {
  switch (s.t) {
    case 'seq':
    case 'set':
      return s.items.length === 0 ? s.t : `${s.t} of ${s.items.map(show).join(' | ')}`;
    case 'map':
      return s.keys !== null ? `map {${Object.keys(s.keys).join(', ')}}` : 'map';
    case 'object':
    case 'raise':
      return s.type;
    default:
      return s.t;
  }
};

/**
 * Why a replacement's answer of shape `mock` cannot be the real one's of shape `real`, or null
 * when it can. An exception the replacement raised contradicts any value the real one answers,
 * None included, unless the real one's source raises an exception of that name (`declared`).
 */
export function contradiction(mock: Shape, real: Shape, declared: readonly string[] = []): string | null {
  if (mock.t === 'raise')
    return declared.includes(mock.type)
      ? null
      : `raised ${mock.type} where the real one answers ${real.t === 'none' ? 'None' : an(show(real))}`;
  if (mock.t === 'none' || real.t === 'none' || mock.t === 'mock' || mock.t === 'iter' || real.t === 'iter')
    return null;
  const m = NUMBERS.indexOf(mock.t);
  const r = NUMBERS.indexOf(real.t);
  if (m >= 0 && r >= 0) return m <= r ? null : `${an(mock.t)} where the real one answers ${an(real.t)}`;
  if (mock.t !== real.t) return `${an(show(mock))} where the real one answers ${an(show(real))}`;
  if (mock.t === 'object') return null;
  if ((mock.t === 'seq' || mock.t === 'set') && (real.t === 'seq' || real.t === 'set'))
    return within(mock.items, real.items);
  if (mock.t === 'map' && real.t === 'map') {
    if (mock.keys !== null && real.keys !== null) {
      const extra = Object.keys(mock.keys).filter((k) => !Object.hasOwn(real.keys!, k));
      if (extra.length > 0 && Object.keys(real.keys).length > 0)
        return `a mapping with ${extra.map((k) => JSON.stringify(k)).join(', ')}, which the real one's {${Object.keys(real.keys).join(', ')}} lacks`;
      for (const [k, s] of Object.entries(mock.keys)) {
        const inner = real.keys[k] === undefined ? null : contradiction(s, real.keys[k]);
        if (inner !== null) return `at ${JSON.stringify(k)}: ${inner}`;
      }
      return null;
    }
    return within(mock.items, real.items);
  }
  return null;
}

/** Items contradict when one of the replacement's fits none of the real one's (no items on a side: no claim). */
function within(mock: readonly Shape[], real: readonly Shape[]): string | null {
  if (mock.length === 0 || real.length === 0) return null;
  for (const s of mock) {
    const why = real.map((r) => contradiction(s, r));
    if (why.every((w) => w !== null)) return `an item: ${why[0]}`;
  }
  return null;
}

type Finding = FootprintFunction['findings'][number];

/**
 * The findings of the replaced collaborators: a call whose real answer is steady (the same twice,
 * a value) and whose replacement's answer contradicts it, each call named once. The notes say what could not be asked.
 */
export function contractFindings(
  contracts: readonly Contract[],
  max: number,
): { findings: Finding[]; notes: string[] } {
  const findings: Finding[] = [];
  const notes: string[] = [];
  for (const c of contracts) {
    if (c.problem !== null) {
      notes.push(c.problem);
      continue;
    }
    if (c.calls.some((x) => x.real === null))
      notes.push(`the real ${c.name} could not be called on the calls its replacement answered`);
    let named = 0;
    const seen = new Set<string>();
    for (const call of c.calls) {
      if (seen.has(call.text)) continue;
      const [a, b] = call.real ?? [];
      if (a === undefined || b === undefined || a.answer !== b.answer || a.shape === null) continue;
      const why = contradiction(call.mock, a.shape, c.raises);
      if (why === null || named >= max) continue;
      named += 1;
      seen.add(call.text);
      findings.push({
        kind: 'mock_contradicted',
        call: call.text,
        detail: `the tests' replacement of ${c.name} ${why.startsWith('raised ') ? why : `answered ${why}`} (real: ${a.answer.slice(0, 160)})`,
      });
    }
  }
  return { findings, notes };
}
