/**
 * The CLI frame: runs a citty command under one error boundary that owns the exit code.
 * citty's own `runMain` exits 1 on usage errors and crashes alike, and 1 means REJECT
 * here, so commands run under `runCommand` and this wrapper instead.
 * @module
 */
import { lstatSync, rmSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { renderUsage, runCommand, type ArgsDef, type CommandDef } from 'citty';
import {
  closeWriteSession,
  LoadError,
  oneLine,
  openWriteSession,
  OutputError,
  removeWritten,
  type WriteSession,
} from '@adversary-gate/schemas';
import { EXIT, InputError, UsageError } from './errors.js';
import { planFaults, type FaultPlan } from './fault.js';
import { checkDeclaredValues, checkPositionals, checkRepeatedFlags, checkUnknownFlags } from './validate-flags.js';
import { killLiveProcesses } from '../process/runner.js';

/** A binary: its default command and optional sub-commands chosen by the first argument. */
export interface CliSpec {
  readonly name: string;
  readonly version: string;
  // citty's command type is generic over each command's own flags: any command fits here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly main: CommandDef<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly subCommands?: Readonly<Record<string, CommandDef<any>>>;
  /** Flags that may be given more than once (read them with `repeatedArg`); every other flag once. */
  readonly repeatable?: readonly string[];
  /**
   * Output flags of the default command whose regular file is deleted before anything else,
   * before the flags are even checked, so no stale result survives a bad invocation
   * (ag-decide's `--out`). Only a regular file is deleted: never a device, FIFO, link or directory.
   */
  readonly clearFirst?: readonly string[];
}

/** Every value of `flag` in `rawArgs`, read leniently (the checks that refuse come later). */
function rawValues(rawArgs: readonly string[], flag: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const a = rawArgs[i]!;
    if (a === '--') break;
    if (a === `--${flag}` && rawArgs[i + 1] !== undefined) out.push(rawArgs[++i]!);
    else if (a.startsWith(`--${flag}=`)) out.push(a.slice(flag.length + 3));
  }
  return out;
}

