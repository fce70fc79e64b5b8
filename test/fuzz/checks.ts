/**
 * What a good refusal and a truthful result look like, shared by the reader properties.
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import * as v from 'valibot';
import { errorLine } from './harness.js';

/**
 * The project's input error: a LoadError or an InputError whose message is one line that
 * starts with the file's name and goes on to say what is wrong.
 */
export function inputRefusal(error: unknown, file: string): string | null {
  if (!(error instanceof Error)) return `threw a non-Error: ${String(error)}`;
  if (error.name !== 'LoadError' && error.name !== 'InputError')
    return `threw ${errorLine(error)}, not the project's input error`;
  if (error.message.includes('\n'))
    return `refusal spans several lines: ${JSON.stringify(error.message.slice(0, 300))}`;
  if (!error.message.startsWith(file)) return `refusal does not name the file: ${error.message.slice(0, 200)}`;
  if (
    error.message
      .slice(file.length)
      .replace(/^[:\d]*:\s*/, '')
      .trim() === ''
  )
    return `refusal names no problem: ${error.message}`;
  return null;
}

/** For readers that must never throw: any exception is a failure. */
export function neverThrows(error: unknown): string {
  return `threw ${errorLine(error)}`;
}

/** A plain `Error` with a one-line message (a parser's own refusal), never a TypeError, RangeError… */
export function plainErrorRefusal(error: unknown): string | null {
  if (!(error instanceof Error)) return `threw a non-Error: ${String(error)}`;
  if (Object.getPrototypeOf(error) !== Error.prototype) return `threw ${errorLine(error)} (a crash, not a refusal)`;
  if (error.message.trim() === '') return 'refused with an empty message';
  return null;
}

/** The document as plain JSON would read it, or undefined when it is not JSON. */
export function plainJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The document as plain JSON reads it; throws (failing the case) when plain JSON refuses what a reader accepted. */
export function acceptedJson(bytes: Buffer): any {
  const plain = plainJson(bytes);
  if (plain === undefined) throw new Error('the reader accepted a document that JSON.parse refuses');
  return plain;
}

/** Null when a loaded value is exactly what the bytes say (nothing added, dropped or coerced). */
export function sameAsInput(value: unknown, bytes: Buffer): string | null {
  const plain = plainJson(bytes);
  if (plain === undefined) return 'accepted a document that JSON.parse refuses';
  return isDeepStrictEqual(value, plain) ? null : 'the loaded value differs from what the file says';
}

/** Null when `value` passes `schema`, else the first issue. */
export function schemaProblem(schema: v.GenericSchema, value: unknown, what: string): string | null {
  const r = v.safeParse(schema, value);
  if (r.success) return null;
  const issue = r.issues[0];
  return `${what} fails its schema at ${(issue.path ?? []).map((p) => String(p.key)).join('.') || '(top)'}: ${issue.message}`;
}

/** The rules RelPath states (relative, no `..`, no backslash or NUL, no empty segment). */
export function relPathProblem(p: string): string | null {
  if (p === '' || p.startsWith('/') || /^[A-Za-z]:/.test(p)) return `path ${JSON.stringify(p)} is empty or absolute`;
  if (p.includes('\\') || p.includes('\0')) return `path ${JSON.stringify(p)} holds a backslash or NUL`;
  if (p.split('/').some((s) => s === '..' || s === ''))
    return `path ${JSON.stringify(p)} escapes or has an empty segment`;
  return null;
}

/** How many lines of `text` match `re`. */
export function countLines(text: string, re: RegExp): number {
  let n = 0;
  for (const line of text.split('\n')) if (re.test(line)) n++;
  return n;
}

/** The first non-null problem. */
export function firstProblem(...problems: (string | null | undefined)[]): string | null {
  return problems.find((p) => p !== null && p !== undefined) ?? null;
}
