/**
 * Dead code a hunk deletes: a pure deletion of whole private definitions that no code of the
 * tree names any more (a helper the patch stopped calling, with its last caller gone). Its
 * revert only puts back code that nothing can call, so no test could ever tell it apart: it
 * gets no revert, as a hunk that only adds whole top-level definitions gets none. Whole means
 * by indentation (the removed lines are one or more `def`/`class` blocks in Python, or
 * `function` declarations in JavaScript, and the code after them is not indented deeper);
 * private means a Python name with one leading underscore (not a dunder, which Python calls by
 * itself) or a JavaScript function declaration that is not exported (an export is named by
 * its `export` keyword or by the `module.exports` that lists it). A decorated definition is no
 * dead code: a decorator may register it.
 * @module
 */
import path from 'node:path';
import { importLanguage, listTreeFiles, treeReader, wordsOf } from '@adversary-gate/core';
import { codeLineFrom, indentOf, isCodeLine, type Hunk } from './hunks.js';

const PY_DEF = /^([ \t]*)(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)/;
const JS_DEF = /^([ \t]*)(?:async[ \t]+)?function[ \t]*\*?[ \t]*([A-Za-z_$][\w$]*)[ \t]*\(/;
/** Files read for names at most: past it, every name counts as named (the revert is kept). */
const MAX_FILES = 20_000;

/**
 * The names of the whole definitions `hunk` deletes from `text` (the patch's side), or null
 * when it deletes anything else, part of a block, a decorated or a public definition.
 */
export function deletedDefinitions(text: string, hunk: Hunk, language: 'js' | 'python'): string[] | null {
  if (hunk.newLines !== 0 || hunk.removed.length === 0) return null;
  const removed = hunk.removed.filter((l) => isCodeLine(l, language));
  const def = language === 'python' ? PY_DEF : JS_DEF;
  const first = def.exec(removed[0] ?? '');
  if (first === null) return null;
  const indent = first[1]!.length;
  const names: string[] = [];
  let depth = 0;
  for (const line of removed) {
    const m = def.exec(line);
    if (indentOf(line) === indent && m !== null && depth === 0) names.push(m[2]!);
    else if (indentOf(line) <= indent && !(language === 'js' && depth > 0)) return null;
    if (language === 'js') depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
  }
  if (depth !== 0) return null;
  const lines = text.split('\n');
  const before = codeLineFrom(lines, hunk.newStart - 1, -1, language);
  const after = codeLineFrom(lines, hunk.newStart, 1, language);
  if (before !== null && before.trim().startsWith('@')) return null;
  if (after !== null && indentOf(after) > indent) return null;
  const isPrivate = (name: string) =>
    language === 'js' || (name.startsWith('_') && !(name.startsWith('__') && name.endsWith('__')));
  return names.every(isPrivate) ? names : null;
}

/**
 * Whether any JavaScript or Python file of `tree` holds `name` as a word (read once, lazily:
 * regular files, links not followed). A tree too large to read, or a code file over 1 MiB,
 * names everything.
 */
export function namedInTree(tree: string): (name: string) => boolean {
  let words: Set<string> | null | undefined;
  return (name) => {
    if (words === undefined) {
      const files = listTreeFiles(tree, MAX_FILES + 1).filter((f) => importLanguage(f) !== null);
      const read = treeReader(tree);
      const all = new Set<string>();
      words = files.length > MAX_FILES ? null : all;
      for (const f of words === null ? [] : files) {
        const t = read(f);
        // A code file that cannot be read (too large) might name anything.
        if (t === null) {
          words = null;
          break;
        }
        for (const w of wordsOf(t)) all.add(w);
      }
    }
    return words === null || words.has(name);
  };
}

/** True when `hunk` deletes whole private definitions that no code of the tree names: dead code. */
export function deletesDeadCode(
  text: string,
  hunk: Hunk,
  language: 'js' | 'python',
  named: (name: string) => boolean,
): boolean {
  const names = deletedDefinitions(text, hunk, language);
  return names !== null && names.length > 0 && !names.some(named);
}

/**
 * True when the patch deleted `file` whole and it was dead: a private Python module
 * (`_compat.py`) that no code file of the tree names any more (its name is no word of one).
 * Putting it back is code nothing imports, which no test could ever tell apart. A public
 * module may be imported from outside the tree, and a JavaScript module has no mark of
 * privacy (a deleted one may still be loaded by a path built at run time, the fail-open the
 * peer tool found): both stay deleted source no engine judged.
 */
export function deadModule(file: string, named: (name: string) => boolean): boolean {
  if (importLanguage(file) !== 'py') return false;
  const stem = path.posix.basename(file).replace(/\.py$/i, '');
  return /^_(?!_)\w+$/.test(stem) && !named(stem);
}
