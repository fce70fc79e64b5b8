/**
 * A new JavaScript function's guards keyed on exact values, made false: the function without its
 * special cases (ag_mutate_guards.py is Python's). A new function has no baseline version to
 * tell a special case on the tests' inputs from a general change; its keyed guards stand in for
 * it: an `if` directly in the function's body, with no `else`, whose branch ends in `return` or
 * `throw`, and whose test compares a parameter with a literal number or string (`year ===
 * 1900`, `a === 100 && n === 3`), or looks a parameter up in a table that is no parameter
 * (`code in TABLE`, `TABLE.has(code)`, `TABLE[code]`, `TABLE[code] !== undefined`,
 * `Object.hasOwn(TABLE, code)`, `TABLE.hasOwnProperty(code)`). The footprint calls the module with those tests made `false` beside the
 * patched one, as it calls the baseline's version beside a changed function.
 * @module
 */
import type { Node } from '@babel/types';
import type { TopFunction } from './js-functions.js';

type Any = Node & Record<string, unknown>;

const LITERAL = new Set(['NumericLiteral', 'StringLiteral', 'BigIntLiteral']);

const literal = (n: Any): boolean =>
  LITERAL.has(n.type) ||
  (n.type === 'UnaryExpression' && n.operator === '-' && LITERAL.has((n.argument as Any).type)) ||
  (n.type === 'TemplateLiteral' && (n.expressions as Node[]).length === 0);

const param = (n: Any, params: ReadonlySet<string>) => n.type === 'Identifier' && params.has(n.name as string);

/** A name that is no parameter: a table of the module's. */
const table = (n: Any, params: ReadonlySet<string>) => n.type === 'Identifier' && !params.has(n.name as string);

/** `TABLE[param]`. */
const lookup = (n: Any, params: ReadonlySet<string>) =>
  n.type === 'MemberExpression' &&
  n.computed === true &&
  table(n.object as Any, params) &&
  param(n.property as Any, params);

/** `undefined` or `null`. */
const nothing = (n: Any) => (n.type === 'Identifier' && n.name === 'undefined') || n.type === 'NullLiteral';

/** The name of a member call's method (`x.has(…)`), or null. */
const method = (callee: Any) =>
  callee.type === 'MemberExpression' && (callee.property as Any).type === 'Identifier'
    ? ((callee.property as Any).name as string)
    : null;

function keyed(test: Any, params: ReadonlySet<string>): boolean {
  if (test.type === 'LogicalExpression' && test.operator === '&&')
    return keyed(test.left as Any, params) && keyed(test.right as Any, params);
  if (test.type === 'BinaryExpression' && (test.operator === '===' || test.operator === '==')) {
    const [l, r] = [test.left as Any, test.right as Any];
    return (param(l, params) && literal(r)) || (param(r, params) && literal(l));
  }
  if (test.type === 'BinaryExpression' && (test.operator === '!==' || test.operator === '!=')) {
    const [l, r] = [test.left as Any, test.right as Any];
    return (lookup(l, params) && nothing(r)) || (lookup(r, params) && nothing(l));
  }
  if (test.type === 'BinaryExpression' && test.operator === 'in')
    return param(test.left as Any, params) && (test.right as Any).type === 'Identifier';
  if (lookup(test, params)) return true;
  if (test.type === 'CallExpression') {
    const callee = test.callee as Any;
    const args = test.arguments as Any[];
    const name = method(callee);
    if (name === null) return false;
    const object = callee.object as Any;
    if (name === 'has' || name === 'includes' || name === 'hasOwnProperty')
      return table(object, params) && args.length === 1 && param(args[0]!, params);
    // Object.hasOwn(TABLE, param)
    return (
      name === 'hasOwn' &&
      object.type === 'Identifier' &&
      object.name === 'Object' &&
      args.length === 2 &&
      table(args[0]!, params) &&
      param(args[1]!, params)
    );
  }
  return false;
}

const ends = (n: Any): boolean =>
  n.type === 'ReturnStatement' ||
  n.type === 'ThrowStatement' ||
  (n.type === 'BlockStatement' && (n.body as Any[]).length > 0 && ends((n.body as Any[]).at(-1)!));

/** `text` with `fn`'s keyed guards' tests made `false`, or null when it has none. */
export function unguardedText(text: string, fn: TopFunction): string | null {
  const node = fn.node as Any;
  const body = node.body as Any;
  if (body.type !== 'BlockStatement') return null;
  const params = new Set(fn.parameters.positional);
  const tests = (body.body as Any[])
    .filter(
      (s) =>
        s.type === 'IfStatement' && s.alternate == null && ends(s.consequent as Any) && keyed(s.test as Any, params),
    )
    .map((s) => s.test as Any);
  if (tests.length === 0) return null;
  let out = text;
  for (const t of [...tests].sort((a, b) => (b.start as number) - (a.start as number)))
    out = `${out.slice(0, t.start as number)}false${out.slice(t.end as number)}`;
  return out;
}
