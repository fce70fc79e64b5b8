/**
 * Which changed code the baseline executed, from V8's own coverage (`NODE_V8_COVERAGE`):
 * every Node process the test command starts writes precise block counts, whatever the
 * runner. A mutant whose span starts in a block that ran zero times is `no_coverage`.
 * A file V8 never reported (not JavaScript Node loaded from disk: Python, a bundler's
 * in-memory transform) is unknown, and its mutants simply run. So is a script whose extent
 * is not the length of the file's text: a loader (tsx, ts-node, babel-register) compiled
 * something else under the file's URL, and offsets into it mean nothing in the source.
 * @module
 */
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as v from 'valibot';
import { readRecord } from '../records/read.js';
import { V8CoverageFile, V8Functions } from '../records/v8-coverage.js';

/** A V8 block range: offsets into the script and how often it ran. */
export interface Range {
  readonly start: number;
  readonly end: number;
  readonly count: number;
}

/** Per file (tree-relative): one list of block ranges per process that loaded it. */
export type CoverageMap = Map<string, Range[][]>;

/** One process's coverage: its pid (from the file name) and the ranges of each wanted file. */
export interface ProcessCoverage {
  readonly pid: number | null;
  readonly files: ReadonlyMap<string, readonly Range[]>;
}

/** The end of the last range of a script: its length in UTF-16 units when V8 ran the file's own text. */
export function extentOf(ranges: readonly { endOffset: number }[]): number {
  let extent = 0;
  for (const r of ranges) if (r.endOffset > extent) extent = r.endOffset;
  return extent;
}

/**
 * Read every coverage file in `dir`, one entry per process, keeping scripts under `root`
 * whose relative path is in `files` and, when `lengths` gives the file's text length, whose
 * extent is that length (anything else was transformed before it ran: left out, so unknown).
 * A file that is not JSON or not of V8's shape (a process killed while writing) is left out,
 * as if the process had written none.
 */
export function readV8Processes(
  dir: string,
  root: string,
  files: ReadonlySet<string>,
  lengths?: ReadonlyMap<string, number>,
): ProcessCoverage[] {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // keep the path as given
  }
  const wanted = new Map([...files].map((f) => [pathToFileURL(path.join(real, f)).href, f]));
  let names: string[] = [];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  const out: ProcessCoverage[] = [];
  for (const name of names) {
    const found = scriptsOf(path.join(dir, name), wanted, lengths);
    if (found === null) continue;
    const pid = /^coverage-(\d+)-/.exec(name);
    out.push({ pid: pid ? Number(pid[1]) : null, files: found });
  }
  return out;
}

/** The wanted scripts' ranges in one coverage file, or null when it cannot be read or is not of V8's shape. */
function scriptsOf(
  file: string,
  wanted: ReadonlyMap<string, string>,
  lengths: ReadonlyMap<string, number> | undefined,
): Map<string, Range[]> | null {
  const doc = readRecord(V8CoverageFile, file);
  if (doc === null) return null;
  const found = new Map<string, Range[]>();
  for (const script of doc.result) {
    const rel = wanted.get(script.url);
    if (rel === undefined) continue;
    const functions = v.safeParse(V8Functions, script.functions);
    if (!functions.success) return null;
    const raw = functions.output.flatMap((f) => f.ranges);
    const length = lengths?.get(rel);
    if (length !== undefined && extentOf(raw) !== length) continue;
    const ranges = raw.map((r) => ({ start: r.startOffset, end: r.endOffset, count: r.count }));
    found.set(rel, [...(found.get(rel) ?? []), ...ranges]);
  }
  return found;
}

/** Read every coverage file in `dir`, keeping scripts under `root` whose relative path is in `files` (and length, as above). */
export function readV8Coverage(
  dir: string,
  root: string,
  files: ReadonlySet<string>,
  lengths?: ReadonlyMap<string, number>,
): CoverageMap {
  const map: CoverageMap = new Map();
  for (const proc of readV8Processes(dir, root, files, lengths)) {
    for (const [rel, ranges] of proc.files) map.set(rel, [...(map.get(rel) ?? []), [...ranges]]);
  }
  return map;
}

/** True when the innermost block of `ranges` holding `offset` ran (false when none holds it). */
export function blockRan(ranges: readonly Range[], offset: number): boolean {
  let best: Range | null = null;
  for (const r of ranges) {
    if (r.start <= offset && offset < r.end && (best === null || r.end - r.start <= best.end - best.start)) best = r;
  }
  return best !== null && best.count > 0;
}

/**
 * True when V8 saw the file and, in every process that loaded it, the innermost block
 * containing `offset` ran zero times; false when some process ran it; null when unknown.
 */
export function neverRan(map: CoverageMap, file: string, offset: number): boolean | null {
  const processes = map.get(file);
  if (processes === undefined || processes.length === 0) return null;
  for (const ranges of processes) {
    if (!ranges.some((r) => r.start <= offset && offset < r.end) || blockRan(ranges, offset)) return false;
  }
  return true;
}
