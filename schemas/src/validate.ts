/**
 * Turn valibot issues into one LoadError with a code and a message naming the field.
 * @module
 */
import * as v from 'valibot';
import { LoadError, type LoadErrorCode } from './errors.js';

function fieldPath(issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((p) => String(p.key));
  return keys.length === 0 ? '(top level)' : keys.join('.');
}

function codeFor(issue: v.BaseIssue<unknown>): LoadErrorCode {
  const last = issue.path?.[issue.path.length - 1];
  if (issue.type === 'strict_object' && issue.expected === 'never') return 'E_UNKNOWN_KEY';
  if (issue.received === 'undefined' && last !== undefined) return 'E_MISSING_FIELD';
  if (last?.key === 'schema_version') return 'E_SCHEMA_VERSION';
  if (['finite', 'safe_integer', 'integer', 'min_value', 'max_value'].includes(issue.type)) return 'E_NUMBER';
  return 'E_TYPE';
}

/** Longest problem text kept: a message is one readable line, not a dump of the input. */
const MAX_PROBLEM = 400;

/** One line: control characters (a received value may hold newlines) escaped, and cut to a bound. */
export function oneLine(text: string, max = MAX_PROBLEM): string {
  const escaped = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}

/**
 * Validate `value` against `schema`; return the typed output or throw the first issue.
 * @throws LoadError
 */
export function validateOrThrow<S extends v.GenericSchema>(file: string, schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const code = codeFor(issue);
  const field = fieldPath(issue);
  const problem =
    code === 'E_UNKNOWN_KEY'
      ? `unknown key "${field}"`
      : code === 'E_MISSING_FIELD'
        ? `missing field "${field}"`
        : `field "${field}": ${issue.message}`;
  throw new LoadError(code, file, oneLine(problem));
}
