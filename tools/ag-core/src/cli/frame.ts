/**
 * The CLI frame: runs a citty command under one error boundary that owns the exit code.
 * citty's own `runMain` exits 1 on usage errors and crashes alike, and 1 means REJECT
 * here, so commands run under `runCommand` and this wrapper instead.
 * @module
 */
import { stripVTControlCharacters } from 'node:util';
import { renderUsage, runCommand, type ArgsDef, type CommandDef } from 'citty';
import { LoadError } from '@adversary-gate/schemas';
import { repeatedArg } from './args.js';
import { EXIT, InputError, UsageError } from './errors.js';

/** A binary: its default command and optional sub-commands chosen by the first argument. */
export interface CliSpec {
  readonly name: string;
  readonly version: string;
  readonly main: CommandDef<any>;
  readonly subCommands?: Readonly<Record<string, CommandDef<any>>>;
  /** Flags that may be given more than once (read them with `repeatedArg`); every other flag once. */
  readonly repeatable?: readonly string[];
}

function flagNames(def: ArgsDef): Set<string> {
  const names = new Set<string>(['help', 'h']);
  for (const [name, arg] of Object.entries(def)) {
    if (arg.type === 'positional') continue;
    names.add(name);
    names.add(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
    names.add(name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
    if (arg.type === 'boolean') names.add(`no-${name}`);
    const aliases = (arg as { alias?: string | string[] }).alias;
    for (const a of aliases === undefined ? [] : Array.isArray(aliases) ? aliases : [aliases]) names.add(a);
  }
  return names;
}

/** Refuse a single-valued flag given twice: citty would keep the last one silently. */
export function checkRepeatedFlags(rawArgs: readonly string[], def: ArgsDef, repeatable: readonly string[] = []): void {
  for (const [name, arg] of Object.entries(def)) {
    if (arg.type === 'positional' || arg.type === 'boolean' || repeatable.includes(name)) continue;
    const n = repeatedArg(rawArgs, name).length;
    if (n > 1) throw new UsageError(`--${name} was given ${n} times; give it once`);
  }
}

/** Refuse flags the command does not declare (citty accepts anything). */
export function checkUnknownFlags(rawArgs: readonly string[], def: ArgsDef): void {
  const names = flagNames(def);
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

function errorLine(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}

/**
 * Run a binary and return its exit code. Usage errors, unreadable inputs and citty's own
 * argument errors map to 3; anything unexpected maps to 2 with one stderr line; a command
 * that returns a number exits with it, otherwise 0.
 */
export async function runCli(spec: CliSpec, rawArgs: readonly string[] = process.argv.slice(2)): Promise<number> {
  const verbose = rawArgs.includes('--verbose');
  let command = spec.main;
  let args = [...rawArgs];
  const sub = args[0] !== undefined ? spec.subCommands?.[args[0]] : undefined;
  if (sub !== undefined) {
    command = sub;
    args = args.slice(1);
  }
  try {
    if (args.includes('--help') || args.includes('-h')) {
      const usage = await renderUsage(command);
      const plain = !process.stdout.isTTY || (process.env.NO_COLOR ?? '') !== '';
      process.stdout.write(`${plain ? stripVTControlCharacters(usage) : usage}\n`);
      return EXIT.OK;
    }
    if (sub === undefined && args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
      process.stdout.write(`${spec.version}\n`);
      return EXIT.OK;
    }
    const def = (typeof command.args === 'function' ? await command.args() : await command.args) ?? {};
    checkUnknownFlags(args, def as ArgsDef);
    checkRepeatedFlags(args, def as ArgsDef, spec.repeatable);
    const { result } = await runCommand(command, { rawArgs: args });
    return typeof result === 'number' ? result : EXIT.OK;
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    const usage = error instanceof UsageError || name === 'CLIError';
    const input = error instanceof InputError || error instanceof LoadError;
    process.stderr.write(`${spec.name}: ${usage ? 'usage: ' : ''}${errorLine(error)}\n`);
    if (usage) process.stderr.write(`${spec.name}: see \`${spec.name} --help\`\n`);
    if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    if (usage || input) return EXIT.USAGE;
    return EXIT.HOLD;
  }
}

/** Entry point for a bin shim: run, then set `process.exitCode` (never `process.exit`). */
export async function main(spec: CliSpec): Promise<void> {
  let code: number;
  try {
    code = await runCli(spec);
  } catch {
    code = EXIT.HOLD;
  }
  process.exitCode = code === EXIT.OK || code === EXIT.REJECT || code === EXIT.HOLD || code === EXIT.USAGE ? code : EXIT.HOLD;
}
