/**
 * A changed JavaScript function's collaborators: the project's own modules it calls into, read
 * from the file's syntax. A collaborator is a name the function uses that the module's top
 * level binds from a relative `require` or `import` (`const { rate } = require('./fx')`,
 * `import * as fx from './fx'`), or a member of one (`fx.rate`). The recording run notes, on
 * each call of the changed function, which of them the tests replaced with a jest, vitest or node:test
 * mock and what that mock answered (runtime/call-recorder.cjs); the judge then calls the real
 * export on the same arguments apart from the tests (js-contracts.ts).
 * @module
 */
import type { Node } from '@babel/types';
import { childNodes } from '../engines/js.js';

/** Where a top-level name comes from: a relative module and the path of properties into what it loads. */
export interface Binding {
  readonly source: string;
  /** [] is the module itself (its `module.exports`, or an ES namespace), ['rate'] one export. */
  readonly path: readonly string[];
}

/** One collaborator of a function: `name` as the recorder keys it (`rate`, `fx.rate`), and where the real one is. */
export interface Collaborator extends Binding {
  readonly name: string;
}

const relative = (n: Node | null | undefined): string | null =>
  n?.type === 'StringLiteral' && /^\.\.?\//.test(n.value) ? n.value : null;

/** `require('./m')`'s source, or null. */
function required(n: Node | null | undefined): string | null {
  if (n?.type !== 'CallExpression' || n.callee.type !== 'Identifier' || n.callee.name !== 'require') return null;
  return n.arguments.length === 1 ? relative(n.arguments[0] as Node) : null;
}

const keyName = (k: Node): string | null =>
  k.type === 'Identifier' ? k.name : k.type === 'StringLiteral' ? k.value : null;

/** The module's top-level names bound from relative modules. */
export function relativeBindings(program: Node): Map<string, Binding> {
  const out = new Map<string, Binding>();
  for (const top of (program as Node & { body: Node[] }).body) {
    if (top.type === 'ImportDeclaration') {
      const source = relative(top.source);
      if (source === null || top.importKind === 'type') continue;
      for (const s of top.specifiers) {
        if (s.type === 'ImportNamespaceSpecifier') out.set(s.local.name, { source, path: [] });
        else if (s.type === 'ImportDefaultSpecifier') out.set(s.local.name, { source, path: ['default'] });
        else {
          const imported = keyName(s.imported as Node);
          if (imported !== null) out.set(s.local.name, { source, path: [imported] });
        }
      }
      continue;
    }
    if (top.type !== 'VariableDeclaration') continue;
    for (const d of top.declarations) {
      const init = d.init as Node | null | undefined;
      const direct = required(init);
      const member =
        init?.type === 'MemberExpression' && !init.computed && init.property.type === 'Identifier'
          ? { source: required(init.object as Node), key: init.property.name }
          : null;
      const source = direct ?? member?.source ?? null;
      if (source === null) continue;
      const base = direct !== null ? [] : [member!.key];
      if (d.id.type === 'Identifier') out.set(d.id.name, { source, path: base });
      else if (d.id.type === 'ObjectPattern')
        for (const p of d.id.properties) {
          if (p.type !== 'ObjectProperty' || p.computed) continue;
          const key = keyName(p.key as Node);
          const value = (p.value as Node).type === 'AssignmentPattern' ? null : (p.value as Node);
          if (key !== null && value?.type === 'Identifier') out.set(value.name, { source, path: [...base, key] });
        }
    }
  }
  return out;
}

/** The collaborators `fn` uses: each bound name it reads, and each `name.member` it reads. */
export function collaboratorsOf(fn: Node, bindings: ReadonlyMap<string, Binding>): Collaborator[] {
  const found = new Map<string, Collaborator>();
  const visit = (n: Node, parent: Node | null, key: string) => {
    if (n.type === 'Identifier' && bindings.has(n.name)) {
      const declared =
        parent !== null &&
        (((parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') &&
          key === 'property' &&
          !parent.computed) ||
          (parent.type === 'ObjectProperty' && key === 'key' && !parent.computed));
      if (!declared) {
        const b = bindings.get(n.name)!;
        const member =
          (parent?.type === 'MemberExpression' || parent?.type === 'OptionalMemberExpression') &&
          key === 'object' &&
          !parent.computed &&
          parent.property.type === 'Identifier'
            ? parent.property.name
            : null;
        const name = member !== null ? `${n.name}.${member}` : n.name;
        found.set(name, { name, source: b.source, path: member !== null ? [...b.path, member] : b.path });
      }
    }
    for (const [k, c] of childNodes(n)) visit(c, n, k);
  };
  visit(fn, null, '');
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The recorder's view of the collaborators, as an expression: a thunk answering each one's
 * current value by name (a name not bound yet answers nothing). `into` names its record (a
 * name the file does not use).
 */
export function collaboratorsThunk(collaborators: readonly Collaborator[], into: string): string {
  const reads = collaborators.map((c) => `try { ${into}[${JSON.stringify(c.name)}] = ${c.name}; } catch {}`);
  return `() => { const ${into} = {}; ${reads.join(' ')} return ${into}; }`;
}