/** Delete the regular files named by `flags` (see {@link CliSpec.clearFirst}). @throws UsageError */
function clearOutputs(rawArgs: readonly string[], flags: readonly string[]): void {
  for (const flag of flags) {
    for (const target of rawValues(rawArgs, flag)) {
      if (target === '-' || target === '') continue;
      try {
        if (lstatSync(target, { throwIfNoEntry: false })?.isFile() === true) rmSync(target, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') continue;
        throw new UsageError(
          `cannot delete the existing --${flag} file ${target} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        );
      }
    }
  }
}

/** Help text without trailing blanks (citty pads every column to the widest). */
function plainUsage(text: string): string {
  const plain = !process.stdout.isTTY || (process.env.NO_COLOR ?? '') !== '';
  return (plain ? stripVTControlCharacters(text) : text)
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** The error's first line, control characters escaped (a message may quote input the patch wrote: a raw `\r` could overwrite what a terminal shows). */
function errorLine(error: unknown): string {
  const text = error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error);
  return oneLine(text, 1000);
}

/** The command with the `before-read` fault point between citty's flag parsing and its run. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function withBeforeRead(command: CommandDef<any>, faults: FaultPlan | undefined): CommandDef<any> {
  const run = command.run;
  if (faults === undefined || run === undefined) return command;
  return {
    ...command,
    async run(context) {
      await faults.at('before-read');
      return run(context);
    },
  };
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** The environment `AG_FAULT` is read from (default: the process's own). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Run a binary and return its exit code. Usage errors, unreadable inputs and citty's own
 * argument errors map to 3; anything unexpected maps to 2 with one stderr line; a command
 * that returns a number exits with it, otherwise 0. A command that throws takes back the
 * files it wrote through the shared writer: a failed tool leaves no evidence behind.
 * `AG_FAULT` (see fault.ts) is honoured here and in the writer.
 */
export async function runCli(
  spec: CliSpec,
  rawArgs: readonly string[] = process.argv.slice(2),
  options: RunCliOptions = {},
): Promise<number> {
  const verbose = rawArgs.includes('--verbose');
  let command = spec.main;
  let commandName = spec.name;
  let args = [...rawArgs];
  const sub = args[0] !== undefined ? spec.subCommands?.[args[0]] : undefined;
  if (sub !== undefined) {
    command = sub;
    commandName = `${spec.name}.${args[0]}`;
    args = args.slice(1);
  }
  let session: WriteSession | undefined;
  try {
    if (sub === undefined && spec.clearFirst !== undefined) clearOutputs(args, spec.clearFirst);
    if (args.includes('--help') || args.includes('-h')) {
      // A sub-command's usage names the binary too (`USAGE ag-mutate merge`).
      const meta = (typeof command.meta === 'function' ? await command.meta() : await command.meta) ?? {};
      const shown =
        sub === undefined ? { ...command, meta: { name: spec.name, ...meta, version: spec.version } } : command;
      const usage = await renderUsage(
        shown,
        sub === undefined ? undefined : { meta: { name: spec.name, version: spec.version } },
      );
      process.stdout.write(`${plainUsage(usage)}\n`);
      return EXIT.OK;
    }
    if (sub === undefined && args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
      process.stdout.write(`${spec.version}\n`);
      return EXIT.OK;
    }
    const def = (typeof command.args === 'function' ? await command.args() : await command.args) ?? {};
    checkUnknownFlags(args, def as ArgsDef);
    checkRepeatedFlags(args, def as ArgsDef, spec.repeatable);
    checkPositionals(args, def as ArgsDef, sub === undefined ? Object.keys(spec.subCommands ?? {}) : []);
    checkDeclaredValues(args, def as ArgsDef);
    const faults = planFaults(commandName, options.env);
    session = openWriteSession(
      faults === undefined ? {} : { beforeWrite: faults.beforeWrite, midWrite: faults.midWrite },
    );
    activeSession = session;
    const { result } = await runCommand(withBeforeRead(command, faults), { rawArgs: args });
    await faults?.at('after-write');
    return typeof result === 'number' ? result : EXIT.OK;
  } catch (error) {
    const removed = session === undefined ? [] : takeBack(session);
    const name = (error as { name?: string } | null)?.name;
    const usage = error instanceof UsageError || name === 'CLIError';
    const input = error instanceof InputError || error instanceof LoadError || error instanceof OutputError;
    const help = usage ? ` (see \`${commandName.replace('.', ' ')} --help\`)` : '';
    process.stderr.write(`${spec.name}: ${usage ? 'usage: ' : ''}${errorLine(error)}${help}\n`);
    if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    if (removed.length > 0) process.stderr.write(`${spec.name}: removed what it wrote: ${removed.join(', ')}\n`);
    if (usage || input) return EXIT.USAGE;
    return EXIT.HOLD;
  } finally {
    if (session !== undefined) closeWriteSession(session);
    if (activeSession === session) activeSession = undefined;
  }
}

/** The write session of the command running now, for the crash handler of {@link main}. */
let activeSession: WriteSession | undefined;

function takeBack(session: WriteSession): string[] {
  try {
    return removeWritten(session);
  } catch {
    return [];
  }
}

/**
 * An exception no promise chain caught (an `error` event nobody listens to, a throw in a
 * timer) would make node exit 1, which reads as REJECT: report it in one line, take back
 * what the command wrote, and exit 2.
 */
function exitOnCrash(name: string): (error: unknown) => void {
  return (error) => {
    process.stderr.write(`${name}: ${errorLine(error)}\n`);
    if (process.argv.includes('--verbose') && error instanceof Error && error.stack)
      process.stderr.write(`${error.stack}\n`);
    if (activeSession !== undefined) takeBack(activeSession);
    process.exit(EXIT.HOLD);
  };
}

/** The signals that stop a tool from outside (a cancelled job, Ctrl-C, a closed terminal). */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * Stopped from outside: kill the test processes this tool started (they would otherwise
 * outlive it), take back what it wrote, then die of the same signal, as if no handler
 * had been installed.
 */
function dieWithChildren(signal: NodeJS.Signals): () => void {
  return () => {
    killLiveProcesses();
    if (activeSession !== undefined) takeBack(activeSession);
    for (const s of STOP_SIGNALS) process.removeAllListeners(s);
    process.kill(process.pid, signal);
  };
}

/**
 * Entry point for a bin shim: run, then set `process.exitCode` (never `process.exit`, so
 * output is flushed; only an uncaught crash exits at once, with 2).
 */
export async function main(spec: CliSpec): Promise<void> {
  process.on('uncaughtException', exitOnCrash(spec.name));
  process.on('unhandledRejection', exitOnCrash(spec.name));
  for (const signal of STOP_SIGNALS) process.once(signal, dieWithChildren(signal));
  let code: number;
  try {
    code = await runCli(spec);
  } catch {
    code = EXIT.HOLD;
  }
  process.exitCode =
    code === EXIT.OK || code === EXIT.REJECT || code === EXIT.HOLD || code === EXIT.USAGE ? code : EXIT.HOLD;
}
