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

/** What one pass over the raw lines tells that parse-diff does not: per git section, binary and copy. */
interface TextFacts {
  readonly combined: boolean;
  readonly hunks: number;
  readonly binary: ReadonlySet<number>;
  readonly copies: ReadonlySet<number>;
}

const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

function scanText(text: string): TextFacts {
  const binary = new Set<number>();
  const copies = new Set<number>();
  let combined = false;
  let hunks = 0;
  let index = -1;
  let afterHunkHeader = false;
  for (const line of text.split('\n')) {
    const c = line.charCodeAt(0);
    // content lines (' ', '+', '-', '\\') say nothing about the structure
    if (c === 0x5c && afterHunkHeader)
      throw new DiffParseError('a "\\ No newline at end of file" marker with no line before it in its hunk');
    afterHunkHeader = false;
    if (c === 0x20 || c === 0x2b || c === 0x2d || c === 0x5c) continue;
    if (line.startsWith('@@')) {
      if (line.startsWith('@@@ ')) combined = true;
      else if (HUNK_HEADER.test(line)) {
        hunks++;
        afterHunkHeader = true;
      }
    } else if (line.startsWith('diff --')) {
      if (line.startsWith('diff --git ')) index++;
      else if (line.startsWith('diff --cc ') || line.startsWith('diff --combined ')) combined = true;
    } else if (index >= 0) {
      if (line.startsWith('Binary files ') || line === 'GIT binary patch') binary.add(index);
      if (line.startsWith('copy from ')) copies.add(index);
    }
  }
  return { combined, hunks, binary, copies };
}

type ParsedFile = ReturnType<typeof parseDiff>[number];

function runParseDiff(text: string): ParsedFile[] {
  try {
    return parseDiff(text);
  } catch (error) {
    // parse-diff throws a TypeError on input it cannot follow (a "\ No newline" marker
    // that opens a hunk); that is an unreadable diff, not a crash.
    throw new DiffParseError(
      `not a unified diff this parser can read (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/**
 * The diff in pieces parse-diff reads one at a time: one a `diff --git` section when the
 * text is a git diff from its first line (each piece's parse is turned into the model before
 * the next is read, so parse-diff's per-line objects die young instead of piling up), else
 * the whole text.
 */
function* pieces(text: string): Generator<string> {
  if (!text.startsWith('diff --git ')) {
    yield text;
    return;
  }
  let start = 0;
  while (start < text.length) {
    const next = text.indexOf('\ndiff --git ', start);
    const end = next < 0 ? text.length : next + 1;
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * Parse a unified diff (git or plain `diff -u`).
 * @throws DiffParseError for combined diffs, hunks without a file header, hunks whose lines do
 * not add up to their header, and paths that escape the tree
 */
export function parseUnifiedDiff(text: string): DiffModel {
  const normalised = text.replace(/\r\n/g, '\n');
  const facts = scanText(normalised);
  if (facts.combined)
    throw new DiffParseError('combined (merge) diffs are not supported; diff the merge against one parent');
  const files: ChangedFile[] = [];
  let hunksParsed = 0;
  for (const piece of pieces(normalised)) {
    for (const f of runParseDiff(piece)) {
      hunksParsed += f.chunks.length;
      files.push(changedFile(f, files.length, facts));
    }
  }
  if (hunksParsed < facts.hunks) throw new DiffParseError('hunks without a file header that names their file');
  if (files.length === 0 && normalised.trim() !== '')
    throw new DiffParseError('not a unified diff: no file header (--- / +++ or diff --git) found');
  return { files };
}

/** One of parse-diff's files (the `i`th of the diff) as the model's. */
function changedFile(f: ParsedFile, i: number, facts: TextFacts): ChangedFile {
  const from = cleanPath(f.from);
  const to = cleanPath(f.to);
  if (from === null && to === null) throw new DiffParseError('a file section names no path on either side');
  // "deleted file mode" with no old path, "new file mode" with no new path, or both marks:
  // the section contradicts itself (parse-diff would hand back a null path).
  if ((f.deleted === true && (from === null || f.new === true)) || (f.new === true && to === null)) {
    throw new DiffParseError(
      `the file section of ${JSON.stringify(to ?? from)} contradicts itself (new/deleted marks and /dev/null sides disagree)`,
    );
  }
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
      const body = change.content.endsWith('\r') ? change.content.slice(1, -1) : change.content.slice(1);
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
    // A hunk whose lines do not add up to its header (cut short, or lines of another kind
    // than the header counts) is not a diff to count lines from: refused.
    if (oldLine - chunk.oldStart !== chunk.oldLines || newLine - chunk.newStart !== chunk.newLines) {
      throw new DiffParseError(
        `a hunk of ${JSON.stringify(to ?? from)} (${chunk.content.split(' @@')[0]} @@) does not hold the lines its header counts`,
      );
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
  return {
    path: (deleted ? from : to)!,
    oldPath: added ? null : from,
    status,
    binary: facts.binary.has(i),
    modeOnly: f.chunks.length === 0 && !facts.binary.has(i) && f.oldMode !== undefined && f.newMode !== undefined,
    addedLines,
    addedText,
    deletedLines,
    deletedText,
  };
}
