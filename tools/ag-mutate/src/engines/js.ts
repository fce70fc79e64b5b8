/**
 * The JavaScript/TypeScript engine: parse with @babel/parser, list mutation sites that
 * start on added lines, never in type positions, imports, directives or logging.
 * @module
 */
import { parse, type ParserPlugin } from '@babel/parser';
import type { Node } from '@babel/types';
import { applySite, lineStarts, position, shorten, type Site } from './site.js';

/** A file the engine could not parse; the message names the problem. */
export class EngineParseError extends Error {
  override readonly name = 'EngineParseError';
}

/** Parse a file the way its extension says; throws on a syntax error. */
export function parseJs(path: string, text: string): Node {
  const plugins: ParserPlugin[] = /\.(?:ts|mts|cts)$/.test(path) ? ['typescript'] : /\.tsx$/.test(path) ? ['typescript', 'jsx'] : ['jsx'];
  return parse(text, {
    sourceType: /\.cjs$|\.cts$/.test(path) ? 'script' : 'unambiguous',
    plugins,
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
    errorRecovery: false,
  }).program;
}

function parses(path: string, text: string): boolean {
  try {
    parseJs(path, text);
    return true;
  } catch {
    return false;
  }
}

/** Keys that hold types, comments or positions: never walked. */
const SKIP_KEYS = new Set([
  'loc', 'start', 'end', 'extra', 'range', 'leadingComments', 'trailingComments', 'innerComments', 'comments',
  'typeAnnotation', 'returnType', 'typeParameters', 'typeArguments', 'superTypeParameters', 'implements', 'predicate', 'directives',
]);

