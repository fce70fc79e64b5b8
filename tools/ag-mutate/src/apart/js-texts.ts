/**
 * The two texts the JavaScript footprint writes of a changed file, never into the tests' tree:
 *
 * - for the recording run (in the copy it runs in), each changed top-level function wrapped
 *   so that its calls reach the call recorder (runtime/call-recorder.cjs): a declaration's or
 *   function expression's body becomes `return rec(key, arguments, () => { body });` (after
 *   its directives; `this`, `arguments` and `return` mean what they meant), an arrow
 *   `(...a) => rec(key, a, () => (arrow)(...a))`. Only text is inserted, on the lines it was
 *   on: every line and every earlier offset holds. A function that uses collaborators
 *   (js-collaborators.ts) hands the recorder a thunk of their current values too.
 * - for the judge (a file beside the original in the judge's copy, so its own imports resolve
 *   alike), the file as it is with one statement appended that hands its top-level functions
 *   and a reader of its top-level data to `globalThis[Symbol.for('ag-mutate.judge')]`: a
 *   function that is not exported is reached too.
 * @module
 */
import { pathToFileURL } from 'node:url';
import type { Node } from '@babel/types';
import { parseJs } from '../engines/js.js';
import { collaboratorsOf, collaboratorsThunk, relativeBindings } from './js-collaborators.js';
import { readModule } from './js-functions.js';

/** How the wrapped file reaches the recorder. */
export interface RecorderLink {
  readonly module: 'commonjs' | 'module';
  /** The absolute path of runtime/call-recorder.cjs. */
  readonly runtime: string;
  /** Where the processes write their records. */
  readonly dir: string;
  /** A suffix that keeps the added names apart from the file's own. */
  readonly salt: string;
}

interface Insertion {
  readonly at: number;
  readonly text: string;
}

/**
 * `text` with the functions `names` (top-level, plain: not async, not generators) wrapped to
 * record their calls under `keyOf(name)`, and the names wrapped; null when the file does not
 * parse, before or after. Functions of `names` it cannot wrap are left as they are.
 */
export function withCallRecorders(
  parseAs: string,
  text: string,
  names: readonly string[],
  keyOf: (name: string) => string,
  link: RecorderLink,
): { readonly text: string; readonly wrapped: string[] } | null {
  const mod = readModule(parseAs, text);
  if (mod === null) return null;
  const rec = `__agcRec_${link.salt}`;
  const spread = `__agcArgs_${link.salt}`;
  const edits: Insertion[] = [];
  const wrapped: string[] = [];
  const bindings = relativeBindings(mod.program);
  for (const name of names) {
    const fn = mod.functions.get(name);
    if (fn === undefined || !fn.plain) continue;
    wrapped.push(name);
    const node = fn.node as Node & { body: Node & { directives?: Node[] } };
    const key = JSON.stringify(keyOf(name));
    const collaborators = collaboratorsOf(node, bindings);
    const watch = collaborators.length > 0 ? `, ${collaboratorsThunk(collaborators, `__agcSeen_${link.salt}`)}` : '';
    if (node.type === 'ArrowFunctionExpression') {
      edits.push({ at: node.start!, text: `(...${spread}) => ${rec}(${key}, ${spread}, () => (` });
      edits.push({ at: node.end!, text: `)(...${spread})${watch})` });
      continue;
    }
    const directives = node.body.directives ?? [];
    const open = directives.length > 0 ? directives[directives.length - 1]!.end! : node.body.start! + 1;
    edits.push({ at: open, text: `return ${rec}(${key}, arguments, () => {` });
    edits.push({ at: node.body.end! - 1, text: `}${watch});` });
  }
  edits.sort((a, b) => b.at - a.at);
  let out = text;
  for (const e of edits) out = out.slice(0, e.at) + e.text + out.slice(e.at);
  const dir = JSON.stringify(link.dir);
  const runtime =
    link.module === 'module'
      ? {
          head: `import __agcRuntime_${link.salt} from ${JSON.stringify(pathToFileURL(link.runtime).href)};\n`,
          get: `__agcRuntime_${link.salt}`,
        }
      : { head: '', get: `require(${JSON.stringify(link.runtime)})` };
  // A declaration, hoisted: a call made while the module loads, before this line, records too.
  out =
    `${out}${out.endsWith('\n') ? '' : '\n'}${runtime.head}` +
    `function ${rec}(k, a, b, c) { return ${runtime.get}.call(${dir}, k, a, b, c); }\n`;
  try {
    parseJs(parseAs, out);
  } catch {
    return null;
  }
  return { text: out, wrapped };
}

/** The judge's copy of a module: `text` handing its top-level functions and data to the judge; null when it does not parse. */
export function judgedVariant(parseAs: string, text: string): string | null {
  const mod = readModule(parseAs, text);
  if (mod === null) return null;
  const fns = [...mod.functions.keys()].map((n) => `${JSON.stringify(n)}: ${n}`).join(', ');
  const state = mod.stateNames.map(
    (n) => `try { o[${JSON.stringify(n)}] = ${n}; } catch { o[${JSON.stringify(n)}] = '?'; }`,
  );
  return (
    `${text}${text.endsWith('\n') ? '' : '\n'};globalThis[Symbol.for('ag-mutate.judge')] = { fns: { ${fns} }, ` +
    `state: () => { const o = {}; ${state.join(' ')} return o; } };\n`
  );
}
