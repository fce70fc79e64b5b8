/**
 * An equality probe as a site: an insertion (nothing replaced) judged as a mutant is, named by
 * its hook, in no count. Both languages' hook finders build theirs here.
 * @module
 */
import type { ProbedHook, Site } from '../engines/site.js';

/** The probe of `hook` inserting `replacement` at offset `at` of `file` (`where`: that offset's line and column). */
export function probeSite(
  file: string,
  at: number,
  where: { readonly line: number; readonly column: number },
  replacement: string,
  parses: boolean,
  hook: ProbedHook,
  coverLines?: readonly [number, number],
): Site {
  return {
    file,
    line: where.line,
    column: where.column,
    start: at,
    end: at,
    operator: 'EqualityProbe',
    rank: 0,
    original: '',
    replacement,
    parses,
    ...(coverLines !== undefined ? { coverLines } : {}),
    function: hook.hook,
    probe: hook,
  };
}
