/**
 * Narrowed reverts: a hunk that changes lines and also adds whole top-level definitions, where
 * git aligned them across each other, is put back on its changed part only, the new
 * definitions kept (reverts.ts uses the widest such revert that parses).
 * @module
 */
import { languageOf } from './changes.js';
import { revertEdit, type Hunk, type RevertCheck } from './hunks.js';

/** A line that opens a top-level definition, and its name: at column 0, a function, class or declaration (JS), `def` or `class` (Python). */
const TOP_DEFINITION = {
  js: /^(?:export\s+(?:default\s+)?)?(?:async\s+)?(?:function\s*\*?|class|const|let|var)\s+([\w$]+)/,
  python: /^(?:async\s+def|def|class)\s+(\w+)/,
};

/**
 * The name a new top-level definition at line `n` (1-based) of `lines` gives, or null: none
 * opens there, or the hunk's removed lines define the same name (a definition changed, not
 * added: keeping it beside the one put back would define it twice). A Python decorator
 * opens the definition below it.
 */
function newDefinitionAt(
  lines: readonly string[],
  n: number,
  last: number,
  python: boolean,
  removed: readonly string[],
) {
  const opens = python ? TOP_DEFINITION.python : TOP_DEFINITION.js;
  let at = n;
  if (python) while (at < last && /^@/.test(lines[at - 1] ?? '')) at++;
  const name = opens.exec(lines[at - 1] ?? '')?.[1];
  if (name === undefined) return null;
  return removed.some((r) => opens.exec(r)?.[1] === name) ? null : name;
}

/** A line that starts a top-level statement: at column 0, not a closing bracket, a comment or blank. */
function startsStatement(line: string, python: boolean): boolean {
  return /^\S/.test(line) && !(python ? /^[#)\]}]/ : /^(?:[)\]}]|\/\/|\/\*|\*)/).test(line);
}

/**
 * Whether the added lines `from..to` (1-based, inclusive) of a hunk can stay as they are when
 * the rest of the hunk is put back: every top-level statement that starts among them is a
 * definition the hunk adds (a name its removed lines do not define), and at least one does.
 */
function keepsOnlyNewDefinitions(
  lines: readonly string[],
  from: number,
  to: number,
  python: boolean,
  removed: readonly string[],
): boolean {
  // A decorated definition starts at its first decorator: never keep it without them.
  if (python && /^@/.test(lines[from - 2] ?? '')) return false;
  let defined = 0;
  for (let n = from; n <= to; n++) {
    const line = lines[n - 1] ?? '';
    if (!startsStatement(line, python)) continue;
    if (newDefinitionAt(lines, n, to, python, removed) === null) return false;
    defined++;
    if (python) while (n < to && /^@/.test(lines[n - 1] ?? '')) n++; // on to the decorated definition
  }
  return defined > 0;
}

/**
 * The narrower reverts of a hunk that changes lines and also adds whole top-level definitions,
 * where git aligned them across each other: `return x;` → `return y;`, `}`, ``,
 * `function g() {`, … (the old `}` now closing `g`), or a new function before a changed
 * `module.exports` line. Putting the removed lines back on the whole hunk would delete the new
 * definition too, and the module would not even load: a kill that says nothing of the change.
 * Each candidate puts them back on part of the hunk and keeps the rest, which must hold only
 * new definitions: its last lines (the changed lines first), widest first, then its first
 * lines (the changed lines last), widest first. The first that parses is the revert (the
 * engine's check decides).
 */
export function narrowedHunks(file: string, text: string, hunk: Hunk): Hunk[] {
  if (hunk.newLines < 2) return [];
  const python = languageOf(file) === 'python';
  const lines = text.split('\n');
  const first = hunk.newStart;
  const last = hunk.newStart + hunk.newLines - 1;
  const out: Hunk[] = [];
  for (let k = hunk.newLines - 1; k >= 1; k--)
    if (keepsOnlyNewDefinitions(lines, first + k, last, python, hunk.removed)) out.push({ ...hunk, newLines: k });
  for (let j = 1; j < hunk.newLines; j++)
    if (
      startsStatement(lines[first + j - 1] ?? '', python) &&
      keepsOnlyNewDefinitions(lines, first, first + j - 1, python, hunk.removed)
    )
      out.push({ ...hunk, newStart: first + j, newLines: hunk.newLines - j });
  return out;
}

/** The widest narrowed revert of `hunk` that parses (`same`: it leaves the code as it is), or null: none applies or parses. */
export async function narrowedRevert(
  file: string,
  text: string,
  hunk: Hunk,
  check: (texts: readonly string[]) => Promise<readonly RevertCheck[]>,
): Promise<{ hunk: Hunk; same: boolean } | null> {
  const candidates = narrowedHunks(file, text, hunk);
  if (candidates.length === 0) return null;
  const texts = candidates.map((h) => {
    const e = revertEdit(text, [h], 0, 0);
    return text.slice(0, e.start) + e.replacement + text.slice(e.end);
  });
  const verdicts = await check(texts);
  const at = verdicts.findIndex((v) => v.parses);
  return at < 0 ? null : { hunk: candidates[at]!, same: verdicts[at]!.same };
}
