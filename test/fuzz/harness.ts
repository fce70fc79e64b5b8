/**
 * Runs a reader's property: every mutant is read, and the outcome must be a valid result
 * or the reader's own refusal — never another exception, never a slow case, never a result
 * that claims more than the input shows. Seeds and case counts come from the environment
 * (`AG_FUZZ_SEED`, `AG_FUZZ_RUNS`) so CI is reproducible and a long run is not.
 * @module
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describeMutant, mutants, type Mutant, type MutantOptions, type Seed } from './mutators.js';

/** The default seed: CI runs the same cases every time. */
export const DEFAULT_SEED = 20261130;

/**
 * An in-process case slower than this is reported as a (near-)hang; `AG_FUZZ_CASE_MS`
 * overrides. Every seed reads in milliseconds; the bound is loose so a loaded CI machine
 * does not fail a correct reader.
 */
export const CASE_MS = Number(process.env.AG_FUZZ_CASE_MS ?? 10_000);

/** The seed of this run: `AG_FUZZ_SEED`, else the fixed default. */
export function fuzzSeed(): number {
  const raw = process.env.AG_FUZZ_SEED;
  return raw === undefined || raw === '' ? DEFAULT_SEED : Number(raw);
}

/** Cases per reader: `AG_FUZZ_RUNS` scales every reader's default (a multiplier when it ends in `x`, else an absolute count). */
export function fuzzRuns(defaultRuns: number): number {
  const raw = process.env.AG_FUZZ_RUNS;
  if (raw === undefined || raw === '') return defaultRuns;
  if (raw.endsWith('x')) return Math.max(1, Math.round(defaultRuns * Number(raw.slice(0, -1))));
  return Number(raw);
}

/** What a reader did with one input. */
export type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** A reader under test and what counts as a good outcome for it. */
export interface ReaderSpec {
  readonly name: string;
  readonly seeds: readonly Seed[];
  readonly mutation: MutantOptions;
  /** Cases in CI (before `AG_FUZZ_RUNS`). */
  readonly runs: number;
  /** The bound on one case, when not {@link CASE_MS} (readers that bound themselves, e.g. a binary run under a kill timer). */
  readonly caseMs?: number;
  /** The file name the input is written to (its name shows in refusals). */
  readonly fileName: string;
  /** Read the input at `file` (its bytes are `bytes`, mutated from the seed named `seed`). */
  read(file: string, bytes: Buffer, seed: string): Promise<unknown>;
  /** Null when the error is the reader's own refusal, else why it is not. */
  refusal(error: unknown, file: string): string | null;
  /** Null when the result is valid and claims no more than the input shows, else why not. */
  result(value: unknown, file: string, bytes: Buffer): string | null;
}

/** A property violation with the case that showed it. */
export interface Failure {
  readonly reader: string;
  readonly seed: number;
  readonly path: string | undefined;
  readonly problem: string;
  readonly input: string;
}

/** The outcome of fuzzing one reader. */
export interface FuzzReport {
  readonly reader: string;
  readonly runs: number;
  readonly seed: number;
  readonly refused: number;
  readonly accepted: number;
  readonly failure: Failure | null;
  /** Wall-clock and CPU (user + system) milliseconds. */
  readonly ms: number;
  readonly cpuMs: number;
}

/** One line for an error, as a report shows it. */
export function errorLine(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.split('\n')[0]}`;
  return `non-Error thrown: ${String(error)}`;
}

/** Judge one outcome; null when it is good. */
export function judge(spec: ReaderSpec, outcome: Outcome, file: string, bytes: Buffer, ms: number): string | null {
  const bound = spec.caseMs ?? CASE_MS;
  if (ms > bound) return `took ${Math.round(ms)} ms (over ${bound} ms: a hang in the making)`;
  if (outcome.ok) return spec.result(outcome.value, file, bytes);
  return spec.refusal(outcome.error, file);
}

/** Run `read` on one input, timing it. */
export async function attempt(
  spec: ReaderSpec,
  file: string,
  bytes: Buffer,
  seed: string,
): Promise<{ outcome: Outcome; ms: number }> {
  const start = performance.now();
  let outcome: Outcome;
  try {
    outcome = { ok: true, value: await spec.read(file, bytes, seed) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  return { outcome, ms: performance.now() - start };
}

/** A scratch directory for one reader's inputs, removed by the caller. */
export async function scratch(name: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `ag-fuzz-${name.replace(/[^\w-]/g, '_')}-`));
}

/**
 * Fuzz one reader with `runs` mutants from `seed`. Every seed is first read unmutated and
 * must give a valid result (a property over broken seeds would prove nothing).
 */
export async function fuzzReader(
  spec: ReaderSpec,
  options: { runs?: number; seed?: number } = {},
): Promise<FuzzReport> {
  const runs = options.runs ?? fuzzRuns(spec.runs);
  const seed = options.seed ?? fuzzSeed();
  const dir = await scratch(spec.name);
  const file = path.join(dir, spec.fileName);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const cpuMs = () => {
    const d = process.cpuUsage(cpu);
    return (d.user + d.system) / 1000;
  };
  let refused = 0;
  let accepted = 0;
  try {
    for (const s of spec.seeds) {
      await fs.writeFile(file, s.bytes);
      const { outcome } = await attempt(spec, file, s.bytes, s.name);
      const problem = outcome.ok
        ? spec.result(outcome.value, file, s.bytes)
        : `the unmutated seed was refused: ${errorLine(outcome.error)}`;
      if (problem !== null) {
        return {
          reader: spec.name,
          runs: 0,
          seed,
          refused,
          accepted,
          ms: performance.now() - started,
          cpuMs: cpuMs(),
          failure: { reader: spec.name, seed, path: undefined, problem: `seed ${s.name}: ${problem}`, input: s.name },
        };
      }
    }
    let last: { m: Mutant; problem: string } | null = null;
    const property = fc.asyncProperty(mutants(spec.seeds, spec.mutation), async (m) => {
      await fs.writeFile(file, m.bytes);
      const { outcome, ms } = await attempt(spec, file, m.bytes, m.seed);
      const problem = judge(spec, outcome, file, m.bytes, ms);
      if (problem !== null) {
        last = { m, problem };
        return false;
      }
      if (outcome.ok) accepted++;
      else refused++;
      return true;
    });
    // AG_FUZZ_PATH (with AG_FUZZ_SEED) replays one counterexample directly.
    const replay = process.env.AG_FUZZ_PATH;
    const details = await fc.check(property, {
      numRuns: runs,
      seed,
      endOnFailure: false,
      ...(replay ? { path: replay } : {}),
    });
    const failure: Failure | null = details.failed
      ? {
          reader: spec.name,
          seed,
          path: details.counterexamplePath ?? undefined,
          problem: (last as { problem: string } | null)?.problem ?? errorLine(details.errorInstance),
          input: details.counterexample ? describeMutant(details.counterexample[0] as Mutant) : '(none)',
        }
      : null;
    return {
      reader: spec.name,
      runs: details.numRuns,
      seed,
      refused,
      accepted,
      failure,
      ms: performance.now() - started,
      cpuMs: cpuMs(),
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** A failure as the lines a test or the long run prints. */
export function formatFailure(f: Failure): string {
  return [
    `${f.reader}: ${f.problem}`,
    `  replay: AG_FUZZ_SEED=${f.seed}${f.path !== undefined ? ` AG_FUZZ_PATH=${f.path}` : ''} npx ava fuzz/ --match '${f.reader.replace(/'/g, '')}*'`,
    `  input: ${f.input}`,
  ].join('\n');
}
