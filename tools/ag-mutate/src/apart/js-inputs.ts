/**
 * The inputs the JavaScript judge calls a function with, worked on in their carried form
 * (runtime/js-values.cjs: JSON with types): the distinct recorded calls, their neighbours (one
 * argument changed at a time, as ag_mutate_equiv.py's `_variants` changes Python values), the
 * arguments as the rules see them (argument-rules.ts decides a base case and a boundary), and
 * a call as text for a finding.
 * @module
 */
import type { Keys } from './js-functions.js';
import type { ArgFact } from './argument-rules.js';

/** A carried value: plain JSON, or a tagged object (`{$: 'undefined' | 'number' | 'bigint' | 'date' | 'object', v}`). */
export type Carried = null | boolean | number | string | Carried[] | { readonly $: string; readonly v?: unknown };
/** A call's arguments, carried. */
export type Args = readonly Carried[];

/** Neighbours per recorded call, at most (as ag_mutate_equiv.py's MAX_NEIGHBOURS). */
const MAX_NEIGHBOURS = 24;

const key = (x: unknown) => JSON.stringify(x);

/** A number as carried: plain when finite and not -0. */
function num(x: number): Carried {
  if (Number.isNaN(x)) return { $: 'number', v: 'NaN' };
  if (!Number.isFinite(x)) return { $: 'number', v: x > 0 ? 'Infinity' : '-Infinity' };
  return Object.is(x, -0) ? 0 : x;
}

/** Values near `value`, of its kind (`wide`: numbers also ±10 and times ten), and the constants of its kind. */
function variants(value: Carried, consts: Keys, wide: boolean): Carried[] {
  if (typeof value === 'boolean') return [!value];
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return [0, value + 0.5, value - 0.5, -value].map(num);
    const far = wide ? [value + 10, value - 10, 10 * value] : [];
    return [value - 1, value + 1, 0, -value, 2 * value, Math.floor(value / 2), ...far, ...consts.ints].map(num);
  }
  if (typeof value === 'string')
    return [
      '',
      `${value} `,
      ` ${value}`,
      value.slice(0, 1),
      value.slice(1),
      [...value].reverse().join(''),
      value.toUpperCase(),
      ...consts.strs,
    ];
  if (Array.isArray(value)) return [[], value.slice(0, 1), [...value].reverse(), [...value, ...value.slice(-1)]];
  if (value !== null && value.$ === 'object') {
    const entries = Object.entries(value.v as Record<string, Carried>);
    return [
      { $: 'object', v: {} },
      { $: 'object', v: Object.fromEntries(entries.slice(0, 1)) },
    ];
  }
  if (value !== null && value.$ === 'bigint') {
    const b = BigInt(value.v as string);
    return [b - 1n, b + 1n, 0n, -b, 2n * b].map((x) => ({ $: 'bigint', v: x.toString() }));
  }
  return [];
}

/** The calls without repeats (by their carried text), in recorded order. */
export function distinct(calls: readonly Args[]): Args[] {
  const seen = new Set<string>();
  return calls.filter((c) => {
    const k = key(c);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The other arguments of `call` of the kind of argument `i` (numbers, strings): a comparison between two arguments turns where they meet. */
function peers(call: Args, i: number): Carried[] {
  const kind = typeof call[i];
  if (kind !== 'number' && kind !== 'string') return [];
  return call.filter((v, j) => j !== i && typeof v === kind);
}

/**
 * Each call with one argument changed at a time (a value near it, or another argument's of its
 * kind), none of them a recorded call, without repeats.
 */
export function neighbours(calls: readonly Args[], consts: Keys, wide = false): Args[] {
  const out: Args[] = [];
  const seen = new Set(calls.map(key));
  for (const call of calls)
    for (let i = 0; i < call.length; i++)
      for (const near of [...variants(call[i]!, consts, wide), ...peers(call, i)]) {
        const next = [...call];
        next[i] = near;
        const k = key(next);
        if (seen.has(k)) continue;
        seen.add(k);
        out.push(next);
        if (out.length >= MAX_NEIGHBOURS * Math.max(1, calls.length)) return out;
      }
  return out;
}

/** The longest string constant the judges collect: a longer argument can be no constant. */
const MAX_LITERAL = 40;

/** A carried argument as the rules see it (argument-rules.ts decides what is trivial and what is a constant). */
function argFact(v: Carried): ArgFact {
  if (v === null) return { kind: 'none' };
  if (typeof v === 'boolean') return { kind: 'bool' };
  if (typeof v === 'number')
    return Number.isInteger(v)
      ? { kind: 'int', value: BigInt(v).toString(), exact: true }
      : { kind: 'float', value: String(v) };
  if (typeof v === 'string') return { kind: 'str', value: v.length <= MAX_LITERAL ? v : null, size: v.length };
  if (Array.isArray(v)) return { kind: 'sized', size: v.length };
  switch (v.$) {
    case 'undefined':
      return { kind: 'none' };
    case 'number': // NaN, ±Infinity, -0
      return { kind: 'float', value: String(v.v) };
    case 'object':
      return { kind: 'sized', size: Object.keys(v.v as object).length };
    default: // bigint, date
      return { kind: 'other' };
  }
}

/** A call's arguments as the rules see them. */
export function argFacts(args: Args): ArgFact[] {
  return args.map(argFact);
}

function shown(v: Carried, depth = 0): string {
  if (depth > 4) return '…';
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (v === null || typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => shown(x, depth + 1)).join(', ')}]`;
  switch (v.$) {
    case 'undefined':
      return 'undefined';
    case 'number':
      return String(v.v);
    case 'bigint':
      return `${String(v.v)}n`;
    case 'date':
      return `new Date(${String(v.v)})`;
    case 'object': {
      const entries = Object.entries(v.v as Record<string, Carried>);
      return entries.length === 0 ? '{}' : `{ ${entries.map(([k, x]) => `${k}: ${shown(x, depth + 1)}`).join(', ')} }`;
    }
    default:
      return '?';
  }
}

/** A call as JavaScript text (each argument cut at 80 characters). */
export function callText(name: string, args: Args): string {
  return `${name}(${args.map((a) => shown(a).slice(0, 80)).join(', ')})`;
}
