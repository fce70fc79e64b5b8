/**
 * The JavaScript/TypeScript engine: parse with @babel/parser, list mutation sites that
 * start on added lines, never in type positions, imports, directives or logging.
 * @module
 */
import { parse, type ParserPlugin } from '@babel/parser';
import type { Node } from '@babel/types';
import { isRequireCall, loadsModule, sitesOf, tailReturns, type RawSite } from './js-operators.js';
import { applySite, CANARY_TOKEN_SHAPE, lineStarts, position, shorten, type CanarySpot, type Site } from './site.js';

/** A file the engine could not parse; the message names the problem. */
export class EngineParseError extends Error {
  override readonly name = 'EngineParseError';
}

/** Parse a file the way its extension says; throws on a syntax error. */
export function parseJs(path: string, text: string): Node {
  return parseJsFile(path, text).program;
}

/**
 * The whole parse of a file (its program and its comments); throws on a syntax error. A
 * JavaScript file that does not parse as JavaScript is read once more as Flow (type annotations
 * in `.js` files, compiled away by the project's Babel), whose types are skipped as TypeScript's are.
 */
export function parseJsFile(path: string, text: string): ReturnType<typeof parse> {
  const typescript = /\.(?:ts|mts|cts)$/.test(path);
  const plugins: ParserPlugin[] = typescript ? ['typescript'] : /\.tsx$/.test(path) ? ['typescript', 'jsx'] : ['jsx'];
  const read = (with_: ParserPlugin[]) =>
    parse(text, {
      sourceType: /\.cjs$|\.cts$/.test(path) ? 'script' : 'unambiguous',
      plugins: with_,
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      errorRecovery: false,
    });
  if (plugins.includes('typescript')) return read(plugins);
  try {
    return read(plugins);
  } catch (error) {
    try {
      return read([...plugins, 'flow']);
    } catch {
      throw error;
    }
  }
}

/** Whether `text` parses as the file at `path`. */
export function parses(path: string, text: string): boolean {
  try {
    parseJs(path, text);
    return true;
  } catch {
    return false;
  }
}

/** Keys of a syntax tree that hold positions, comments, raw text or types: none of them runs. */
export const NOT_CODE_KEYS: readonly string[] = [
  'loc',
  'start',
  'end',
  'extra',
  'range',
  'leadingComments',
  'trailingComments',
  'innerComments',
  'comments',
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'typeArguments',
  'superTypeParameters',
  'implements',
  'predicate',
];

/** Flow's statements that only declare types (as TypeScript's `TS…Declaration`s). */
export const FLOW_TYPE_ONLY: readonly string[] = [
  'TypeAlias',
  'OpaqueType',
  'InterfaceDeclaration',
  'DeclareVariable',
  'DeclareFunction',
  'DeclareClass',
  'DeclareModule',
  'DeclareModuleExports',
  'DeclareTypeAlias',
  'DeclareOpaqueType',
  'DeclareInterface',
  'DeclareExportDeclaration',
  'DeclareExportAllDeclaration',
];

/** Keys never walked for mutation sites: what is not code, and directives (`'use strict'`). */
const SKIP_KEYS = new Set([...NOT_CODE_KEYS, 'directives']);

/** Statements and declarations that never run as code, or are imports. */
const SKIP_NODES = new Set([
  'ImportDeclaration',
  'ExportAllDeclaration',
  'TSInterfaceDeclaration',
  'TSTypeAliasDeclaration',
  'TSEnumDeclaration',
  'TSModuleDeclaration',
  'TSDeclareFunction',
  'TSDeclareMethod',
  'TSImportEqualsDeclaration',
  'TSExportAssignment',
  'TSNamespaceExportDeclaration',
  ...FLOW_TYPE_ONLY,
  'ImportExpression',
  'TaggedTemplateExpression',
]);

/** Statements that are definitions, not code that runs on a line of its own (their bodies count). */
const NOT_EXECUTABLE = new Set([
  'FunctionDeclaration',
  'ClassDeclaration',
  'BlockStatement',
  'EmptyStatement',
  'ExportNamedDeclaration',
  'ExportDefaultDeclaration',
  'SwitchStatement',
  'LabeledStatement',
  'DebuggerStatement',
]);

const ARID_OBJECTS = /^(?:console|logger|log|logging|debug|metrics|telemetry|tracer)$/;

