/**
 * A mutation site: one replacement of a span of a file's text, and its stable id.
 * @module
 */
import { createHash } from 'node:crypto';

/** One mutant before it runs. */
export interface Site {
  readonly file: string;
  /** 1-based line of the replaced span's start (an added line). */
  readonly line: number;
  /** 1-based column (UTF-16 units) of the replaced span's start. */
  readonly column: number;
  /** Offsets into the file text (UTF-16 units), end exclusive. */
  readonly start: number;
  readonly end: number;
  readonly operator: string;
  /** Lower ranks run first on a line: the most telling operators get the budget. */
  readonly rank: number;
  readonly original: string;
  readonly replacement: string;
  /** False when the mutated file no longer parses: stillborn without a run. */
  readonly parses: boolean;
  /**
   * Python: the lines whose execution shows the mutated statement ran (a compound
   * statement's header, a simple statement whole), for per-test coverage.
   */
  readonly coverLines?: readonly [number, number];
  /** The enclosing function (`Class.method` where known); null or absent at module level. */
  readonly function?: string | null;
  /** A canary (canary.ts): a behaviour-neutral edit judged as a mutant is, that must survive; never a mutant. */
  readonly canary?: boolean;
  /** A canary that renames a local: the local's new name (the record names the rename, not the rewritten function). */
  readonly renamedTo?: string;
  /** The mutant only breaks the value's type (a function body emptied, `return undefined`/`None`, a value → `undefined`/`None`). */
  readonly breaksType?: boolean;
  /** A revert mutant (reverts.ts): one hunk with the baseline's code put back; never counted. */
  readonly revert?: RevertHunk;
  /** An equality probe (equality/probes.ts): an equality hook made strict, judged as a mutant is; never counted. */
  readonly probe?: ProbedHook;
}

/** The equality hook a probe makes strict: its name and place, and what the probe compares through. */
export interface ProbedHook {
  /** `Class.method`. */
  readonly hook: string;
  /** Where the hook is defined (1-based). */
  readonly line: number;
  readonly column: number;
  readonly comparison: 'baseline' | 'fields' | 'new_fields';
  /** With `new_fields`: the public fields the patch gives the class that the hook does not read. */
  readonly fields?: readonly string[];
}

/** The hunk a revert mutant puts back: old-side and new-side line ranges, and its header. */
export interface RevertHunk {
  readonly header: string;
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** The baseline text put back (the site's replacement, unshortened). */
  readonly text: string;
  /** `file`: every hunk revert of the file at once (whole-file-revert.ts); absent: one hunk (or those merged to parse). */
  readonly scope?: 'file';
  /** True when the hunk only adds one `if` statement with no `else` (added-guard.ts). */
  readonly addedGuard?: boolean;
  /** A whole-file revert's hunk reverts: where each starts, and its lines; its tests are those of every part. */
  readonly parts?: readonly { readonly start: number; readonly coverLines?: readonly [number, number] }[];
}

/**
 * Where a canary can go in one function whose span holds an added line: the span replaced
 * (empty for an insertion) by `prefix + token + suffix`, the token a quoted string literal of
 * a fixed shape (`"ag_" + 8 hex digits`), so `parses` (checked with a token of that shape)
 * holds for every token.
 */
export interface CanarySpot {
  readonly file: string;
  /** The function's name (`Class.method` where known), null when anonymous at module level. */
  readonly function: string | null;
  /** The function node's span (UTF-16 offsets, end exclusive): the sites it holds are its own, or a nested function's. */
  readonly fnStart: number;
  readonly fnEnd: number;
  readonly start: number;
  readonly end: number;
  readonly prefix: string;
  readonly suffix: string;
  /** Python: the lines of its body past a docstring, to its end: any of them run shows the function ran. */
  readonly coverLines?: readonly [number, number];
  readonly parses: boolean;
  /**
   * Python: a local the function assigns, renamed throughout it instead of an insertion (the
   * span is then the function's): `template` is its text with each occurrence of `local` a NUL.
   */
  readonly rename?: { readonly template: string; readonly local: string };
}

/** A canary token of the fixed shape, as the engines check the edit with. */
export const CANARY_TOKEN_SHAPE = '"ag_00000000"';

/**
 * Stable id from file, line, column, operator and replacement, plus where the replaced
 * span ends (two mutants may start at one column and differ only in their extent).
 */
export function mutantId(
  file: string,
  line: number,
  column: number,
  operator: string,
  replacement: string,
  end = '',
): string {
  const h = createHash('sha256')
    .update(`${file}\0${line}\0${column}\0${operator}\0${replacement}\0${end}`)
    .digest('hex');
  return `m${h.slice(0, 16)}`;
}

/** The file text with one site applied. */
export function applySite(text: string, site: Pick<Site, 'start' | 'end' | 'replacement'>): string {
  return text.slice(0, site.start) + site.replacement + text.slice(site.end);
}

/** Offsets of the first character of every line (index 0 = line 1). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** 1-based line and column of an offset. */
export function position(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

/** Shorten long originals (a removed block) for the artefact; the id stays exact. */
export function shorten(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
