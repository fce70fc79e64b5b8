/**
 * What a recorded call's arguments and a function's parameters mean to the rules of rules.ts,
 * for Python and JavaScript alike: a base case (every argument trivial), a boundary the
 * baseline's code already had (every other argument one of its constants), a function that
 * takes arguments at all. The judges only describe the values (`ArgFact`, `Literals`,
 * `Parameters`); what they mean is decided here.
 * @module
 */

/**
 * One argument of a recorded call, as the judge saw it: enough to tell a base-case value and a
 * constant of the code. `int`: an integer (Python: an `int`, `exact` when not of a subclass such
 * as an IntEnum; JavaScript: an integral number), in decimal; `float`: another number, as its
 * language writes it; `str`: a string (its value when at most 40 characters, the longest
 * constant the judges collect); `sized`: a container or bytes, by its size; `none`: None, null,
 * undefined; `other`: anything else.
 */
export type ArgFact =
  | { readonly kind: 'none' }
  | { readonly kind: 'bool' }
  | { readonly kind: 'int'; readonly value: string; readonly exact: boolean }
  | { readonly kind: 'float'; readonly value: string }
  | { readonly kind: 'str'; readonly value: string | null; readonly size: number }
  | { readonly kind: 'sized'; readonly size: number }
  | { readonly kind: 'other' };

/** The integer (in decimal) and short string constants a function's text holds, as written. */
export interface Literals {
  readonly ints: readonly string[];
  readonly strs: readonly string[];
}

/** A function's parameters: the positional ones by name, and how many others (keyword-only, rest, a read of `arguments`). */
export interface Parameters {
  readonly positional: readonly string[];
  readonly other: number;
}

const TRIVIAL_INTS: readonly string[] = ['-1', '0', '1'];

/** A base-case value: None/null/undefined, a boolean, -1, 0, 1 (an integer of the plain type), ±0.0, ±1.0, an empty string or container. */
function isTrivial(a: ArgFact): boolean {
  switch (a.kind) {
    case 'none':
    case 'bool':
      return true;
    case 'int':
      return a.exact && TRIVIAL_INTS.includes(a.value);
    case 'float': {
      const x = Number(a.value);
      return x === 0 || x === 1 || x === -1;
    }
    case 'str':
    case 'sized':
      return a.size === 0;
    default:
      return false;
  }
}

/** Every argument trivial: a base case, whose change alone is no special case. */
export function trivial(args: readonly ArgFact[]): boolean {
  return args.every(isTrivial);
}

/** Every non-trivial argument a constant of the baseline's version (integers ±1, strings as written): a boundary it had. */
export function boundary(args: readonly ArgFact[], literals: Literals): boolean {
  const ints = literals.ints.map((c) => BigInt(c));
  const atConstant = (a: ArgFact) => {
    if (a.kind === 'int') {
      const v = BigInt(a.value);
      return ints.some((c) => v - c >= -1n && v - c <= 1n);
    }
    return a.kind === 'str' && a.value !== null && literals.strs.includes(a.value);
  };
  return args.every((a) => isTrivial(a) || atConstant(a));
}

/** Whether a function takes arguments: parameters beyond a leading receiver (one of `receivers`: Python's `self`, `cls`). */
export function takesArguments(p: Parameters, receivers: readonly string[]): boolean {
  const first = p.positional[0];
  const own = first !== undefined && receivers.includes(first) ? p.positional.length - 1 : p.positional.length;
  return own + p.other > 0;
}
