/**
 * The paths a diff's file headers name, read from the raw text before the diff is parsed,
 * so a large report can be filtered while the diff is still being parsed. Only a hint: the
 * caller checks, once the diff is parsed, that every changed file is in the set, and reads
 * the reports the ordinary way when one is missing.
 * @module
 */
import { unquoteGitPath } from '@adversary-gate/core';

const HEADERS = ['+++ ', '--- ', 'rename to ', 'rename from ', 'copy to ', 'copy from ', 'diff --git '];

function sidePath(raw: string): string {
  return unquoteGitPath(raw).replace(/^[ab]\//, '');
}

/** The new-side path of a `diff --git` line's rest, when it can be told without parsing. */
function gitLinePath(rest: string): string | null {
  if (rest.endsWith('"')) {
    const open = rest.lastIndexOf(' "');
    return open === -1 ? null : sidePath(rest.slice(open + 1));
  }
  const half = (rest.length - 1) / 2;
  if (!Number.isInteger(half) || rest[half] !== ' ') return null;
  const left = rest.slice(0, half);
  const right = rest.slice(half + 1);
  return left.slice(2) === right.slice(2) ? sidePath(right) : null;
}

/**
 * Paths named in the file headers of a diff (`--- `, `+++ `, `rename`/`copy` lines,
 * `diff --git`), side prefixes removed. Read from the bytes with a native search for each
 * kind of header line; only those lines are decoded (as UTF-8), so a large diff is neither
 * decoded twice nor walked line by line.
 */
export function diffHeaderPaths(diff: Buffer | string): Set<string> {
  const bytes = typeof diff === 'string' ? Buffer.from(diff) : diff;
  const paths = new Set<string>();
  for (const header of HEADERS) {
    const needle = Buffer.from(header);
    // the header's text anywhere, then its place checked: a search for "\n" + header is far slower
    const nextLine = (from: number): number => {
      let at = bytes.indexOf(needle, from);
      while (at > 0 && bytes[at - 1] !== 10) at = bytes.indexOf(needle, at + 1);
      return at;
    };
    let line = nextLine(0);
    while (line !== -1) {
      const start = line + header.length;
      let end = bytes.indexOf(10, start);
      if (end === -1) end = bytes.length;
      let rest = bytes.toString('utf8', start, end);
      if (rest.endsWith('\r')) rest = rest.slice(0, -1);
      if (header === 'diff --git ') {
        const p = gitLinePath(rest);
        if (p !== null) paths.add(p);
      } else paths.add(sidePath(header.length === 4 ? rest.replace(/\t.*$/, '') : rest));
      line = nextLine(end);
    }
  }
  return paths;
}
