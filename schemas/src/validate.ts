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
  throw new LoadError(code, file, problem);
}
