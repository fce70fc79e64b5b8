/**
 * Shared flags, declared once and spread into every command, and helpers to read flags.
 * @module
 */
import type { ArgsDef } from 'citty';
import { UsageError } from './errors.js';

/**
 * A flag naming a file a command writes (`-`: stdout). Before the command runs, the frame
 * refuses a target the writer would refuse (a missing directory, a directory, a block
 * device, a socket, a link to a regular file); a device or FIFO is written in place.
 */
export function outputFlag<const D extends string>(description: D) {
  return { type: 'string', description, valueHint: 'FILE', output: true } as const;
}

/** A flag naming a directory that must exist: the frame checks it before the command runs (exit 3 naming it). */
export function directoryFlag<const D extends string>(description: D) {
  return { type: 'string', description, valueHint: 'DIR', directory: true } as const;
}

/**
 * A flag whose value is one of `choices`: the frame refuses any other value before the
 * command runs (exit 3, naming the choices); read it with {@link choiceArg}.
 */
export function choiceFlag<const C extends readonly string[], const D extends string>(
  choices: C,
  description: D,
  valueHint = 'MODE',
) {
  return { type: 'string', description, valueHint, choices } as const;
}

/** A positional argument that takes every remaining word (read them from `args._`); any other positional takes one. */
export function variadicPositional<const D extends string>(description: D) {
  return { type: 'positional', description, required: true, variadic: true } as const;
}

/** The marks the frame reads from a flag's declaration. */
export interface FlagMarks {
  readonly output?: boolean;
  readonly directory?: boolean;
  readonly choices?: readonly string[];
  readonly variadic?: boolean;
}

/** Flags every tool takes. */
export const sharedArgs = {
  out: outputFlag('Where to write the artefact (`-` for stdout)'),
  quiet: { type: 'boolean', description: 'Print nothing on stderr but errors' },
  verbose: { type: 'boolean', description: 'Print stack traces with errors' },
} as const satisfies ArgsDef;

/** `a or b`, `one of a, b, c`: the choices as a refusal names them. */
export function choiceList(choices: readonly string[]): string {
  return choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(', ')}`;
}

/** Refuse a value outside a choice flag's choices. @throws UsageError */
export function checkChoice(value: string, flag: string, choices: readonly string[]): void {
  if (!choices.includes(value)) throw new UsageError(`--${flag} must be ${choiceList(choices)}, got "${value}"`);
}

/** A choice flag's value (given at most once, one of its choices), or undefined when absent. @throws UsageError */
export function choiceArg<const C extends readonly string[]>(
  value: unknown,
  flag: string,
  def: { readonly choices: C },
): C[number] | undefined {
  const raw = optionalArg(value, flag);
  if (raw === undefined) return undefined;
  checkChoice(raw, flag, def.choices);
  return raw as C[number];
}

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

/** `between 1 and 256`, or `at least 0` when there is no upper bound. */
function range(min: number, max: number): string {
  return max >= Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`;
}

/** A flag that must be an integer in [min, max]. */
export function intArg(value: unknown, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = optionalArg(value, flag);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${flag} must be an integer ${range(min, max)}, got "${raw}"`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${flag} must be ${range(min, max)}, got ${raw}`);
  return n;
}

/** A flag that must be a finite number in [min, max]. */
export function numberArg(value: unknown, flag: string, min: number, max: number): number | undefined {
  const raw = optionalArg(value, flag);
  if (raw === undefined) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(raw)) throw new UsageError(`--${flag} must be a number ${range(min, max)}, got "${raw}"`);
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new UsageError(`--${flag} must be ${range(min, max)}, got ${raw}`);
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
      if (next === undefined || (next.startsWith('--') && next.length > 2))
        throw new UsageError(`${token} needs a value`);
      out.push(next);
      i++;
    }
  }
  return out;
}
