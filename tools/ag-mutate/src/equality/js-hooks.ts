/**
 * JavaScript/TypeScript equality hooks and their probes. A hook is a class method named
 * `equals`, `isEqual` or `equal` (not computed, not async, not a generator, with a body); the
 * patch adds or changes it when one of its lines is an added line. Its probe is one statement
 * inserted before the body's first statement, on that line (no line moves):
 * `if (!STRICT) return false; `, so the hook answers "not equal" wherever the strict comparison
 * tells the values apart and the patch's own answer elsewhere. STRICT is the baseline's hook
 * where the baseline has the same one (same class, same method, same `static`), its body put
 * on one line in an arrow (which keeps `this`, `super` and `arguments`); else a field-by-field
 * comparison (js-text.ts) of `this` and the first argument (a static hook: the first two).
 * @module
 */
import type { Node } from '@babel/types';
import { childNodes, parseJsFile, parses } from '../engines/js.js';
import { lineStarts, position, type Site } from '../engines/site.js';
import { bodyOnOneLine, strictComparison } from './js-text.js';
import { probeSite } from './probe-site.js';

/** The method names taken for equality hooks. */
const HOOK_NAMES = new Set(['equals', 'isEqual', 'equal']);

const TS_FILE = /\.(?:ts|tsx|mts|cts)$/;

type Method = Node & {
  kind: string;
  key: Node;
  computed: boolean;
  static: boolean;
  async: boolean;
  generator: boolean;
  params: Node[];
  body: Node & { body: Node[] };
};

/** One hook found in a file. */
interface Hook {
  /** The class's name (its own, or its variable's); null when it has none. */
  readonly cls: string | null;
  readonly method: string;
  readonly node: Method;
  /** The public fields of its class: class properties, and what its methods assign to `this.NAME`. */
  readonly fields: ReadonlySet<string>;
  /** Its class's span (offsets, end exclusive). */
  readonly clsStart: number;
  readonly clsEnd: number;
}

/** The public fields of a class body: non-static class properties and `this.NAME = …` in its methods (no `_` or `#` names). */
function classFields(body: readonly Node[]): Set<string> {
  const out = new Set<string>();
  const visit = (node: Node) => {
    if (
      node.type === 'AssignmentExpression' &&
      node.left.type === 'MemberExpression' &&
      node.left.object.type === 'ThisExpression' &&
      !node.left.computed &&
      node.left.property.type === 'Identifier'
    )
      out.add(node.left.property.name);
    for (const [, child] of childNodes(node)) visit(child);
  };
  for (const member of body) {
    if (member.type === 'ClassProperty' && !member.static && !member.computed) {
      const name = keyName(member.key as Node);
      if (name !== null) out.add(name);
    } else if (member.type === 'ClassMethod') visit(member.body);
  }
  return new Set([...out].filter((n) => !n.startsWith('_')));
}

