/**
 * Output tails as evidence: colour escapes removed (the gate forces no colour switch on the
 * tests), the tree copy's path replaced by `.`, clock readings the runners print replaced by `…`
 * (so identical runs give byte-identical evidence), cut to the last N chars.
 * @module
 */
import { stripVTControlCharacters } from 'node:util';

const TIMINGS: readonly [RegExp, string][] = [
  [/(duration_ms:?\s*)\d+(\.\d+)?/g, '$1…'],
  [/( in )\d+(\.\d+)?s\b/g, '$1…s'],
  [/\((\d+(\.\d+)?)\s?(ms|s|m)\)/g, '(…$3)'],
  [/(Time:\s+)\d+(\.\d+)?\s?(ms|s)/g, '$1…$3'],
  [/(Duration\s+)\d+(\.\d+)?(ms|s)/g, '$1…$3'],
];

/**
 * The evidence form of one output tail: `treeCopy` becomes `.`, its run directory (the parent,
 * with HOME, TMPDIR and the report) becomes `<run>`.
 */
export function evidenceTail(text: string, treeCopy: string, maxChars: number): string {
  const runDir = treeCopy.slice(0, treeCopy.lastIndexOf('/'));
  let out = stripVTControlCharacters(text).split(treeCopy).join('.');
  if (runDir !== '') out = out.split(runDir).join('<run>');
  for (const [re, to] of TIMINGS) out = out.replace(re, to);
  return out.length > maxChars ? out.slice(out.length - maxChars) : out;
}
