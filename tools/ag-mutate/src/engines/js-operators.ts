/**
 * The JavaScript/TypeScript operators: which replacements one AST node offers (not its
 * children; js.ts walks the tree and decides what is never mutated).
 * @module
 */
import type { Node } from '@babel/types';
import { patternMutations, validRegExp } from './regex.js';

/** A value that loads a module (`require('x')`, `require('x').y`, `await import('x')`): as an import, never mutated. */
export function loadsModule(init: Node): boolean {
  let n: Node = init;
  while (n.type === 'MemberExpression' || n.type === 'AwaitExpression' || n.type === 'CallExpression') {
    if (isRequireCall(n)) return true;
    n =
      n.type === 'MemberExpression'
        ? (n.object as Node)
        : n.type === 'AwaitExpression'
          ? (n.argument as Node)
          : (n.callee as Node);
  }
  return n.type === 'ImportExpression';
}

/** A `require(…)` call: never mutated, nor what it is assigned to. */
export function isRequireCall(node: Node): boolean {
  return node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'require';
}

// The operator tables are Maps, never plain objects: a lookup by a name from the source
// (`x.toString()`, `x.constructor`, `x.__proto__`) must not find Object.prototype's members.
const BINARY_SWAPS: ReadonlyMap<string, { op: string; to: string[]; rank: number }> = new Map(
  Object.entries({
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
    '|': { op: 'BitwiseOperator', to: ['&'], rank: 4 },
    '&': { op: 'BitwiseOperator', to: ['|'], rank: 4 },
    '^': { op: 'BitwiseOperator', to: ['&'], rank: 4 },
    '<<': { op: 'BitwiseOperator', to: ['>>'], rank: 4 },
    '>>': { op: 'BitwiseOperator', to: ['<<'], rank: 4 },
    '>>>': { op: 'BitwiseOperator', to: ['>>'], rank: 4 },
    '|=': { op: 'AssignmentOperator', to: ['&='], rank: 4 },
    '&=': { op: 'AssignmentOperator', to: ['|='], rank: 4 },
    '&&=': { op: 'AssignmentOperator', to: ['||='], rank: 4 },
    '||=': { op: 'AssignmentOperator', to: ['&&='], rank: 4 },
    '??=': { op: 'AssignmentOperator', to: ['&&='], rank: 4 },
  }),
);

const METHOD_SWAPS: ReadonlyMap<string, string> = new Map([
  ['some', 'every'],
  ['every', 'some'],
  ['startsWith', 'endsWith'],
  ['endsWith', 'startsWith'],
  ['min', 'max'],
  ['max', 'min'],
  ['trimStart', 'trimEnd'],
  ['trimEnd', 'trimStart'],
  ['toUpperCase', 'toLowerCase'],
  ['toLowerCase', 'toUpperCase'],
  ['indexOf', 'lastIndexOf'],
  ['lastIndexOf', 'indexOf'],
  ['padStart', 'padEnd'],
  ['padEnd', 'padStart'],
  // Rounding: each to the one that differs from it on the most inputs it gets wrong by one.
  ['round', 'ceil'],
  ['ceil', 'round'],
  ['floor', 'round'],
]);

/** One replacement of a span of the text, before positions are computed. */
export interface RawSite {
  start: number;
  end: number;
  operator: string;
  rank: number;
  replacement: string;
  fn: string | null;
  /** The mutant only breaks the value's type (a function body emptied, a value → `undefined`): see ag-core's strength rule. */
  breaksType?: boolean;
}

/** Operators whose every replacement only breaks the value's type (`undefined` for a value). */
const TYPE_BREAKING = new Set(['ReturnValue', 'AssignedValue']);

const BITWISE = new Set(['|', '&', '^', '<<', '>>', '>>>']);

/** A value whose loss a test should notice: anything but a literal (literals have their own operators) or `undefined`. */
function isComputed(node: Node | null | undefined): boolean {
  while (
    node &&
    (node.type === 'TSAsExpression' ||
      node.type === 'TSSatisfiesExpression' ||
      node.type === 'TSNonNullExpression' ||
      node.type === 'TSTypeAssertion')
  )
    node = node.expression as Node;
  if (!node || loadsModule(node)) return false;
  if (node.type === 'Identifier' && node.name === 'undefined') return false;
  return (
    !/Literal$/.test(node.type) &&
    node.type !== 'ArrayExpression' &&
    node.type !== 'ObjectExpression' &&
    !/Function|Class/.test(node.type)
  );
}

function isStringy(node: Node): boolean {
  return node.type === 'StringLiteral' || node.type === 'TemplateLiteral';
}

/**
 * The `return` statements (of any value) in tail position of a function body: what runs last,
 * through the last statement of blocks, both branches of an `if`, a `try` block and its handler.
 * Removing a bare one there is equivalent: the function ends either way.
 */
export function tailReturns(body: Node, out: Set<Node> = new Set()): Set<Node> {
  const last = body.type === 'BlockStatement' ? (body.body.at(-1) as Node | undefined) : body;
  if (last === undefined) return out;
  if (last.type === 'ReturnStatement') out.add(last);
  else if (last.type === 'BlockStatement') tailReturns(last, out);
  else if (last.type === 'IfStatement') {
    tailReturns(last.consequent as Node, out);
    if (last.alternate) tailReturns(last.alternate as Node, out);
  } else if (last.type === 'TryStatement') {
    tailReturns(last.block as Node, out);
    if (last.handler) tailReturns(last.handler.body as Node, out);
  } else if (last.type === 'LabeledStatement') tailReturns(last.body as Node, out);
  return out;
}