/** Every property name and string a hook reads (a field it compares). */
function namesRead(node: Node): Set<string> {
  const out = new Set<string>();
  const visit = (n: Node) => {
    if ((n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') && n.property.type === 'Identifier')
      out.add(n.property.name);
    if (n.type === 'StringLiteral') out.add(n.value);
    for (const [, child] of childNodes(n)) visit(child);
  };
  visit(node);
  return out;
}

const keyName = (n: Node): string | null =>
  n.type === 'Identifier' ? n.name : n.type === 'StringLiteral' ? n.value : null;

/** Every equality hook of a program, in source order. */
function hooksIn(program: Node): Hook[] {
  const out: Hook[] = [];
  const visit = (node: Node, parent: Node | null) => {
    if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
      const own = node.id?.name ?? null;
      const cls = own ?? (parent?.type === 'VariableDeclarator' ? keyName(parent.id as Node) : null);
      for (const member of node.body.body) {
        const m = member as Method;
        if (m.type !== 'ClassMethod' || m.kind !== 'method' || m.computed || m.async || m.generator) continue;
        const name = keyName(m.key);
        if (name !== null && HOOK_NAMES.has(name) && m.body.body.length > 0)
          out.push({
            cls,
            method: name,
            node: m,
            fields: classFields(node.body.body),
            clsStart: node.start!,
            clsEnd: node.end!,
          });
      }
    }
    for (const [, child] of childNodes(node)) visit(child, node);
  };
  visit(program, null);
  return out;
}

const hookKey = (h: Hook) => `${h.cls}\0${h.node.static ? 'static' : ''}\0${h.method}`;

/** The text of a method's parameter list (without the parentheses). */
function paramsText(text: string, m: Method): string {
  return m.params.length === 0 ? '' : text.slice(m.params[0]!.start!, m.params.at(-1)!.end!);
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A parsed file's hooks, with the one-line body of each (null: it cannot be put on one line). */
function parsedHooks(path: string, text: string): { hook: Hook; body: string | null; params: string }[] | null {
  let file;
  try {
    file = parseJsFile(path, text);
  } catch {
    return null;
  }
  const comments = file.comments ?? [];
  return hooksIn(file.program).map((hook) => ({
    hook,
    body: bodyOnOneLine(text, hook.node.body, comments),
    params: paramsText(text, hook.node),
  }));
}

/** The strict call a hook's probe guards with, and what it compares through; null: none can be built. */
function strictCall(
  ts: boolean,
  m: Method,
  params: string,
  base: { body: string | null; params: string } | undefined,
): { call: string; comparison: 'baseline' | 'fields' } | null {
  if (base !== undefined && base.body !== null) {
    const fn = `(${base.params}) => { ${base.body} }`;
    const call =
      base.params === params
        ? `(() => { ${base.body} })()`
        : ts
          ? `((${fn}) as any)(...arguments)`
          : `(${fn})(...arguments)`;
    return { call, comparison: 'baseline' };
  }
  const args = m.static
    ? m.params.length >= 2
      ? 'arguments[0], arguments[1]'
      : null
    : m.params.length >= 1
      ? 'this, arguments[0]'
      : null;
  return args === null ? null : { call: `${strictComparison(ts)}(${args})`, comparison: 'fields' };
}

/**
 * The strict call of a hook the patch left as it was, in a class it gives public fields the
 * hook does not read (`fields`): those fields deeply and strictly equal, between values of the
 * same prototype (any other pair: the patch's own answer); null when the hook has too few
 * parameters.
 */
function newFieldsCall(ts: boolean, m: Method, fields: readonly string[]): string | null {
  const [a, b] = m.static ? ['arguments[0]', 'arguments[1]'] : ['this', 'arguments[0]'];
  if (m.params.length < (m.static ? 2 : 1)) return null;
  const [x, y] = ts ? [`(${a} as any)`, `(${b} as any)`] : [a, b];
  return `(${y} == null || ${x} == null || Object.getPrototypeOf(${y}) !== Object.getPrototypeOf(${x}) || ${JSON.stringify(fields)}.every((ag$n${ts ? ': string' : ''}) => ${strictComparison(ts)}(${x}[ag$n], ${y}[ag$n])))`;
}

/**
 * The equality probes of one JavaScript/TypeScript file: one per hook with an added line among
 * `lines` whose code differs from the baseline's hook (`baseline`: the file's old side, null
 * when new), and one per hook left as it was in a class with an added line that gains public
 * fields the hook does not read (`new_fields`). A hook no probe can be built for (a static hook of fewer than two parameters, an
 * instance hook of none) gets a probe that does not parse: recorded stillborn, not measured.
 */
export function jsProbes(path: string, text: string, baseline: string | null, lines: ReadonlySet<number>): Site[] {
  const mine = parsedHooks(path, text);
  if (mine === null) return [];
  const before = new Map<string, { body: string | null; params: string; fields: ReadonlySet<string> }>();
  for (const b of (baseline === null ? null : parsedHooks(path, baseline)) ?? [])
    if (b.hook.cls !== null) before.set(hookKey(b.hook), { ...b, fields: b.hook.fields });
  const starts = lineStarts(text);
  const ts = TS_FILE.test(path);
  const out: Site[] = [];
  for (const { hook, body, params } of mine) {
    const m = hook.node;
    const first = position(starts, m.start!).line;
    const last = position(starts, m.end! - 1).line;
    const base = hook.cls === null ? undefined : before.get(hookKey(hook));
    const asItWas =
      ![...lines].some((n) => n >= first && n <= last) ||
      (base?.body != null &&
        body !== null &&
        squash(base.body) === squash(body) &&
        squash(base.params) === squash(params));
    let strict: { call: string; comparison: 'baseline' | 'fields' | 'new_fields' } | null;
    let fields: string[] = [];
    if (asItWas) {
      // The hook as it was, in a class the patch gives public fields it does not read.
      if (base === undefined) continue;
      const read = namesRead(m);
      fields = [...hook.fields].filter((f) => !base.fields.has(f) && !read.has(f)).sort();
      const clsFirst = position(starts, hook.clsStart).line;
      const clsLast = position(starts, hook.clsEnd - 1).line;
      if (fields.length === 0 || ![...lines].some((n) => n >= clsFirst && n <= clsLast)) continue;
      const call = newFieldsCall(ts, m, fields);
      strict = call === null ? null : { call, comparison: 'new_fields' };
    } else strict = strictCall(ts, m, squash(params), base && { body: base.body, params: squash(base.params) });
    const at = m.body.body[0]!.start!;
    const replacement = strict === null ? '' : `if (!${strict.call}) return false; `;
    const where = position(starts, at);
    const name = `${hook.cls ?? '<anonymous>'}.${hook.method}`;
    const key = position(starts, m.key.start!);
    out.push(
      probeSite(
        path,
        at,
        where,
        replacement,
        strict !== null && parses(path, text.slice(0, at) + replacement + text.slice(at)),
        {
          hook: name,
          line: key.line,
          column: key.column,
          comparison: asItWas ? 'new_fields' : (strict?.comparison ?? 'fields'),
          ...(asItWas ? { fields } : {}),
        },
      ),
    );
  }
  return out;
}
