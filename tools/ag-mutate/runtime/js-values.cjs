'use strict';
// The values ag-mutate carries out of a JavaScript test process and back into its judge: JSON
// with types. A number (finite, not -0), string, boolean, null and a dense array are plain
// JSON; everything else is a one-key-tagged object: {"$": "undefined"}, {"$": "number", "v":
// "NaN" | "Infinity" | "-Infinity" | "-0"}, {"$": "bigint", "v": "12"}, {"$": "date", "v": ms |
// "NaN"}, {"$": "object", "v": {key: value}} (a plain object: its prototype Object.prototype or
// null, own enumerable string keys, no accessors). Anything else (a function, a class instance,
// a Map, a symbol, a cycle, a sparse array) cannot be carried: `encode` throws.
const util = require('node:util');

const MAX_DEPTH = 8;
const MAX_ITEMS = 2000;

class Unrecordable extends Error {}

function encode(value, depth = 0, seen = new Set()) {
  if (depth > MAX_DEPTH) throw new Unrecordable('too deep');
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'undefined':
      return { $: 'undefined' };
    case 'bigint':
      return { $: 'bigint', v: value.toString() };
    case 'number':
      if (Number.isNaN(value)) return { $: 'number', v: 'NaN' };
      if (value === Infinity) return { $: 'number', v: 'Infinity' };
      if (value === -Infinity) return { $: 'number', v: '-Infinity' };
      if (Object.is(value, -0)) return { $: 'number', v: '-0' };
      return value;
    case 'object':
      break;
    default:
      throw new Unrecordable(typeof value);
  }
  if (value === null) return null;
  if (seen.has(value)) throw new Unrecordable('a cycle');
  const proto = Object.getPrototypeOf(value);
  if (value instanceof Date && proto === Date.prototype) {
    const ms = value.getTime();
    return { $: 'date', v: Number.isNaN(ms) ? 'NaN' : ms };
  }
  seen.add(value);
  try {
    if (Array.isArray(value) && proto === Array.prototype) {
      if (value.length > MAX_ITEMS) throw new Unrecordable('too long');
      const out = [];
      for (let i = 0; i < value.length; i++) {
        if (!Object.prototype.hasOwnProperty.call(value, i)) throw new Unrecordable('a sparse array');
        out.push(encode(value[i], depth + 1, seen));
      }
      return out;
    }
    if (proto !== Object.prototype && proto !== null) throw new Unrecordable('not a plain object');
    if (Object.getOwnPropertySymbols(value).length > 0) throw new Unrecordable('symbol keys');
    const out = {};
    const keys = Object.keys(value);
    if (keys.length > MAX_ITEMS) throw new Unrecordable('too many keys');
    for (const key of keys) {
      const d = Object.getOwnPropertyDescriptor(value, key);
      if (d === undefined || !('value' in d)) throw new Unrecordable('an accessor');
      out[key] = encode(d.value, depth + 1, seen);
    }
    return { $: 'object', v: out };
  } finally {
    seen.delete(value);
  }
}

function decode(data) {
  if (data === null || typeof data !== 'object') return data;
  if (Array.isArray(data)) return data.map(decode);
  switch (data.$) {
    case 'undefined':
      return undefined;
    case 'number':
      return data.v === '-0' ? -0 : Number(data.v);
    case 'bigint':
      return BigInt(data.v);
    case 'date':
      return new Date(data.v === 'NaN' ? NaN : data.v);
    case 'object': {
      const out = {};
      for (const key of Object.keys(data.v)) out[key] = decode(data.v[key]);
      return out;
    }
    default:
      throw new Error(`not a carried value: ${JSON.stringify(data).slice(0, 80)}`);
  }
}

/** A value as text to compare: its encoding, or (a value that cannot be carried) Node's inspection of it. */
function show(value) {
  try {
    return JSON.stringify(encode(value));
  } catch {
    try {
      const kind = value === null || value === undefined ? String(value) : (value.constructor?.name ?? 'Object');
      return `${kind}:${util.inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: MAX_ITEMS, sorted: true })}`.slice(
        0,
        4000,
      );
    } catch {
      return '?';
    }
  }
}

/** What a caller got back, as text to compare: `value <shown>` or `raise <name>: <message>`. */
function answerText(got) {
  if (got.ok) return `value ${show(got.value)}`;
  const error = got.error;
  const object = error !== null && typeof error === 'object';
  let name = typeof error;
  let message = String(error);
  try {
    if (object) {
      name = String(error.name ?? error.constructor?.name ?? 'Error');
      message = String(error.message ?? '');
    }
  } catch {
    message = '?';
  }
  return `raise ${name}: ${message.slice(0, 1000)}`;
}

