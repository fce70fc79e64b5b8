/**
 * What the text of a changed file says beside the report: which added lines are code, and
 * which lines coverage-ignore pragmas reach. From the patch tree's copy of the file (`--tree`,
 * read without following a link and checked against the diff's added lines) or, without it,
 * from the diff's added lines alone.
 * @module
 */
import { readInside, type AddedLines } from '@adversary-gate/core';
import { sha256 } from '@adversary-gate/schemas';
import { pragmaScopes, type PragmaScope } from './pragma-scope.js';
import { strippedLines } from './source-lines.js';

/** The largest source file read from the patch tree. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

/** One changed file's text facts, per added line in the diff's order. */
export interface FileContext {
  /** Each added line's code (comments removed); blank: not code. */
  readonly stripped: readonly string[];
  /** The coverage-ignore pragmas and the lines they reach. */
  readonly scopes: readonly PragmaScope[];
}

/** From the added lines alone: pragmas on them, reaching as far as their text can tell. */
export function contextFromDiff(file: AddedLines): FileContext {
  return {
    stripped: strippedLines(file.path, file.addedLines, file.addedText),
    scopes: pragmaScopes(file.path, { numbers: file.addedLines, texts: file.addedText, complete: false }),
  };
}

/** From the whole file's lines (`lines[n - 1]` is line n). */
export function contextFromLines(file: AddedLines, lines: readonly string[]): FileContext {
  const numbers = lines.map((_, k) => k + 1);
  const all = strippedLines(file.path, numbers, lines);
  return {
    stripped: file.addedLines.map((n) => all[n - 1] ?? ''),
    scopes: pragmaScopes(file.path, { numbers, texts: lines, complete: true }),
  };
}

/** A changed file as read from the patch tree, or why it was not. */
export type TreeRead =
  | { readonly ok: true; readonly context: FileContext; readonly sha256: `sha256:${string}` }
  | { readonly ok: false; readonly problem: string };

/**
 * Read `file` from the patch tree `tree` and check that each added line of the diff is there
 * as the diff has it (a tree that is not the diff's new side is refused, file by file).
 */
export function readFromTree(tree: string, file: AddedLines): TreeRead {
  const read = readInside(tree, file.path, MAX_SOURCE_BYTES);
  if (!read.ok) return { ok: false, problem: read.problem };
  const lines = read.data.toString('utf8').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  for (let k = 0; k < lines.length; k++) if (lines[k]!.endsWith('\r')) lines[k] = lines[k]!.slice(0, -1);
  for (let k = 0; k < file.addedLines.length; k++) {
    const n = file.addedLines[k]!;
    if (lines[n - 1] !== (file.addedText[k] ?? ''))
      return { ok: false, problem: `does not hold the diff's added line ${n}: it is not the patch's copy` };
  }
  return { ok: true, context: contextFromLines(file, lines), sha256: sha256(read.data) };
}