function calleeRoot(node: Node): string | null {
  let n: Node = node;
  while (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') n = n.object;
  return n.type === 'Identifier' ? n.name : null;
}

/** A call statement that only logs or records metrics. */
function isArid(node: Node): boolean {
  if (node.type !== 'ExpressionStatement') return false;
  const e = node.expression;
  if (e.type !== 'CallExpression' && e.type !== 'OptionalCallExpression') return false;
  const root = calleeRoot(e.callee as Node);
  return root !== null && ARID_OBJECTS.test(root);
}

/** The name a function node is known by: its own, its variable's, its property's or method's (with the class). */
function functionName(node: Node, parent: Node | null, cls: string | null): string | null {
  const named = (n: Node | null | undefined): string | null =>
    n?.type === 'Identifier'
      ? n.name
      : n?.type === 'StringLiteral'
        ? n.value
        : n?.type === 'PrivateName'
          ? `#${n.id.name}`
          : null;
  if (node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod' || node.type === 'ObjectMethod') {
    const name = named(node.key as Node);
    return name === null ? null : cls !== null && node.type !== 'ObjectMethod' ? `${cls}.${name}` : name;
  }
  if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression') {
    if (node.id) return node.id.name;
  }
  if (node.type !== 'FunctionExpression' && node.type !== 'ArrowFunctionExpression') return null;
  if (parent?.type === 'VariableDeclarator') return named(parent.id as Node);
  if (parent?.type === 'ObjectProperty' || parent?.type === 'ClassProperty') {
    const name = named(parent.key as Node);
    return name === null ? null : cls !== null && parent.type === 'ClassProperty' ? `${cls}.${name}` : name;
  }
  if (parent?.type === 'AssignmentExpression') {
    const left = parent.left as Node;
    if (left.type === 'MemberExpression' && !left.computed) return named(left.property as Node);
    return named(left);
  }
  return null;
}

interface WalkState {
  readonly text: string;
  readonly out: RawSite[];
  /** Start offsets of code that runs on a line of its own: statements and case labels. */
  readonly executable: number[];
  /** The returns in tail position of every function entered so far. */
  readonly tails: Set<Node>;
  /** Where a canary can go in each function (canarySpot). */
  readonly spots: Omit<CanarySpot, 'file' | 'parses'>[];
}

/** Function nodes that have a body of their own (declarations without one are skipped before). */
const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);

/**
 * Where a canary goes in a function: a no-op statement before the body's first statement
 * (after the directive prologue, which it must not end early or join), or inside an empty
 * body; an expression body is wrapped as `(void TOKEN, body)`. Nothing shifts a line.
 */
function canarySpot(node: Node, name: string | null, text: string): Omit<CanarySpot, 'file' | 'parses'> | null {
  const body = (node as { body?: Node }).body;
  if (body === undefined || body === null) return null;
  const span = { function: name, fnStart: node.start!, fnEnd: node.end! };
  if (body.type === 'BlockStatement') {
    const first = body.body[0];
    if (first !== undefined) return { ...span, start: first.start!, end: first.start!, prefix: 'void ', suffix: '; ' };
    // Before the closing brace: after a directive without its semicolon too.
    return { ...span, start: body.end! - 1, end: body.end! - 1, prefix: ';void ', suffix: ';' };
  }
  if (node.type !== 'ArrowFunctionExpression') return null;
  return {
    ...span,
    start: body.start!,
    end: body.end!,
    prefix: '(void ',
    suffix: `, ${text.slice(body.start!, body.end!)})`,
  };
}

function isExecutable(node: Node): boolean {
  if (node.type === 'SwitchCase') return node.test != null;
  if (!/Statement$|Declaration$/.test(node.type) || NOT_EXECUTABLE.has(node.type)) return false;
  // `const x = require('x')` loads a module, like an import: not code a test must pin.
  if (node.type === 'VariableDeclaration')
    return node.declarations.some((d) => d.init != null && !loadsModule(d.init as Node));
  return true;
}

