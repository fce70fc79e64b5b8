/**
 * A JavaScript/TypeScript file's code as it runs: its syntax tree without positions, comments,
 * layout, parentheses or types, so two texts that differ only in those compare equal.
 * @module
 */
import { FLOW_TYPE_ONLY, NOT_CODE_KEYS, parseJs } from './js.js';

/** Keys that do not run: positions, comments, types, and type-level modifiers. */
const DROPPED = new Set([...NOT_CODE_KEYS, 'definite', 'declare', 'abstract', 'accessibility', 'override', 'readonly']);

/** Statements that only declare types. */
const TYPE_ONLY = new Set([
  'TSInterfaceDeclaration',
  'TSTypeAliasDeclaration',
  'TSDeclareFunction',
  'TSDeclareMethod',
  'TSIndexSignature',
  ...FLOW_TYPE_ONLY,
]);

/** Expressions that only assert a type: their operand is the code. */
const TYPE_WRAPPERS = new Set([
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
  'TSTypeAssertion',
  'TypeCastExpression',
]);

function replacer(key: string, value: unknown): unknown {
  if (DROPPED.has(key)) return undefined;
  if (Array.isArray(value))
    return value.filter(
      (n) =>
        !(
          n !== null &&
          typeof n === 'object' &&
          (TYPE_ONLY.has((n as { type?: string }).type ?? '') ||
            (n as { exportKind?: string; importKind?: string }).exportKind === 'type' ||
            (n as { importKind?: string }).importKind === 'type')
        ),
    );
  let v = value as { type?: string; expression?: unknown } | null;
  while (v !== null && typeof v === 'object' && TYPE_WRAPPERS.has(v.type ?? '')) v = v.expression as typeof v;
  return v;
}

/** The file's code (see the module), or null when it does not parse. */
export function jsCode(path: string, text: string): string | null {
  try {
    return JSON.stringify(parseJs(path, text), replacer);
  } catch {
    return null;
  }
}
