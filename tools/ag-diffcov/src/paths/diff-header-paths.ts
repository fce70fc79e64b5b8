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

/** Paths named in the file headers of `text` (`--- `, `+++ `, `rename`/`copy` lines, `diff --git`), side prefixes removed. */
export function diffHeaderPaths(text: string): Set<string> {
  const paths = new Set<string>();
  let pos = 0;
  while (pos < text.length) {
    let end = text.indexOf('\n', pos);
    if (end === -1) end = text.length;
    const c = text.charCodeAt(pos);
    // '+', '-', 'r', 'c', 'd': the first letters of a header line
    if (c === 0x2b || c === 0x2d || c === 0x72 || c === 0x63 || c === 0x64) {
      for (const h of HEADERS) {
        if (!text.startsWith(h, pos)) continue;
        let rest = text.slice(pos + h.length, end);
        if (rest.endsWith('\r')) rest = rest.slice(0, -1);
        if (h === 'diff --git ') {
          const p = gitLinePath(rest);
          if (p !== null) paths.add(p);
        } else paths.add(sidePath(h.length === 4 ? rest.replace(/\t.*$/, '') : rest));
        break;
      }
    }
    pos = end + 1;
  }
  return paths;
}
