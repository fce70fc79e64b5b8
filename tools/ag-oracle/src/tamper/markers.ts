/**
 * Skip, only, todo and expected-failure markers of node:test, jest, vitest, mocha, ava
 * and pytest / unittest, as they appear on one source line.
 * @module
 */

const MODIFIERS = 'skip|only|todo|skipIf|runIf|fails|failing';

/** A marker pattern and how the finding names what it matched. */
interface Marker {
  readonly re: RegExp;
  readonly name: (m: RegExpExecArray) => string;
}

/** The matched text without spaces or a trailing `(` or `:` (`test . skip (` → `test.skip`). */
const asWritten = (m: RegExpExecArray) => m[0].replace(/\s+/g, '').replace(/[:(]+$/, '');

const JS_MARKERS: readonly Marker[] = [
  // test.skip(...), it.only(...), describe.todo, test.concurrent.skip, test.skipIf(c)(...), test.serial.failing
  {
    re: new RegExp(
      `(?<![\\w$.])(?:it|test|describe|suite|context|specify|bench)(?:\\s*\\.\\s*(?:concurrent|serial|sequential|each|shuffle|cb))*\\s*\\.\\s*(${MODIFIERS})\\b`,
    ),
    name: asWritten,
  },
  // t.skip(), t.todo(), t.runOnly(true) (node:test), this.skip() (mocha), ctx.skip() (vitest)
  { re: /(?<![\w$.])(?:t|ctx|context|this|test|task)\s*\.\s*(skip|todo|runOnly)\s*\(/, name: asWritten },
  // xit, xdescribe, fit, fdescribe (jasmine style, jest and mocha)
  { re: /(?<![\w$.])(xit|xtest|xdescribe|xcontext|xspecify|xsuite|fit|fdescribe|fcontext)\s*\(/, name: asWritten },
  // node:test options on the registering line: test('x', { skip: true }), { todo: 'later' }, { only: true }
  // (a bare `{ todo: 'milk' }` in test data is no marker)
  {
    re: /(?<![\w$.])(?:test|it|describe|suite)\s*\(.*?[,{]\s*(skip|todo|only)\s*:\s*(?:true\b|['"`]|!|process\b)/,
    name: (m) => `{ ${m[1]} }`,
  },
];

const PY_MARKERS: readonly Marker[] = [
  { re: /\bpytest\s*\.\s*mark\s*\.\s*(skip|skipif|xfail)\b/, name: asWritten },
  { re: /\bpytest\s*\.\s*(skip|xfail|importorskip)\s*\(/, name: asWritten },
  { re: /@\s*(?:unittest\s*\.\s*)?(skip|skipIf|skipUnless|expectedFailure)\b/, name: asWritten },
  { re: /\.\s*(skipTest)\s*\(/, name: asWritten },
  { re: /\braise\s+(?:unittest\s*\.\s*)?(SkipTest)\b/, name: (m) => `raise ${m[1]}` },
];

/** True for a line that is wholly a comment in the given language. */
export function isCommentLine(line: string, lang: 'js' | 'py'): boolean {
  const t = line.trim();
  return lang === 'py' ? t.startsWith('#') : t.startsWith('//') || t.startsWith('/*') || t.startsWith('*');
}

/** The marker a line carries (`test.skip`, `pytest.mark.xfail`…), or null. Comment lines carry none. */
export function skipMarker(line: string, lang: 'js' | 'py'): string | null {
  if (isCommentLine(line, lang)) return null;
  for (const { re, name } of lang === 'js' ? JS_MARKERS : PY_MARKERS) {
    const m = re.exec(line);
    if (m !== null) return name(m);
  }
  return null;
}
