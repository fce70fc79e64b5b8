/**
 * Which test runner a command starts, and whether it can be told to run only some tests.
 * Recognised from the command itself: a plain command line (no quotes, pipes, lists,
 * redirections or substitutions) whose program is the runner.
 * @module
 */
import { isPytest } from '../exec/outcome.js';

/** The runners ag-mutate recognises (as recorded in mutation.json's `test_selection.runner`). */
export type RunnerName = 'node-test' | 'pytest' | 'mocha' | 'vitest' | 'jest' | 'other';

/** A recognised command. */
export interface Runner {
  readonly name: RunnerName;
  /**
   * For `node --test`: the command's words without its positional file arguments, so that
   * one test file can be appended. Null for every other runner.
   */
  readonly nodeTestPrefix: readonly string[] | null;
}

/** Characters that make a command more than one plain word list (glob characters are allowed: file arguments are dropped). */
const SHELL_SYNTAX = /["'`$\\;&|<>(){}\n~#]/;
/** Characters that need quoting in a file name appended to a command. */
const NEEDS_QUOTES = /[^\w@%+=:,./-]/;

/** node options that take their value as the next word. */
const NODE_VALUE_FLAGS = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
  '--env-file',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-name-pattern',
  '--test-skip-pattern',
  '--test-concurrency',
  '--test-shard',
  '--test-timeout',
  '--input-type',
  '--stack-size',
  '--max-old-space-size',
  '--title',
]);

/** Split a plain command into words; null when it uses shell syntax beyond spaces. */
export function plainWords(command: string): string[] | null {
  if (SHELL_SYNTAX.test(command)) return null;
  const words = command
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  return words.length === 0 ? null : words;
}

const base = (word: string) => word.slice(word.lastIndexOf('/') + 1);

/** `node … --test …`: the words before the positional arguments (and after them, options). */
function nodeTest(words: readonly string[]): string[] | null {
  if (!/^node(?:js)?$/.test(base(words[0]!))) return null;
  const kept = [words[0]!];
  let test = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--test') test = true;
    if (w === '--') return null;
    if (!w.startsWith('-')) continue; // a file or glob argument: replaced by the selected file
    kept.push(w);
    if (NODE_VALUE_FLAGS.has(w)) {
      if (i + 1 >= words.length) return null;
      kept.push(words[++i]!);
    }
  }
  return test ? kept : null;
}

/** Recognise the runner of a test command. */
export function detectRunner(command: string): Runner {
  if (isPytest(command)) return { name: 'pytest', nodeTestPrefix: null };
  const words = plainWords(command);
  if (words !== null) {
    const prefix = nodeTest(words);
    if (prefix !== null) return { name: 'node-test', nodeTestPrefix: prefix };
  }
  const programs = (words ?? command.split(/[\s;&|()]+/)).map(base);
  for (const name of ['mocha', 'vitest', 'jest'] as const)
    if (programs.includes(name)) return { name, nodeTestPrefix: null };
  return { name: 'other', nodeTestPrefix: null };
}

/** A mocha program word: `mocha`, `_mocha`, or mocha's `bin/mocha.js`. */
const isMocha = (word: string) => /^_?mocha(?:\.[cm]?js)?$/.test(base(word));

/** Leading `NAME=value` assignments (a value plain or in single quotes), as the gate's wired commands start. */
const ASSIGNMENTS = /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|[^\s"'`$\\;&|<>(){}]*)\s+)*/;

/**
 * The program a plain word list runs: past `npx` and its options, past `node`, and past the
 * gate's runner launcher (`node …/runner-launcher.cjs mocha …`: its first argument names the
 * runner, every later one is the runner's).
 */
function programOf(words: readonly string[]): string | undefined {
  let i = 0;
  if (base(words[i] ?? '') === 'npx') for (i++; words[i]?.startsWith('-') === true; i++);
  if (/^node(?:js)?$/.test(base(words[i] ?? ''))) i++;
  if (base(words[i] ?? '') === 'runner-launcher.cjs') i++;
  return words[i];
}

/**
 * The command with a mocha root hook plugin added (`--require FILE` at the end), or null
 * when the command is not a plain mocha command line (its program, or the program of `npx`,
 * `node` or the gate's runner launcher, is mocha; leading variable assignments allowed), so
 * that nothing else could receive the option.
 */
export function withMochaRequire(command: string, hook: string): string | null {
  const prefix = ASSIGNMENTS.exec(command)![0];
  const words = plainWords(command.slice(prefix.length));
  if (words === null) return null;
  const program = programOf(words);
  if (program === undefined || !isMocha(program) || words.includes('--')) return null;
  return `${prefix}${words.join(' ')} --require ${quote(hook)}`;
}

/** A word for /bin/sh, quoted only when it needs to be. */
function quote(word: string): string {
  return NEEDS_QUOTES.test(word) ? `'${word.replaceAll("'", "'\\''")}'` : word;
}

/** The command that runs one test file with the node:test runner of `runner`. */
export function nodeTestFileCommand(runner: Runner, testFile: string): string {
  if (runner.nodeTestPrefix === null) throw new Error('not a node --test command');
  return `${runner.nodeTestPrefix.join(' ')} ${quote(testFile)}`;
}