const SHAPE_DEPTH = 3;
const SHAPE_ITEMS = 16;
const SHAPE_KEYS = 32;
// What the rules never hold against either side (an accessor, a value that cannot be read).
const NO_CLAIM = Object.freeze({ t: 'iter' });

/**
 * Which kind of mock function a value is: 'jest' (jest's and vitest's: `mock.calls` and
 * `mock.results`), 'node' (node:test's: `mock.calls` of {arguments, result, error}), or null.
 */
function mockKind(value) {
  try {
    if (typeof value !== 'function' || !Array.isArray(value.mock?.calls)) return null;
    if (value._isMockFunction === true) return 'jest';
    return typeof value.mock.callCount === 'function' && typeof value.mock.mockImplementation === 'function'
      ? 'node'
      : null;
  } catch {
    return null;
  }
}

const isMock = (value) => mockKind(value) !== null;

function distinctShapes(values, depth, real) {
  const out = [];
  const seen = new Set();
  for (const v of values) {
    const s = shape(v, depth + 1, real);
    const k = JSON.stringify(s);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(s);
  }
  return out;
}

/**
 * A value's shape, in the vocabulary of ag-mutate's contract rules (src/apart/contract-rules.ts):
 * null and undefined are `none`; an integral number or a bigint `int`, any other number
 * `float`; an array `seq`, a Set `set`, a plain object `map` (with its keys), a Map `map`; a
 * jest, vitest or node:test mock `mock`; a promise or an iterator `iter` (never drawn); anything else an
 * `object` of its constructor's name; what cannot be read without running code (an accessor)
 * `iter`, no claim. Reads only own data: taking it changes nothing. With `real` (a real
 * collaborator's answer), 0, 1 and -1 are `float`: a rate, a ratio or a share is integral there
 * too, so they claim no integer contract.
 */
function shape(value, depth = 0, real = false) {
  try {
    if (value === null || value === undefined) return { t: 'none' };
    switch (typeof value) {
      case 'boolean':
        return { t: 'bool' };
      case 'bigint':
        return { t: 'int' };
      case 'number':
        return { t: Number.isInteger(value) && !(real && Math.abs(value) <= 1) ? 'int' : 'float' };
      case 'string':
        return { t: 'str' };
      case 'function':
        return isMock(value) ? { t: 'mock' } : { t: 'object', type: 'Function' };
      case 'object':
        break;
      default:
        return { t: 'object', type: typeof value };
    }
    if (ArrayBuffer.isView(value)) return { t: 'bytes' };
    if (typeof value.then === 'function' || typeof value.next === 'function') return { t: 'iter' };
    const proto = Object.getPrototypeOf(value);
    if (depth < SHAPE_DEPTH && Array.isArray(value))
      return { t: 'seq', items: distinctShapes(value.slice(0, SHAPE_ITEMS), depth, real) };
    if (depth < SHAPE_DEPTH && value instanceof Set)
      return { t: 'set', items: distinctShapes([...value].slice(0, SHAPE_ITEMS), depth, real) };
    if (depth < SHAPE_DEPTH && value instanceof Map)
      return { t: 'map', keys: null, items: distinctShapes([...value.values()].slice(0, SHAPE_ITEMS), depth, real) };
    if (depth < SHAPE_DEPTH && (proto === Object.prototype || proto === null)) {
      const keys = Object.keys(value);
      if (keys.length > SHAPE_KEYS) return { t: 'map', keys: null, items: [] };
      const out = {};
      for (const key of keys) {
        const d = Object.getOwnPropertyDescriptor(value, key);
        out[key] = d !== undefined && 'value' in d ? shape(d.value, depth + 1, real) : NO_CLAIM;
      }
      return { t: 'map', keys: out, items: [] };
    }
    return { t: 'object', type: String(value.constructor?.name ?? 'Object') };
  } catch {
    return NO_CLAIM;
  }
}

/** An error's name, as the contract rules compare it. */
function errorName(error) {
  try {
    if (error !== null && typeof error === 'object') return String(error.name ?? error.constructor?.name ?? 'Error');
  } catch {
    // an error that cannot be read: its kind
  }
  return typeof error;
}

/** Run `fn`: its value or what it threw. */
function attempt(fn) {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

module.exports = { encode, decode, show, answerText, attempt, shape, mockKind, errorName, Unrecordable };
