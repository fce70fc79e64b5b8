/**
 * The diff model every tool agrees on: which files a unified diff touches and which of
 * their lines it added, on parse-diff, with parse-diff's known mistakes corrected.
 * @module
 */
import parseDiff from 'parse-diff';
import { normaliseRepoPath, unquoteGitPath } from './git-path.js';

/** How a file changed. */
export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied';

/** One file the diff touches. */
export interface ChangedFile {
  /** Path on the new side (the old path for a deletion). */
  readonly path: string;
  /** Path on the old side, or null for an added file. */
  readonly oldPath: string | null;
  readonly status: ChangeStatus;
  /** True for a binary change (no lines to count). */
  readonly binary: boolean;
  /** True when only the mode changed. */
  readonly modeOnly: boolean;
  /** New-side numbers of added lines, ascending. Modified lines appear as added lines. */
  readonly addedLines: readonly number[];
  /** Text of each added line (without the `+` and a trailing `\r`), same order as addedLines. */
  readonly addedText: readonly string[];
  /** Old-side numbers of removed lines, ascending. */
  readonly deletedLines: readonly number[];
  /** Text of each removed line, same order as deletedLines. */
  readonly deletedText: readonly string[];
}

/** A parsed diff. */
export interface DiffModel {
  readonly files: readonly ChangedFile[];
}

/** A diff that cannot be read; the message says why (one line). */
export class DiffParseError extends Error {
  override readonly name = 'DiffParseError';
}

function stripSidePrefix(p: string): string {
  return p.replace(/^[ab]\//, '');
}

function cleanPath(raw: string | undefined): string | null {
  if (raw === undefined || raw === '/dev/null') return null;
  const decoded = stripSidePrefix(unquoteGitPath(raw.replace(/\t.*$/, '')));
  const result = normaliseRepoPath(decoded);
  if ('error' in result) throw new DiffParseError(result.error);
  return result.path;
}

/** Split the raw text into per-file sections to see what parse-diff does not report. */
function sectionFacts(text: string): { binary: Set<number>; copies: Set<number> } {
  const binary = new Set<number>();
  const copies = new Set<number>();
  let index = -1;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      index++;
      continue;
    }
    if (index < 0) continue;
    if (line.startsWith('Binary files ') || line === 'GIT binary patch') binary.add(index);
    if (line.startsWith('copy from ')) copies.add(index);
  }
  return { binary, copies };
}

/**
 * Parse a unified diff (git or plain `diff -u`).
 * @throws DiffParseError for combined diffs, hunks without a file header and paths that escape the tree
 */
export function parseUnifiedDiff(text: string): DiffModel {
  const normalised = text.replace(/\r\n/g, '\n');
  if (/^diff --(cc|combined) /m.test(normalised) || /^@@@ /m.test(normalised)) {
    throw new DiffParseError('combined (merge) diffs are not supported; diff the merge against one parent');
  }
  const parsed = parseDiff(normalised);
  const hunksInText = (normalised.match(/^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/gm) ?? []).length;
  const hunksParsed = parsed.reduce((n, f) => n + f.chunks.length, 0);
  if (hunksParsed < hunksInText) throw new DiffParseError('hunks without a file header that names their file');
  if (parsed.length === 0 && normalised.trim() !== '') throw new DiffParseError('not a unified diff: no file header (--- / +++ or diff --git) found');
  const gitSections = /^diff --git /m.test(normalised);
  const facts = gitSections ? sectionFacts(normalised) : { binary: new Set<number>(), copies: new Set<number>() };
  const files: ChangedFile[] = [];
  parsed.forEach((f, i) => {
    const from = cleanPath(f.from);
    const to = cleanPath(f.to);
    if (from === null && to === null) throw new DiffParseError('a file section names no path on either side');
    const addedLines: number[] = [];
    const addedText: string[] = [];
    const deletedLines: number[] = [];
    const deletedText: string[] = [];
    for (const chunk of f.chunks) {
      let oldLine = chunk.oldStart;
      let newLine = chunk.newStart;
      for (const change of chunk.changes) {
        // "\ No newline at end of file" is not a line; parse-diff counts it as one.
        if (change.content.startsWith('\\')) continue;
        const body = change.content.slice(1).replace(/\r$/, '');
        if (change.type === 'add') {
          addedLines.push(newLine);
          addedText.push(body);
          newLine++;
        } else if (change.type === 'del') {
          deletedLines.push(oldLine);
          deletedText.push(body);
          oldLine++;
        } else {
          oldLine++;
          newLine++;
        }
      }
    }
    const deleted = to === null || f.deleted === true;
    const added = from === null || f.new === true;
    const status: ChangeStatus = deleted
      ? 'deleted'
      : added
        ? 'added'
        : facts.copies.has(i)
          ? 'copied'
          : from !== to
            ? 'renamed'
            : 'modified';
    files.push({
      path: (deleted ? from : to)!,
      oldPath: added ? null : from,
      status,
      binary: facts.binary.has(i),
      modeOnly: f.chunks.length === 0 && !facts.binary.has(i) && f.oldMode !== undefined && f.newMode !== undefined,
      addedLines,
      addedText,
      deletedLines,
      deletedText,
    });
  });
  return { files };
}
