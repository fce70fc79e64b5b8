/**
 * Shared flags, declared once and spread into every command, and helpers to read flags.
 * @module
 */
import type { ArgsDef } from 'citty';
import { UsageError } from './errors.js';

/** Flags every tool takes. */
export const sharedArgs = {
  out: { type: 'string', description: 'Where to write the artefact (`-` for stdout)', valueHint: 'FILE' },
  quiet: { type: 'boolean', description: 'Print nothing on stderr but errors' },
  verbose: { type: 'boolean', description: 'Print stack traces with errors' },
} as const satisfies ArgsDef;

/** A flag that may repeat, as a list (citty gives a string for one, an array for several). */
export function listArg(value: unknown): string[] {
  if (value === undefined || value === null || value === false) return [];
  if (Array.isArray(value)) return value.map(String);
  return [String(value)];
}

/** A flag given exactly once with a non-empty value. */
export function requiredArg(value: unknown, flag: string): string {
  const list = listArg(value);
  if (list.length === 0 || value === true) throw new UsageError(`--${flag} is required`);
  if (list.length > 1) throw new UsageError(`--${flag} was given ${list.length} times; give it once`);
  const v = list[0]!;
  if (v === '') throw new UsageError(`--${flag} needs a value`);
  return v;
}

/** A flag given at most once; undefined when absent. */
export function optionalArg(value: unknown, flag: string): string | undefined {
  const list = listArg(value);
  if (list.length === 0) return undefined;
  return requiredArg(value, flag);
}

/** A flag that must be an integer in [min, max]. */
export function intArg(value: unknown, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = optionalArg(value, flag);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${flag} must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${flag} must be between ${min} and ${max}, got ${raw}`);
  return n;
}

/** A flag that must be a finite number in [min, max]. */
export function numberArg(value: unknown, flag: string, min: number, max: number): number | undefined {
  const raw = optionalArg(value, flag);
  if (raw === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new UsageError(`--${flag} must be a number, got "${raw}"`);
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${flag} must be between ${min} and ${max}, got ${raw}`);
  return n;
}

/**
 * Every value of a repeatable flag, in order, read from the raw arguments (citty keeps only
 * the last one). Accepts `--name VALUE`, `--name=VALUE` and the camelCase spelling citty
 * also accepts; stops at `--`. A value may start with `-`, but not with `--`.
 */
export function repeatedArg(rawArgs: readonly string[], flag: string): string[] {
  const names = new Set([`--${flag}`, `--${flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}`]);
  const out: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i]!;
    if (token === '--') break;
    const eq = token.indexOf('=');
    if (eq > 0 && names.has(token.slice(0, eq))) {
      out.push(token.slice(eq + 1));
    } else if (names.has(token)) {
      const next = rawArgs[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) throw new UsageError(`${token} needs a value`);
      out.push(next);
      i++;
    }
  }
  return out;
}