/** Collect sites for one node (not its children); `tails` holds the returns in tail position. */
export function sitesOf(
  node: Node,
  parent: Node | null,
  key: string,
  text: string,
  out: RawSite[],
  fn: string | null,
  tails: ReadonlySet<Node>,
): void {
  const s = node.start!;
  const e = node.end!;
  const add = (start: number, end: number, operator: string, rank: number, replacement: string) => {
    if (text.slice(start, end) === replacement) return;
    // A function's body emptied returns `undefined`: it only breaks the type, as `return undefined` does.
    const body =
      operator === 'BlockStatement' && parent !== null && key === 'body' && /Function|Method/.test(parent.type);
    const breaksType = TYPE_BREAKING.has(operator) || body;
    out.push({ start, end, operator, rank, replacement, fn, ...(breaksType ? { breaksType } : {}) });
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
      const swap = BINARY_SWAPS.get(node.operator);
      if (!swap) break;
      if (node.operator === '+' && (isStringy(node.left as Node) || isStringy(node.right as Node))) break;
      if (node.type === 'AssignmentExpression' && node.operator === '+=' && isStringy(node.right as Node)) break;
      const at = operatorBetween(node.left as Node, node.right as Node, node.operator);
      if (at === null) break;
      for (const to of swap.to) add(at, at + node.operator.length, swap.op, swap.rank, to);
      // `x | 0` truncates: without the operation the value goes through untouched.
      if (node.type === 'BinaryExpression' && BITWISE.has(node.operator))
        add(s, e, 'BitwiseOperator', 4, `(${text.slice(node.left.start!, node.left.end!)})`);
      break;
    }
    case 'SwitchCase':
      // The label removed: its value falls to the next case (or default), its body to the previous one.
      if (node.test) add(s, text.indexOf(':', node.test.end!) + 1, 'CaseLabel', 2, '');
      break;
    case 'NumericLiteral':
      add(s, e, 'NumberLiteral', 6, String(node.value + 1));
      break;
    case 'RegExpLiteral':
      for (const m of patternMutations(node.pattern))
        if (validRegExp(m.pattern, node.flags)) add(s, e, 'Regex', 3, `/${m.pattern}/${node.flags}`);
      break;
    case 'VariableDeclarator':
      if (isComputed(node.init as Node | null))
        add(node.init!.start!, node.init!.end!, 'AssignedValue', 6, 'undefined');
      break;
    case 'ArrowFunctionExpression':
      // `(x) => expr` returns expr: the same mutant as `return expr` → `return undefined;`.
      if (node.body.type !== 'BlockStatement' && !(node.body.type === 'Identifier' && node.body.name === 'undefined'))
        add(node.body.start!, node.body.end!, 'ReturnValue', 5, 'undefined');
      break;
    case 'BreakStatement':
    case 'ContinueStatement':
    case 'ThrowStatement':
      add(s, e, 'StatementRemoval', 5, ';');
      break;
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
      if (
        [
          'CallExpression',
          'OptionalCallExpression',
          'AwaitExpression',
          'AssignmentExpression',
          'UpdateExpression',
        ].includes(node.expression.type)
      ) {
        add(s, e, 'StatementRemoval', 5, ';');
      }
      break;
    case 'ReturnStatement':
      if (node.argument && !(node.argument.type === 'Identifier' && node.argument.name === 'undefined')) {
        add(s, e, 'ReturnValue', 5, 'return undefined;');
      } else if (!tails.has(node)) add(s, e, 'StatementRemoval', 5, ';');
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
      if (node.quasis.some((q) => q.value.raw.length > 0) || node.expressions.length > 0)
        add(s, e, 'StringLiteral', 7, '``');
      break;
    case 'ArrayExpression':
      // An empty one gets an element (StrykerJS's form): `const fields = []` is a line a mutant reaches too.
      add(s, e, 'ArrayDeclaration', 7, node.elements.length > 0 ? '[]' : '["Stryker was here"]');
      break;
    case 'ObjectExpression':
      if (node.properties.length > 0) add(s, e, 'ObjectLiteral', 7, '{}');
      break;
    case 'OptionalMemberExpression':
    case 'OptionalCallExpression':
      if (node.optional) {
        const from = (node.type === 'OptionalMemberExpression' ? node.object : node.callee).end!;
        const at = text.indexOf('?.', from);
        if (at >= 0 && at < e)
          add(at, at + 2, 'OptionalChaining', 6, node.type === 'OptionalMemberExpression' && !node.computed ? '.' : '');
      }
      break;
    case 'CallExpression': {
      const callee = node.callee;
      if (
        (callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') &&
        !callee.computed &&
        callee.property.type === 'Identifier'
      ) {
        const to = METHOD_SWAPS.get(callee.property.name);
        if (to !== undefined) add(callee.property.start!, callee.property.end!, 'MethodExpression', 6, to);
        // A literal's containment → a prefix test: strings that hold it only at their start cannot tell them apart.
        if (
          callee.property.name === 'includes' &&
          node.arguments.length === 1 &&
          node.arguments[0]!.type === 'StringLiteral'
        )
          add(callee.property.start!, callee.property.end!, 'MethodExpression', 6, 'startsWith');
      }
      break;
    }
    default:
      break;
  }
}
