/**
 * Mutations of a regular expression's pattern: anchors dropped, character classes negated,
 * quantifiers dropped. The same rules as `regex_mutations` in python/sites.py (the Python
 * engine validates its patterns with `re`; this module only lists candidates).
 * @module
 */

/** One mutated pattern and what was changed. */
export interface PatternMutation {
  readonly pattern: string;
  /** What the mutation did, e.g. `^ removed`, `[a-z] → [^a-z]`, `+ removed`. */
  readonly what: string;
}

/** A Map, never a plain object: no pattern character may find Object.prototype's members. */
const CLASS_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['d', 'D'],
  ['D', 'd'],
  ['w', 'W'],
  ['W', 'w'],
  ['s', 'S'],
  ['S', 's'],
  ['b', 'B'],
  ['B', 'b'],
]);

/**
 * Every single-place mutation of `pattern`, at most `limit` (the first ones, in pattern order).
 * Escapes and character classes are tracked, so `\^`, `[$]` and `\+` are never taken for
 * operators.
 */
export function patternMutations(pattern: string, limit = 8): PatternMutation[] {
  const out: PatternMutation[] = [];
  const add = (at: number, len: number, to: string, what: string) => {
    if (out.length < limit) out.push({ pattern: pattern.slice(0, at) + to + pattern.slice(at + len), what });
  };
  let i = 0;
  while (i < pattern.length && out.length < limit) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      const escape = CLASS_ESCAPES.get(next);
      if (escape !== undefined) add(i, 2, `\\${escape}`, `\\${next} → \\${escape}`);
      i = next === 'b' || next === 'B' ? i + 2 : quantifier(pattern, i + 2, add);
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      if (j >= pattern.length) break;
      const body = pattern.slice(i, j + 1);
      const negated = body.startsWith('[^');
      const to = negated ? `[${body.slice(2)}` : `[^${body.slice(1)}`;
      add(i, body.length, to, `${body} → ${to}`);
      i = j + 1;
      i = quantifier(pattern, i, add);
      continue;
    }
    if (c === '^' && i === 0) add(i, 1, '', '^ removed');
    else if (c === '$' && i === pattern.length - 1) add(i, 1, '', '$ removed');
    i++;
    if (c !== '(' && c !== '|' && c !== '^') i = quantifier(pattern, i, add);
  }
  return out;
}

/** A quantifier at `i` (after an atom): dropped. Returns the index after it. */
function quantifier(
  pattern: string,
  i: number,
  add: (at: number, len: number, to: string, what: string) => void,
): number {
  const c = pattern[i];
  let len = 0;
  if (c === '+' || c === '*' || c === '?') len = 1;
  else if (c === '{') {
    const m = /^\{\d+(?:,\d*)?\}/.exec(pattern.slice(i));
    if (m) len = m[0].length;
  }
  if (len === 0) return i;
  if (pattern[i + len] === '?') len++; // lazy
  add(i, len, '', `${pattern.slice(i, i + len)} removed`);
  return i + len;
}

/** True when `pattern` with `flags` compiles as a JavaScript RegExp. */
export function validRegExp(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}