/** Statements and declarations that never run as code, or are imports. */
const SKIP_NODES = new Set([
  'ImportDeclaration', 'ExportAllDeclaration', 'TSInterfaceDeclaration', 'TSTypeAliasDeclaration', 'TSEnumDeclaration',
  'TSModuleDeclaration', 'TSDeclareFunction', 'TSDeclareMethod', 'TSImportEqualsDeclaration', 'TSExportAssignment',
  'TSNamespaceExportDeclaration', 'DeclareVariable', 'ImportExpression', 'TaggedTemplateExpression', 'RegExpLiteral',
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

function isRequireCall(node: Node): boolean {
  return node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'require';
}

const BINARY_SWAPS: Record<string, { op: string; to: string[]; rank: number }> = {
  '<': { op: 'EqualityOperator', to: ['<='], rank: 2 },
  '<=': { op: 'EqualityOperator', to: ['<'], rank: 2 },
  '>': { op: 'EqualityOperator', to: ['>='], rank: 2 },
  '>=': { op: 'EqualityOperator', to: ['>'], rank: 2 },
  '===': { op: 'EqualityOperator', to: ['!=='], rank: 2 },
  '!==': { op: 'EqualityOperator', to: ['==='], rank: 2 },
  '==': { op: 'EqualityOperator', to: ['!='], rank: 2 },
  '!=': { op: 'EqualityOperator', to: ['=='], rank: 2 },
  '+': { op: 'ArithmeticOperator', to: ['-'], rank: 4 },
  '-': { op: 'ArithmeticOperator', to: ['+'], rank: 4 },
  '*': { op: 'ArithmeticOperator', to: ['/'], rank: 4 },
  '/': { op: 'ArithmeticOperator', to: ['*'], rank: 4 },
  '%': { op: 'ArithmeticOperator', to: ['*'], rank: 4 },
  '&&': { op: 'LogicalOperator', to: ['||'], rank: 3 },
  '||': { op: 'LogicalOperator', to: ['&&'], rank: 3 },
  '??': { op: 'LogicalOperator', to: ['&&'], rank: 3 },
  '+=': { op: 'AssignmentOperator', to: ['-='], rank: 4 },
  '-=': { op: 'AssignmentOperator', to: ['+='], rank: 4 },
  '*=': { op: 'AssignmentOperator', to: ['/='], rank: 4 },
  '/=': { op: 'AssignmentOperator', to: ['*='], rank: 4 },
  '&&=': { op: 'AssignmentOperator', to: ['||='], rank: 4 },
  '||=': { op: 'AssignmentOperator', to: ['&&='], rank: 4 },
  '??=': { op: 'AssignmentOperator', to: ['&&='], rank: 4 },
};

const METHOD_SWAPS: Record<string, string> = {
  some: 'every', every: 'some', startsWith: 'endsWith', endsWith: 'startsWith', min: 'max', max: 'min',
  trimStart: 'trimEnd', trimEnd: 'trimStart', toUpperCase: 'toLowerCase', toLowerCase: 'toUpperCase',
  indexOf: 'lastIndexOf', lastIndexOf: 'indexOf', padStart: 'padEnd', padEnd: 'padStart',
};

interface RawSite {
  start: number;
  end: number;
  operator: string;
  rank: number;
  replacement: string;
}

function isStringy(node: Node): boolean {
  return node.type === 'StringLiteral' || node.type === 'TemplateLiteral';
}

/** Collect sites for one node (not its children). */
function sitesOf(node: Node, parent: Node | null, key: string, text: string, out: RawSite[]): void {
  const s = node.start!;
  const e = node.end!;
  const add = (start: number, end: number, operator: string, rank: number, replacement: string) => {
    if (text.slice(start, end) !== replacement) out.push({ start, end, operator, rank, replacement });
  };
  const operatorBetween = (left: Node, right: Node, op: string) => {
    const gap = text.slice(left.end!, right.start!);
    const at = gap.indexOf(op);
    return at < 0 ? null : left.end! + at;
  };
  switch (node.type) {
    case 'IfStatement':
    case 'ConditionalExpression': {
      const t = node.test;
      add(t.start!, t.end!, 'ConditionalExpression', 1, 'false');
      add(t.start!, t.end!, 'ConditionalExpression', 1, 'true');
      break;
    }
    case 'WhileStatement':
    case 'DoWhileStatement':
      add(node.test.start!, node.test.end!, 'ConditionalExpression', 1, 'false');
      break;
    case 'ForStatement':
      if (node.test) add(node.test.start!, node.test.end!, 'ConditionalExpression', 1, 'false');
      break;
    case 'BinaryExpression':
    case 'LogicalExpression':
    case 'AssignmentExpression': {
      const swap = BINARY_SWAPS[node.operator];
      if (!swap) break;
      if (node.operator === '+' && (isStringy(node.left as Node) || isStringy(node.right as Node))) break;
      if (node.type === 'AssignmentExpression' && node.operator === '+=' && isStringy(node.right as Node)) break;
      const at = operatorBetween(node.left as Node, node.right as Node, node.operator);
      if (at === null) break;
      for (const to of swap.to) add(at, at + node.operator.length, swap.op, swap.rank, to);
      break;
    }
    case 'UnaryExpression':
      if (['!', '-', '+', '~'].includes(node.operator) && node.prefix) add(s, s + 1, 'UnaryOperator', 3, '');
      break;
    case 'UpdateExpression': {
      const to = node.operator === '++' ? '--' : '++';
      const at = node.prefix ? s : text.lastIndexOf(node.operator, e - 2);
      if (at >= s) add(at, at + 2, 'UpdateOperator', 4, to);
      break;
    }
    case 'BlockStatement':
      if (node.body.length > 0 && parent?.type !== 'TSModuleDeclaration') add(s, e, 'BlockStatement', 5, '{}');
      break;
    case 'ExpressionStatement':
      if (['CallExpression', 'OptionalCallExpression', 'AwaitExpression'].includes(node.expression.type)) add(s, e, 'StatementRemoval', 5, ';');
      break;
    case 'ReturnStatement':
      if (node.argument && !(node.argument.type === 'Identifier' && node.argument.name === 'undefined')) {
        add(s, e, 'ReturnValue', 5, 'return undefined;');
      }
      break;
    case 'BooleanLiteral':
      add(s, e, 'BooleanLiteral', 6, node.value ? 'false' : 'true');
      break;
    case 'StringLiteral':
      if (key === 'key' || key === 'source' || key === 'exported' || key === 'imported' || key === 'local') break;
      if (parent?.type === 'JSXAttribute' || (parent && isRequireCall(parent))) break;
      add(s, e, 'StringLiteral', 7, node.value.length > 0 ? '""' : '"Stryker was here!"');
      break;
    case 'TemplateLiteral':
      if (node.quasis.some((q) => q.value.raw.length > 0) || node.expressions.length > 0) add(s, e, 'StringLiteral', 7, '``');
      break;
    case 'ArrayExpression':
      if (node.elements.length > 0) add(s, e, 'ArrayDeclaration', 7, '[]');
      break;
    case 'ObjectExpression':
      if (node.properties.length > 0) add(s, e, 'ObjectLiteral', 7, '{}');
      break;
    case 'OptionalMemberExpression':
    case 'OptionalCallExpression':
      if (node.optional) {
        const from = (node.type === 'OptionalMemberExpression' ? node.object : node.callee).end!;
        const at = text.indexOf('?.', from);
        if (at >= 0 && at < e) add(at, at + 2, 'OptionalChaining', 6, node.type === 'OptionalMemberExpression' && !node.computed ? '.' : '');
      }
      break;
    case 'CallExpression': {
      const callee = node.callee;
      if ((callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') && !callee.computed && callee.property.type === 'Identifier') {
        const to = METHOD_SWAPS[callee.property.name];
        if (to) add(callee.property.start!, callee.property.end!, 'MethodExpression', 6, to);
      }
      break;
    }
    default:
      break;
  }
}

function walk(node: Node, parent: Node | null, key: string, text: string, out: RawSite[]): void {
  if (SKIP_NODES.has(node.type) || (node.type.startsWith('TS') && !['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion', 'TSParameterProperty'].includes(node.type))) return;
  if (node.type === 'ExportNamedDeclaration' && node.source) return;
  if (isArid(node) || isRequireCall(node)) return;
  if (node.type === 'VariableDeclaration' && node.declare) return;
  if ((node.type === 'ClassProperty' || node.type === 'ClassMethod') && (node as { declare?: boolean; abstract?: boolean }).declare) return;
  sitesOf(node, parent, key, text, out);
  for (const [k, value] of Object.entries(node)) {
    if (SKIP_KEYS.has(k)) continue;
    if ((k === 'key' || k === 'property') && !(node as { computed?: boolean }).computed) continue;
    if (Array.isArray(value)) {
      for (const child of value) if (child && typeof child === 'object' && typeof child.type === 'string') walk(child as Node, node, k, text, out);
    } else if (value && typeof value === 'object' && typeof (value as Node).type === 'string') {
      walk(value as Node, node, k, text, out);
    }
  }
}

/**
 * Every mutation site of a JS/TS file whose replaced span starts on one of `lines`.
 * @throws EngineParseError when the file does not parse
 */
export function jsSites(path: string, text: string, lines: ReadonlySet<number>): Site[] {
  let program: Node;
  try {
    program = parseJs(path, text);
  } catch (error) {
    throw new EngineParseError(`${path}: ${(error as Error).message.split('\n')[0]}`);
  }
  const raw: RawSite[] = [];
  walk(program, null, 'program', text, raw);
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
    });
  }
  return sites;
}
