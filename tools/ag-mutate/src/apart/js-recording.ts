/**
 * The recording of the calls into the changed JavaScript functions: it rides on the recording
 * run the baseline already makes (the one carrying the neutral edit and the site counters),
 * each changed top-level function of a plain JavaScript file wrapped (js-texts.ts) to hand its
 * calls to runtime/call-recorder.cjs. Only where the site counters stand for V8's coverage: a
 * wrapped file's text differs from what V8's map of it would expect.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { CALL_RECORDER } from '../package-files.js';
import { withCallRecorders } from './js-texts.js';

/** What the recording wrapped, and where its records are. */
export interface CallRecording {
  /** Where each process writes its record. */
  readonly dir: string;
  /** Tree-relative file → the functions wrapped in it. */
  readonly wrapped: ReadonlyMap<string, readonly string[]>;
}

/** A function's key in the records. */
export const callKey = (file: string, name: string) => `${file}#${name}`;

/**
 * Whether the runner compiles every module before it runs (jest, vitest): V8's offsets are into
 * its output, so no coverage is recorded, and the changed files carry the call recorder alone.
 */
export const compilesEveryModule = (runner: string | undefined) => runner === 'jest' || runner === 'vitest';

/** Whether a file is one the JavaScript judge can load as it is (no transform). */
export const plainJs = (file: string) => /\.(?:js|cjs|mjs)$/.test(file);

/**
 * `texts` (the recording run's, counters included) with the `functions` of each plain
 * JavaScript file wrapped; a file that cannot carry them keeps its text (no record: its
 * functions are reported unmeasured). `kindOf`: how Node loads a file (null: not plain).
 */
export function withRecordedCalls(
  texts: ReadonlyMap<string, string>,
  functions: readonly { readonly file: string; readonly function: string }[],
  kindOf: (file: string) => 'commonjs' | 'module' | null,
  dir: string,
): { readonly texts: Map<string, string>; readonly recording: CallRecording } {
  const out = new Map(texts);
  const wrapped = new Map<string, string[]>();
  const byFile = new Map<string, Set<string>>();
  for (const f of functions)
    if (plainJs(f.file)) (byFile.get(f.file) ?? byFile.set(f.file, new Set()).get(f.file)!).add(f.function);
  const runtime = realpathSync(CALL_RECORDER);
  const salt = randomBytes(4).toString('hex');
  for (const [file, names] of byFile) {
    const text = texts.get(file);
    const kind = kindOf(file);
    if (text === undefined || kind === null) continue;
    const next = withCallRecorders(file, text, [...names], (n) => callKey(file, n), {
      module: kind,
      runtime,
      dir,
      salt,
    });
    if (next === null || next.wrapped.length === 0) continue;
    out.set(file, next.text);
    wrapped.set(file, next.wrapped);
  }
  return { texts: out, recording: { dir, wrapped } };
}
