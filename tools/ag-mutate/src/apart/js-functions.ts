/**
 * The changed JavaScript functions the footprint and the equivalence check can reach: those
 * bound to a name at the module's top level (`function f`, `const f = (…) => …`, `const f =
 * function …`, exported or not), read from the file's syntax tree, with what the judge needs
 * to know of each: its parameters, its constants, the keys of the module-level tables it names,
 * and the module's top-level data (the state a side effect shows in).
 * @module
 */
import type { Node } from '@babel/types';
import { childNodes, parseJs } from '../engines/js.js';
import type { Literals, Parameters } from './argument-rules.js';

/** One top-level named function. */
export interface TopFunction {
  readonly name: string;
  /** The function node (a declaration, a function expression or an arrow). */
  readonly node: Node;
  /** Whether its body can be wrapped and judged: not async, not a generator. */
  readonly plain: boolean;
  /** Its parameters (a read of `arguments` in a non-arrow function counts as one more). */
  readonly parameters: Parameters;
}

/** A parsed module: its top-level functions by name, its top-level data names, its tables' keys. */
export interface JsModule {
  readonly program: Node;
  readonly functions: ReadonlyMap<string, TopFunction>;
  /** Names declared at the top level holding data (not functions, classes or loaded modules). */
  readonly stateNames: readonly string[];
  /** Top-level `const` tables (object, array or `new Map([...])` literals) by name: their literal keys. */
  readonly tables: ReadonlyMap<string, Keys>;
  /**
   * Per top-level function, the data names only it names, and reads (a memo cache): nothing
   * else in the module reads or exports them, so they show only in that function's answers.
   */
  readonly privateState: ReadonlyMap<string, readonly string[]>;
}

/** Integers and strings, as a function's constants or a table's keys. */
export interface Keys {
  readonly ints: number[];
  readonly strs: string[];
}

const isFunction = (n: Node | null | undefined): boolean =>
  n?.type === 'FunctionExpression' || n?.type === 'ArrowFunctionExpression' || n?.type === 'FunctionDeclaration';

/** Visit `node` and every node under it. */
export function walk(node: Node, visit: (n: Node) => void): void {
  visit(node);
  for (const [, c] of childNodes(node)) walk(c, visit);
}

function readsArguments(fn: Node): boolean {
  let found = false;
  walk(fn, (n) => {
    if (n.type === 'Identifier' && n.name === 'arguments') found = true;
  });
  return found;
}

/** A parameter's name (a pattern's kind when it is not a plain name). */
function paramName(p: Node): string {
  if (p.type === 'Identifier') return p.name;
  if (p.type === 'AssignmentPattern') return paramName(p.left);
  if (p.type === 'RestElement') return `...${paramName(p.argument)}`;
  return p.type;
}

function topFunction(name: string, node: Node): TopFunction {
  const f = node as Node & { async?: boolean; generator?: boolean; params: Node[] };
  return {
    name,
    node,
    plain: f.async !== true && f.generator !== true,
    parameters: {
      positional: f.params.map(paramName),
      other: node.type !== 'ArrowFunctionExpression' && readsArguments(node) ? 1 : 0,
    },
  };
}

/** The literal value of a key or element: an integer or a short string; undefined for anything else. */
function literal(n: Node | null | undefined): number | string | undefined {
  if (n?.type === 'NumericLiteral' && Number.isInteger(n.value)) return n.value;
  if (n?.type === 'UnaryExpression' && n.operator === '-' && n.argument.type === 'NumericLiteral')
    return Number.isInteger(n.argument.value) ? -n.argument.value : undefined;
  if (n?.type === 'StringLiteral' && n.value.length <= 40) return n.value;
  return undefined;
}

function add(keys: Keys, value: number | string | undefined): void {
  if (typeof value === 'number') keys.ints.push(value);
  else if (typeof value === 'string') keys.strs.push(value);
}

/** The keys of a table literal (an object's keys, an array's elements and its tuples' items, a Map's entries' keys), or null. */
function tableKeys(init: Node | null | undefined): Keys | null {
  if (init == null) return null;
  const keys: Keys = { ints: [], strs: [] };
  const items = (elements: (Node | null)[]) => {
    for (const e of elements.slice(0, 64)) {
      if (e?.type === 'ArrayExpression') for (const x of e.elements) add(keys, literal(x as Node));
      else add(keys, literal(e));
    }
  };
  if (init.type === 'ObjectExpression') {
    for (const p of init.properties.slice(0, 64))
      if (p.type === 'ObjectProperty' && !p.computed)
        add(keys, p.key.type === 'Identifier' ? p.key.name : literal(p.key as Node));
      else if (p.type === 'ObjectProperty') add(keys, literal(p.key as Node));
    return keys;
  }
  if (init.type === 'ArrayExpression') {
    items(init.elements as (Node | null)[]);
    return keys;
  }
  if (init.type === 'NewExpression' && init.callee.type === 'Identifier' && /^(?:Map|Set)$/.test(init.callee.name)) {
    const first = init.arguments[0];
    if (first?.type === 'ArrayExpression') items(first.elements as (Node | null)[]);
    return keys;
  }
  return null;
}

const LOADS = (n: Node | null | undefined) =>
  n?.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'require';

