/**
 * Site counters: the recording run's cheap way to see which tests reach each mutation site.
 * The changed file is written with a call of a counter function just before each site runs
 * (the smallest enclosing expression that can be wrapped as `(count(o), expr)`, else a call
 * before the enclosing statement or at the top of the block), and the counter function is
 * appended to the file. A site counted means its code was reached: never less than V8's block
 * coverage says, so no test that reaches a site is missed. Only the changed files pay, where
 * V8's precise coverage slows every function of the process (+40 % CPU on express's suite).
 * A file where some site has no place for a counter is not instrumented (null): the caller
 * records it another way.
 * @module
 */
import { pathToFileURL } from 'node:url';
import type { Node } from '@babel/types';
import { childNodes, parseJs } from '../engines/js.js';

/** How the counter function reaches the counter runtime from the changed file. */
export interface CounterLink {
  /** `commonjs`: a lazy `require` of the runtime; `module`: an `import` of it. */
  readonly module: 'commonjs' | 'module';
  /** The absolute path of `runtime/site-counter.cjs`. */
  readonly runtime: string;
  /** Where processes that run no mocha hook write their counts. */
  readonly dir: string;
  /** The file's absolute path (the records' key). */
  readonly file: string;
  /** The length the records report for the file (the written text's, before the counters). */
  readonly length: number;
  /** A suffix that keeps the appended names apart from the file's own. */
  readonly salt: string;
}

interface Parented {
  readonly node: Node;
  readonly parent: Parented | null;
  readonly key: string;
}

/** Where a counter goes: around an expression, before a statement, or at the top of a block. */
type Place =
  | { readonly kind: 'wrap'; readonly node: Node; readonly listed: boolean }
  | { readonly kind: 'before'; readonly node: Node }
  | { readonly kind: 'brace'; readonly node: Node }
  | { readonly kind: 'top'; readonly node: Node; readonly at: number };

/** The innermost node that holds [start, end), with its ancestors. */
function innermost(program: Node, start: number, end: number): Parented {
  let at: Parented = { node: program, parent: null, key: '' };
  for (;;) {
    const next = childNodes(at.node).find(([, c]) => c.start! <= start && end <= c.end! && c.end! > c.start!);
    if (next === undefined) return at;
    at = { node: next[1], parent: at, key: next[0] };
  }
}

/** Nodes never wrapped: not values, or values whose meaning depends on not being parenthesised. */
const NOT_WRAPPED = /^(?:TS|JSX|Flow|Declare)|^(?:Super|Import|PrivateName|ArgumentPlaceholder)$/;
/** Parents whose children are names, patterns or types, never values to wrap. */
const NAMING_PARENT =
  /^(?:TS|JSX|Flow|Declare)|^(?:Decorator|ObjectPattern|ArrayPattern|RestElement|MetaProperty|ImportSpecifier|ImportDefaultSpecifier|ImportNamespaceSpecifier|ExportSpecifier|ExportNamespaceSpecifier|ExportDefaultSpecifier)$/;
/** Keys that hold names, never values. */
const NAMING_KEY = new Set(['key', 'id', 'label', 'params', 'param', 'local', 'imported', 'exported', 'meta']);
const EXPRESSION =
  /Expression$|Literal$|^(?:Identifier|ThisExpression|MetaProperty|TemplateLiteral|ClassExpression|FunctionExpression|ArrowFunctionExpression)$/;
const OPTIONAL = new Set(['OptionalMemberExpression', 'OptionalCallExpression']);
const ASSIGNED_LEFT = /^(?:AssignmentExpression|ForInStatement|ForOfStatement|AssignmentPattern)$/;

