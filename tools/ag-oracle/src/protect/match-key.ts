/**
 * The form a path takes before it is matched against a protected glob, so that spelling
 * tricks cannot dodge a pattern: case, Unicode forms, `./`, backslashes, doubled slashes,
 * and the trailing dots and spaces that Windows drops from a name.
 * @module
 */

/**
 * Normalise a repository path (or a glob) for protected-path matching: backslashes become
 * `/`, `./` and empty segments go, each segment loses trailing dots and spaces (but `.` and
 * `..` and dot-files keep theirs), the text is case-folded and put in Unicode NFKC form.
 */
export function matchKey(path: string): string {
  const folded = path.normalize('NFKC').toLowerCase().normalize('NFKC').replace(/\\/g, '/');
  const segments = folded.split('/').filter((s) => s !== '' && s !== '.');
  return segments
    .map((s) => {
      if (/^\.+$/.test(s)) return s;
      const trimmed = s.replace(/[. ]+$/, '');
      return trimmed === '' ? s : trimmed;
    })
    .join('/');
}