function walk(
  node: Node,
  parent: Node | null,
  key: string,
  st: WalkState,
  fn: string | null,
  cls: string | null,
): void {
  if (
    SKIP_NODES.has(node.type) ||
    (node.type.startsWith('TS') &&
      ![
        'TSAsExpression',
        'TSSatisfiesExpression',
        'TSNonNullExpression',
        'TSTypeAssertion',
        'TSParameterProperty',
      ].includes(node.type))
  )
    return;
  if (node.type === 'ExportNamedDeclaration' && node.source) return;
  if (isArid(node) || isRequireCall(node)) return;
  if (node.type === 'VariableDeclaration' && node.declare) return;
  if (
    (node.type === 'ClassProperty' || node.type === 'ClassMethod') &&
    (node as { declare?: boolean; abstract?: boolean }).declare
  )
    return;
  if (isExecutable(node)) st.executable.push(node.start!);
  if (/Function|Method/.test(node.type) && (node as { body?: Node }).body?.type === 'BlockStatement')
    tailReturns((node as { body: Node }).body, st.tails);
  sitesOf(node, parent, key, st.text, st.out, fn, st.tails);
  const own = /Function|Method/.test(node.type) ? (functionName(node, parent, cls) ?? fn) : fn;
  if (FUNCTIONS.has(node.type)) {
    const spot = canarySpot(node, own, st.text);
    if (spot !== null) st.spots.push(spot);
  }
  const klass = node.type === 'ClassDeclaration' || node.type === 'ClassExpression' ? (node.id?.name ?? cls) : cls;
  for (const [k, child] of childNodes(node)) {
    if ((k === 'key' || k === 'property') && !(node as { computed?: boolean }).computed) continue;
    walk(child, node, k, st, own, klass);
  }
}

/** A node's child nodes in source order of its keys, each with the key that holds it (types, comments and positions skipped). */
export function childNodes(node: Node): [string, Node][] {
  const out: [string, Node][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (SKIP_KEYS.has(key) || value === null || typeof value !== 'object') continue;
    for (const child of Array.isArray(value) ? (value as unknown[]) : [value])
      if (child !== null && typeof child === 'object' && typeof (child as Node).type === 'string')
        out.push([key, child as Node]);
  }
  return out;
}

/** A file's mutation sites on some lines, and which of those lines hold code that runs. */
export interface JsAnalysis {
  readonly sites: Site[];
  /** The lines of `lines` on which a statement or a case label starts (sorted). */
  readonly executable: number[];
  /** Where a canary can go in each function whose span holds one of `lines`. */
  readonly canarySpots: CanarySpot[];
}

/**
 * Every mutation site of a JS/TS file whose replaced span starts on one of `lines`.
 * @throws EngineParseError when the file does not parse
 */
export function jsSites(path: string, text: string, lines: ReadonlySet<number>): Site[] {
  return jsAnalysis(path, text, lines).sites;
}

/**
 * The sites on `lines` and the executable lines among them.
 * @throws EngineParseError when the file does not parse
 */
export function jsAnalysis(path: string, text: string, lines: ReadonlySet<number>): JsAnalysis {
  let program: Node;
  try {
    program = parseJs(path, text);
  } catch (error) {
    throw new EngineParseError(`${path}: ${(error as Error).message.split('\n')[0]}`);
  }
  const st: WalkState = { text, out: [], executable: [], tails: new Set(), spots: [] };
  walk(program, null, 'program', st, null, null);
  const raw = st.out;
  const starts = lineStarts(text);
  const seen = new Set<string>();
  const sites: Site[] = [];
  for (const r of raw) {
    const { line, column } = position(starts, r.start);
    if (!lines.has(line)) continue;
    const dedupe = `${r.start}:${r.end}:${r.replacement}`;
    if (seen.has(dedupe)) continue;
    seen.add(dedupe);
    const original = text.slice(r.start, r.end);
    sites.push({
      file: path,
      line,
      column,
      start: r.start,
      end: r.end,
      operator: r.operator,
      rank: r.rank,
      original: shorten(original),
      replacement: r.replacement,
      parses: parses(path, applySite(text, r)),
      function: r.fn,
      ...(r.breaksType === true ? { breaksType: true } : {}),
    });
  }
  const executable = [...new Set(st.executable.map((o) => position(starts, o).line).filter((l) => lines.has(l)))].sort(
    (a, b) => a - b,
  );
  const canarySpots: CanarySpot[] = [];
  for (const spot of st.spots) {
    const first = position(starts, spot.fnStart).line;
    const last = position(starts, Math.max(spot.fnStart, spot.fnEnd - 1)).line;
    if (![...lines].some((n) => n >= first && n <= last)) continue;
    const edited = `${text.slice(0, spot.start)}${spot.prefix}${CANARY_TOKEN_SHAPE}${spot.suffix}${text.slice(spot.end)}`;
    canarySpots.push({ ...spot, file: path, parses: parses(path, edited) });
  }
  return { sites, executable, canarySpots };
}