/** May `(count(), node)` stand where `node` stands, with the same meaning? */
function wrappable(at: Parented): boolean {
  const { node, parent, key } = at;
  if (parent === null || NOT_WRAPPED.test(node.type) || !EXPRESSION.test(node.type)) return false;
  const p = parent.node as Node & { computed?: boolean; shorthand?: boolean; operator?: string };
  if (NAMING_PARENT.test(p.type) || NAMING_KEY.has(key)) return false;
  // A callee keeps its `this` only unwrapped; a tag likewise.
  if ((key === 'callee' && /Call|New/.test(p.type)) || (key === 'tag' && p.type === 'TaggedTemplateExpression'))
    return false;
  // A link of an optional chain: wrapping it would end the chain's short-circuit there.
  if (OPTIONAL.has(p.type) && (key === 'object' || key === 'callee')) return false;
  if (key === 'left' && ASSIGNED_LEFT.test(p.type)) return false;
  if (p.type === 'UpdateExpression') return false;
  if (p.type === 'UnaryExpression' && (p.operator === 'delete' || p.operator === 'typeof')) return false;
  if (key === 'property' && !p.computed) return false;
  if (p.type === 'ObjectProperty' && (p.shorthand || key !== 'value' || parent.parent?.node.type === 'ObjectPattern'))
    return false;
  // A tagged template's literal: wrapped, the tag would be called with other arguments.
  if (key === 'quasi') return false;
  return true;
}

const LISTS = new Set(['Program:body', 'BlockStatement:body', 'StaticBlock:body', 'SwitchCase:consequent']);
const SINGLE_BODY = new Set([
  'IfStatement:consequent',
  'IfStatement:alternate',
  'ForStatement:body',
  'ForInStatement:body',
  'ForOfStatement:body',
  'WhileStatement:body',
  'DoWhileStatement:body',
  'LabeledStatement:body',
  'WithStatement:body',
]);

const isStatement = (n: Node) => /Statement$|Declaration$/.test(n.type) && !n.type.startsWith('TS');

/**
 * Does a `(` at `node`'s start begin a statement of a list? Then it needs a `;` before it,
 * or it would call the value that ends the statement before (no semicolon there).
 */
function startsListedStatement(at: Parented): boolean {
  for (let up: Parented | null = at.parent; up !== null; up = up.parent) {
    if (up.node.start !== at.node.start) return false;
    if (isStatement(up.node))
      return (
        up.node.type === 'ExpressionStatement' && up.parent !== null && LISTS.has(`${up.parent.node.type}:${up.key}`)
      );
  }
  return false;
}

/** Code that runs later than where it stands: a counter outside it would count its creation, not its runs. */
const DEFERRED = /Function|Method$|^Class(?:Declaration|Expression|Body)$/;

/** Where the counter of the site spanning [start, end) goes; null when nowhere. */
function placeOf(program: Node, start: number, end: number): Place | null {
  const first = innermost(program, start, end);
  for (let at: Parented | null = first; at !== null; at = at.parent) {
    const { node, parent } = at;
    if (at !== first && DEFERRED.test(node.type)) return null;
    if (wrappable(at)) return { kind: 'wrap', node, listed: startsListedStatement(at) };
    if (node.type === 'ClassBody' && at === first) {
      // A span over a member's header (a revert of `constructor(a) {` → `constructor(a, b = 0) {`):
      // counted at the top of the body of the method it opens, which runs when the method does.
      const member = ((node as { body?: Node[] }).body ?? []).find((n) => n.start! >= start && n.start! < end);
      const body = (member as { body?: Node } | undefined)?.body;
      if (member?.type !== 'ClassMethod' || body?.type !== 'BlockStatement') return null;
      const directives = (body as { directives?: Node[] }).directives ?? [];
      return { kind: 'top', node: body, at: directives.length > 0 ? directives.at(-1)!.end! : body.start! + 1 };
    }
    if (node.type === 'Program') {
      // A span of whole top-level statements that starts in a comment or blank line (a revert of
      // a hunk opening with a comment): the counter goes before its first statement.
      const body = (node as { body?: Node[] }).body ?? [];
      const inside = body.find((n) => n.start! >= start && n.start! < end);
      return inside === undefined ? null : { kind: 'before', node: inside };
    }
    if (node.type === 'BlockStatement') {
      // After the directives of a function body: a counter before them would end the prologue.
      const directives = (node as { directives?: Node[] }).directives ?? [];
      return { kind: 'top', node, at: directives.length > 0 ? directives.at(-1)!.end! : node.start! + 1 };
    }
    if (parent !== null && isStatement(node)) {
      const where = `${parent.node.type}:${at.key}`;
      if (LISTS.has(where)) return { kind: 'before', node };
      if (SINGLE_BODY.has(where) && !/Declaration$/.test(node.type)) return { kind: 'brace', node };
      return null;
    }
  }
  return null;
}

