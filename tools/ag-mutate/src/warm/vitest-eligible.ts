/**
 * Whether a vitest project may be judged on a warm host: a plain `vitest run` command whose
 * flags are known, and a config that a conservative look at its text can vouch for (no
 * plugins, no global or per-file setup, no functions, no workspace, pool forks or threads,
 * isolation on). Every doubt is a reason to run fresh processes, never a guess.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { plainWords } from '../runners/runner.js';

/** What the host is told: the command's file filters, its bail count and its config file. */
export interface HostPlan {
  readonly filters: readonly string[];
  readonly bail: number | null;
  readonly config: string | null;
}

/** A plan, or why there is none. */
export type Eligibility = { readonly plan: HostPlan } | { readonly reason: string };

const base = (word: string) => word.slice(word.lastIndexOf('/') + 1);
const CONFIG_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];
/** Modules a config may import: vitest's and vite's own `defineConfig`. */
const CONFIG_IMPORTS = new Set(['vitest/config', 'vite']);
/** Config text that the host cannot vouch for, with the reason. */
const CONFIG_DOUBTS: readonly [RegExp, string][] = [
  [/\bplugins\b/, 'plugins'],
  [/\bglobalSetup\b/, 'globalSetup'],
  [/\bsetupFiles\b/, 'setupFiles'],
  [/\b(?:workspace|projects)\b/, 'projects'],
  [/\bbrowser\b/, 'browser mode'],
  [/\bpoolOptions\b/, 'poolOptions'],
  [/\bisolate\b/, 'isolate'],
  [/\b(?:typecheck|benchmark|forceRerunTriggers|watchTriggerPatterns)\b/, 'an option the host does not handle'],
  [/=>|\bfunction\b|\bclass\b|\basync\b|\bawait\b/, 'a function-valued field'],
  [/\brequire\s*\(|\bimport\s*\(/, 'a dynamic import'],
];

/** The command's plan: `[npx] …/vitest run [filters] [--bail N] [--config FILE]`; anything else has none. */
export function vitestCommandPlan(command: string): Eligibility {
  const words = plainWords(command);
  if (words === null) return { reason: 'the mutant command is not a plain command line' };
  let i = base(words[0]!) === 'npx' ? 1 : 0;
  if (!/^vitest(?:\.mjs)?$/.test(base(words[i] ?? ''))) return { reason: 'the mutant command does not start vitest' };
  if (words[++i] !== 'run') return { reason: 'the mutant command is not `vitest run`' };
  const filters: string[] = [];
  let bail: number | null = null;
  let config: string | null = null;
  for (i++; i < words.length; i++) {
    const w = words[i]!;
    const [flag, inline] =
      w.startsWith('--') && w.includes('=')
        ? [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]
        : [w, undefined];
    const value = () => inline ?? words[++i];
    if (!w.startsWith('-')) filters.push(w);
    else if (flag === '--bail') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) return { reason: `the mutant command's ${w} is not a count` };
      bail = n;
    } else if (flag === '--config' || flag === '-c') {
      const file = value();
      if (file === undefined) return { reason: 'the mutant command has --config without a file' };
      config = file;
    } else return { reason: `the mutant command has the flag ${flag}, which the host does not handle` };
  }
  return { plan: { filters, bail, config } };
}

/** The config file vitest would load from `root` (vitest.config.* before vite.config.*), null when none. */
export function findVitestConfig(root: string, given: string | null): string | null {
  if (given !== null) return path.resolve(root, given);
  for (const name of ['vitest.config', 'vite.config'])
    for (const ext of CONFIG_EXTENSIONS) {
      const file = path.join(root, name + ext);
      if (existsSync(file)) return file;
    }
  return null;
}

/** Why the config text cannot be vouched for, null when it can. */
export function configDoubt(text: string): string | null {
  const code = text.replace(/^\s*\/\/\/.*$/gm, '');
  for (const [pattern, what] of CONFIG_DOUBTS) if (pattern.test(code)) return `the vitest config has ${what}`;
  for (const m of code.matchAll(/\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g))
    if (!CONFIG_IMPORTS.has(m[1]!)) return `the vitest config imports ${m[1]}`;
  if (/\bimport\s*['"]/.test(code)) return 'the vitest config imports a module for its effects';
  const pool = [...code.matchAll(/\bpool\s*:\s*(['"]?)(\w*)\1/g)].map((m) => m[2]);
  if (pool.some((p) => p !== 'forks' && p !== 'threads'))
    return 'the vitest config has a pool other than forks or threads';
  return null;
}

/** The host plan for `command` in `root`, or why the fresh path judges every mutant. */
export function vitestHostPlan(root: string, command: string): Eligibility {
  const fromCommand = vitestCommandPlan(command);
  if (!('plan' in fromCommand)) return fromCommand;
  for (const name of ['vitest.workspace', 'vitest.projects'])
    for (const ext of [...CONFIG_EXTENSIONS, '.json'])
      if (existsSync(path.join(root, name + ext))) return { reason: `the project has ${name + ext}` };
  const file = findVitestConfig(root, fromCommand.plan.config);
  if (file === null) return fromCommand;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { reason: `the vitest config ${path.relative(root, file)} cannot be read` };
  }
  const doubt = configDoubt(text);
  return doubt === null ? fromCommand : { reason: doubt };
}
