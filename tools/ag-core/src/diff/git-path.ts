/**
 * Paths as git writes them in diff headers, decoded and checked.
 * @module
 */

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * Decode git's C-style quoting (`"b/\303\274n.py"` → `b/ün.py`): octal byte escapes and
 * the usual backslash escapes; the bytes are read as UTF-8. Unquoted text is returned as is.
 */
export function unquoteGitPath(raw: string): string {
  let text = raw;
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1);
  if (!text.includes('\\')) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = text[i + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(text.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 3;
    } else if (next in SIMPLE_ESCAPES) {
      bytes.push(SIMPLE_ESCAPES[next]!);
      i += 1;
    } else {
      bytes.push(92);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Normalise a repository path: forward slashes, no `./`, no trailing tab/date; refuse one
 * that escapes the tree (absolute, `..`, NUL). Returns the normalised path or an error text.
 */
export function normaliseRepoPath(raw: string): { path: string } | { error: string } {
  let p = raw.replace(/\\/g, '/');
  if (p.includes('\0')) return { error: `path contains NUL: ${JSON.stringify(raw)}` };
  while (p.startsWith('./')) p = p.slice(2);
  p = p.replace(/\/{2,}/g, '/');
  if (p.startsWith('/') || /^[A-Za-z]:\//.test(p))
    return { error: `absolute path escapes the tree: ${JSON.stringify(raw)}` };
  const segments = p.split('/');
  if (segments.includes('..')) return { error: `path escapes the tree: ${JSON.stringify(raw)}` };
  const clean = segments.filter((s) => s !== '.' && s !== '');
  if (clean.length === 0) return { error: `empty path: ${JSON.stringify(raw)}` };
  return { path: clean.join('/') };
}