interface Insertion {
  readonly at: number;
  readonly text: string;
  /** Openers before closers at one offset; the outer opener first, the inner closer first. */
  readonly order: number;
}

/**
 * The text of `file` with a counter before each site (`offsets`: each site's [start, end) and
 * the offset its records are keyed by), or null when the file does not parse or some site
 * has no place for a counter.
 */
export function withSiteCounters(
  parseAs: string,
  text: string,
  sites: readonly { readonly start: number; readonly end: number }[],
  link: CounterLink,
): string | null {
  let program: Node;
  try {
    program = parseJs(parseAs, text);
  } catch {
    return null;
  }
  const count = `__agmCount_${link.salt}`;
  const byPlace = new Map<string, { place: Place; offsets: Set<number> }>();
  for (const site of sites) {
    const place = placeOf(program, site.start, site.end);
    if (place === null) return null;
    const key = `${place.kind}:${place.node.start}:${place.node.end}`;
    const entry = byPlace.get(key) ?? { place, offsets: new Set<number>() };
    entry.offsets.add(site.start);
    byPlace.set(key, entry);
  }
  const edits: Insertion[] = [];
  for (const { place, offsets } of byPlace.values()) {
    const call = `${count}(${[...offsets].sort((a, b) => a - b).join(',')})`;
    // Twice the span, one more for a statement's own counter: it comes before an expression's at one offset.
    const span = 2 * (place.node.end! - place.node.start!) + (place.kind === 'wrap' ? 0 : 1);
    const open = (at: number, t: string) => edits.push({ at, text: t, order: -span });
    const close = (at: number, t: string) => edits.push({ at, text: t, order: span - 1e12 });
    if (place.kind === 'wrap') {
      // A statement that starts with `(` would call the value ending the statement before it.
      open(place.node.start!, `${place.listed ? ';' : ''}(${call}, `);
      close(place.node.end!, ')');
    } else if (place.kind === 'before') open(place.node.start!, `;${call};`);
    else if (place.kind === 'brace') {
      open(place.node.start!, `{${call};`);
      close(place.node.end!, '}');
    } else open(place.at, `;${call};`);
  }
  // From the end, so that earlier offsets hold; at one offset the text inserted last comes first.
  edits.sort((a, b) => b.at - a.at || b.order - a.order);
  let out = text;
  for (const e of edits) out = out.slice(0, e.at) + e.text + out.slice(e.at);
  out = `${out}${out.endsWith('\n') ? '' : '\n'}${counterFunction(count, link)}`;
  try {
    parseJs(parseAs, out);
  } catch {
    return null;
  }
  return out;
}

/** The counter function appended to the file: it binds the file to the runtime once, then counts. */
function counterFunction(count: string, link: CounterLink): string {
  const bound = `__agmBound_${link.salt}`;
  const args = [link.dir, link.file, link.length].map((a) => JSON.stringify(a)).join(', ');
  const runtime =
    link.module === 'module'
      ? {
          head: `import __agmRuntime_${link.salt} from ${JSON.stringify(pathToFileURL(link.runtime).href)};\n`,
          get: `__agmRuntime_${link.salt}`,
        }
      : { head: '', get: `require(${JSON.stringify(link.runtime)})` };
  return (
    `${runtime.head}var ${bound};\n` +
    `function ${count}() { var h = ${bound} || (${bound} = ${runtime.get}.file(${args})); ` +
    `for (var i = 0; i < arguments.length; i++) h(arguments[i]); }\n` +
    `${count}();\n`
  );
}
