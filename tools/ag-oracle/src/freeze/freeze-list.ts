/**
 * The flake freeze list, read from the baseline: tests excused for a while, each with the
 * production files it covers. Every entry is judged on its own; a bad entry is evidence
 * (FREEZE_INVALID), not an unreadable file.
 * @module
 */
import * as v from 'valibot';
import { isRealDate } from '../today.js';

/**
 * The file: a JSON array of entries, or `{"schema_version": 1, "entries": [...]}`.
 * Entries are checked one by one by {@link judgeEntry}.
 */
export const FreezeFile = v.union(
  [v.array(v.unknown()), v.strictObject({ schema_version: v.optional(v.literal(1)), entries: v.array(v.unknown()) })],
  'expected a JSON array of freeze entries, or {"schema_version": 1, "entries": [...]} with no other key',
);

/**
 * Keys an entry may carry besides the three required ones: who and why, and the verdict-file
 * article's `last_signature` (the failure signature last seen for the frozen test), recorded.
 */
export const OPTIONAL_ENTRY_KEYS: readonly string[] = ['reason', 'owner', 'issue', 'last_signature'];

const REQUIRED = ['nodeid', 'expires', 'covers'] as const;

/** An entry as recorded in the artefact, with its standing. */
export interface JudgedEntry {
  readonly index: number;
  readonly nodeid: string | null;
  readonly expires: string | null;
  readonly covers: string[] | null;
  /** The entry's `last_signature`, when it carries one as a string. */
  readonly last_signature?: string;
  readonly status: 'valid' | 'expired' | 'missing_field' | 'malformed';
}

const isStringList = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');

/**
 * Judge one entry against `today` (`YYYY-MM-DD`). A missing (or null) required field is
 * `missing_field`; a wrong type, an empty value, an unknown key or a date that is not a
 * real `YYYY-MM-DD` is `malformed`; an expiry before today is `expired` (the entry holds
 * through its expiry day).
 */
export function judgeEntry(index: number, raw: unknown, today: string): JudgedEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { index, nodeid: null, expires: null, covers: null, status: 'malformed' };
  }
  const e = raw as Record<string, unknown>;
  const nodeid = typeof e.nodeid === 'string' ? e.nodeid : null;
  const expires = typeof e.expires === 'string' ? e.expires : null;
  const covers = isStringList(e.covers) ? [...e.covers] : null;
  const base = {
    index,
    nodeid,
    expires,
    covers,
    ...(typeof e.last_signature === 'string' ? { last_signature: e.last_signature } : {}),
  };
  if (REQUIRED.some((k) => !Object.hasOwn(e, k) || e[k] === null)) return { ...base, status: 'missing_field' };
  const unknownKey = Object.keys(e).some(
    (k) => !(REQUIRED as readonly string[]).includes(k) && !OPTIONAL_ENTRY_KEYS.includes(k),
  );
  const wellFormed =
    nodeid !== null &&
    nodeid.trim() !== '' &&
    expires !== null &&
    isRealDate(expires) &&
    covers !== null &&
    covers.length > 0 &&
    covers.every((c) => c.trim() !== '') &&
    !unknownKey &&
    OPTIONAL_ENTRY_KEYS.every((k) => !Object.hasOwn(e, k) || typeof e[k] === 'string');
  if (!wellFormed) return { ...base, status: 'malformed' };
  return { ...base, status: expires! < today ? 'expired' : 'valid' };
}

/** The entries of a parsed freeze file. */
export function freezeEntries(file: v.InferOutput<typeof FreezeFile>): unknown[] {
  return Array.isArray(file) ? file : file.entries;
}
