/**
 * The names a file defines at its top level (column 0): Python `def`/`class` and assignments,
 * JavaScript `function`/`class`/`const`/`let`/`var` (exported or not). A revert whose text lacks a
 * top-level name that both the patch's and the baseline's text define cut through a definition
 * (a class header in one hunk, its body in the next): it is widened over its neighbours as a
 * revert that does not parse is (reverts.ts).
 * @module
 */
import type { Language } from './changes.js';

const TOP_LEVEL: Readonly<Record<Language, RegExp>> = {
  python: /^(?:(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)|([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=))/gm,
  js: /^(?:export[ \t]+(?:default[ \t]+)?)?(?:async[ \t]+)?(?:function[ \t]*\*?|class|const|let|var)[ \t]+([A-Za-z_$][\w$]*)/gm,
};

/** The top-level names `text` defines. */
export function topLevelNames(text: string, language: Language): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(TOP_LEVEL[language])) out.add((m[1] ?? m[2])!);
  return out;
}

/** A test of reverted texts: true when one keeps every top-level name `patched` and `baseline` both define. */
export function keepsSharedNames(patched: string, baseline: string, language: Language): (text: string) => boolean {
  const before = topLevelNames(baseline, language);
  const shared = [...topLevelNames(patched, language)].filter((n) => before.has(n));
  return (text) => {
    const names = topLevelNames(text, language);
    return shared.every((n) => names.has(n));
  };
}
