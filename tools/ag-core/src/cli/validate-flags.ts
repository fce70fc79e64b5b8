/**
 * The frame's checks of a command line against the command's declared flags, made before the
 * command runs; each refusal is one UsageError, InputError or OutputError line (exit 3).
 * @module
 */
import { statSync } from 'node:fs';
import type { ArgsDef } from 'citty';
import { checkOutputTarget } from '@adversary-gate/schemas';
import { checkChoice, repeatedArg, type FlagMarks } from './args.js';
import { InputError, UsageError } from './errors.js';

type Declared = ArgsDef[string] & FlagMarks;

function entries(def: ArgsDef): [string, Declared][] {
  return Object.entries(def) as [string, Declared][];
}

/** Every spelling of each flag (kebab, camel, `no-` for booleans, aliases) and whether it takes a value. */
function flagKinds(def: ArgsDef): Map<string, 'string' | 'boolean'> {
  const kinds = new Map<string, 'string' | 'boolean'>([
    ['help', 'boolean'],
    ['h', 'boolean'],
  ]);
  for (const [name, arg] of entries(def)) {
    if (arg.type === 'positional') continue;
    const kind = arg.type === 'boolean' ? 'boolean' : 'string';
    kinds.set(name, kind);
    kinds.set(
      name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
      kind,
    );
    kinds.set(
      name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
      kind,
    );
    if (arg.type === 'boolean') kinds.set(`no-${name}`, 'boolean');
    const aliases = (arg as { alias?: string | string[] }).alias;
    for (const a of aliases === undefined ? [] : Array.isArray(aliases) ? aliases : [aliases]) kinds.set(a, kind);
  }
  return kinds;
}

/** Refuse flags the command does not declare (citty accepts anything). */
export function checkUnknownFlags(rawArgs: readonly string[], def: ArgsDef): void {
  const names = flagKinds(def);
  for (const token of rawArgs) {
    if (token === '--') break;
    if (token === '-' || !token.startsWith('-')) continue;
    if (/^-\d/.test(token)) continue;
    const name = token.replace(/^--?/, '').split('=')[0]!;
    if (token.startsWith('--') ? !names.has(name) : ![...name].every((c) => names.has(c))) {
      throw new UsageError(`unknown flag ${token.split('=')[0]}`);
    }
  }
}

/** Refuse a single-valued flag given twice: citty would keep the last one silently. */
export function checkRepeatedFlags(rawArgs: readonly string[], def: ArgsDef, repeatable: readonly string[] = []): void {
  for (const [name, arg] of entries(def)) {
    if (arg.type === 'positional' || arg.type === 'boolean' || repeatable.includes(name)) continue;
    const n = repeatedArg(rawArgs, name).length;
    if (n > 1) throw new UsageError(`--${name} was given ${n} times; give it once`);
  }
}

/**
 * The words of a command line that are positional arguments, read as citty reads them: a flag
 * that takes a value takes the next word (unless written `--flag=value`), a boolean flag
 * none, and every word after `--` is positional.
 */
export function positionalWords(rawArgs: readonly string[], def: ArgsDef): string[] {
  const kinds = flagKinds(def);
  const words: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i]!;
    if (token === '--') {
      words.push(...rawArgs.slice(i + 1));
      break;
    }
    if (token === '-' || !token.startsWith('-') || /^-\d/.test(token)) {
      words.push(token);
      continue;
    }
    if (token.includes('=')) continue;
    if (kinds.get(token.replace(/^--?/, '')) === 'string') i++;
  }
  return words;
}

/**
 * Refuse positional words the command does not take: a word where no positional is declared
 * (`--evidence a b c` would read only `a`), more words than declared positionals (unless the
 * last is variadic), and, for a binary with sub-commands, a first word that names none.
 */
export function checkPositionals(rawArgs: readonly string[], def: ArgsDef, subCommands: readonly string[] = []): void {
  const declared = entries(def).filter(([, arg]) => arg.type === 'positional');
  if (declared.some(([, arg]) => arg.variadic === true)) return;
  const words = positionalWords(rawArgs, def);
  const extra = words[declared.length];
  if (extra === undefined) return;
  if (declared.length === 0 && subCommands.length > 0 && rawArgs[0] === extra) {
    throw new UsageError(`unknown command "${extra}" (the commands are ${subCommands.join(', ')}; or give only flags)`);
  }
  const takes =
    declared.length === 0
      ? 'it takes no positional argument: every value needs its flag, and a repeatable flag is repeated for each value'
      : `it takes ${declared.map(([name]) => name.toUpperCase()).join(' ')} only`;
  throw new UsageError(`unexpected argument "${extra}": ${takes}`);
}

/**
 * Check the values of the flags declared with ag-core's marks: a choice flag's value is one of
 * its choices, a directory flag names an existing directory, an output flag a target the
 * writer accepts (see `checkOutputTarget`). Empty values are left to the readers.
 * @throws UsageError, InputError, OutputError
 */
export function checkDeclaredValues(rawArgs: readonly string[], def: ArgsDef): void {
  for (const [name, arg] of entries(def)) {
    if (arg.type === 'positional' || arg.type === 'boolean') continue;
    const values =
      arg.choices !== undefined || arg.directory === true || arg.output === true ? repeatedArg(rawArgs, name) : [];
    for (const value of values) {
      if (value === '') continue;
      if (arg.choices !== undefined) checkChoice(value, name, arg.choices);
      if (arg.directory === true) checkDirectory(value, name);
      if (arg.output === true && value !== '-') checkOutputTarget(value);
    }
  }
}

function checkDirectory(dir: string, flag: string): void {
  let st;
  try {
    st = statSync(dir, { throwIfNoEntry: false });
  } catch (error) {
    throw new InputError(dir, `--${flag} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (st === undefined) throw new InputError(dir, `--${flag} is not a directory (it does not exist)`);
  if (!st.isDirectory()) throw new InputError(dir, `--${flag} is not a directory`);
}