/** Read a module's top level; null when it does not parse. */
export function readModule(parseAs: string, text: string): JsModule | null {
  let program: Node;
  try {
    program = parseJs(parseAs, text);
  } catch {
    return null;
  }
  const functions = new Map<string, TopFunction>();
  const stateNames: string[] = [];
  const tables = new Map<string, Keys>();
  const exported = new Set<string>();
  for (const top of (program as Node & { body: Node[] }).body) {
    const s: Node | null | undefined =
      top.type === 'ExportNamedDeclaration' || top.type === 'ExportDefaultDeclaration'
        ? (top.declaration as Node)
        : top;
    if (s?.type === 'FunctionDeclaration' && s.id) functions.set(s.id.name, topFunction(s.id.name, s));
    else if (s?.type === 'VariableDeclaration')
      for (const d of s.declarations) {
        if (d.id.type !== 'Identifier') continue;
        const name = d.id.name;
        if (top.type !== 'VariableDeclaration') exported.add(name);
        if (isFunction(d.init as Node)) functions.set(name, topFunction(name, d.init as Node));
        else if (d.init?.type !== 'ClassExpression' && !LOADS(d.init as Node)) {
          stateNames.push(name);
          const keys = s.kind === 'const' ? tableKeys(d.init as Node) : null;
          if (keys !== null) tables.set(name, keys);
        }
      }
  }
  const unexported = stateNames.filter((n) => !exported.has(n));
  return { program, functions, stateNames, tables, privateState: privateState(program, functions, unexported) };
}

/**
 * Whether a use of a name only writes to it: assigned or updated, or the object of a member
 * assigned, deleted or called as a statement of its own (`log.push(x);`, `memo[k] = v`).
 * `path` holds the use's ancestors, nearest last, each with the key it was reached by.
 */
function onlyWrites(path: readonly (readonly [Node, string])[]): boolean {
  const [parent, key] = path[path.length - 1] ?? [];
  if (parent === undefined) return false;
  if ((parent.type === 'AssignmentExpression' && key === 'left') || parent.type === 'UpdateExpression') return true;
  if (!(parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') || key !== 'object')
    return false;
  const [outer, outerKey] = path[path.length - 2] ?? [];
  if (outer === undefined) return false;
  if (outer.type === 'AssignmentExpression' && outerKey === 'left') return true;
  if (outer.type === 'UnaryExpression' && outer.operator === 'delete') return true;
  const [statement] = path[path.length - 3] ?? [];
  return (
    (outer.type === 'CallExpression' || outer.type === 'OptionalCallExpression') &&
    outerKey === 'callee' &&
    statement?.type === 'ExpressionStatement'
  );
}

/**
 * Per top-level function, the data names only it names and that it reads (not only writes):
 * a memo cache. Data another function, a class or the module's own statements name is
 * anyone's; data only written (a log nothing reads) is no one's own, so it stays compared.
 */
function privateState(
  program: Node,
  functions: ReadonlyMap<string, TopFunction>,
  names: readonly string[],
): Map<string, string[]> {
  const wanted = new Set(names);
  const owners = new Map<string, Set<string>>();
  const read = new Set<string>();
  const byNode = new Map([...functions.values()].map((f) => [f.node, f.name]));
  const path: [Node, string][] = [];
  const visit = (n: Node, within: string, declared: boolean) => {
    const here = byNode.get(n) ?? within;
    if (n.type === 'Identifier' && wanted.has(n.name) && !declared) {
      const set = owners.get(n.name) ?? new Set();
      set.add(here);
      owners.set(n.name, set);
      if (!onlyWrites(path)) read.add(n.name);
    }
    for (const [key, c] of childNodes(n)) {
      // A top-level declaration's own name is no use of it; an export of it is.
      const own = n.type === 'VariableDeclarator' && key === 'id' && here === '' && c.type === 'Identifier';
      const property = (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') && key === 'property';
      path.push([n, key]);
      visit(c, here, own || (property && !(n as Node & { computed: boolean }).computed));
      path.pop();
    }
  };
  visit(program, '', false);
  const out = new Map<string, string[]>();
  for (const name of names) {
    const o = [...(owners.get(name) ?? [])];
    if (o.length === 1 && o[0] !== '' && read.has(name)) out.set(o[0]!, [...(out.get(o[0]!) ?? []), name]);
  }
  return out;
}

/** The integer and short string constants a function's text holds, as written (the rules' `Literals`). */
export function literalsOf(fn: Node): Literals {
  const ints = new Set<number>();
  const strs = new Set<string>();
  walk(fn, (n) => {
    const v = literal(n);
    if (typeof v === 'number') ints.add(v);
    else if (typeof v === 'string') strs.add(v);
  });
  return {
    ints: [...ints].sort((a, b) => a - b).map((x) => BigInt(x).toString()),
    strs: [...strs].sort(),
  };
}

/** A function's constants (integers ±1, short strings) and the keys of the module's tables it names: the neighbours' values. */
export function constantsOf(fn: Node, tables?: ReadonlyMap<string, Keys>): Keys {
  const keys: Keys = { ints: [], strs: [] };
  walk(fn, (n) => {
    const v = literal(n);
    if (typeof v === 'number') keys.ints.push(v - 1, v, v + 1);
    else if (typeof v === 'string') keys.strs.push(v);
    if (n.type === 'Identifier' && tables?.has(n.name)) {
      const t = tables.get(n.name)!;
      keys.ints.push(...t.ints);
      keys.strs.push(...t.strs);
    }
  });
  return { ints: [...new Set(keys.ints)].sort((a, b) => a - b), strs: [...new Set(keys.strs)].sort() };
}
