/**
 * Declared commands as a JSON array of strings. Anything else is a fault, and none of the
 * file's commands run: a partial reading of a declaration is never a run of it.
 * @module
 */
import { decodeUtf8Strict, LoadError, parseStrictJson } from '@adversary-gate/schemas';

/** The commands a file declares, or the fault that made it unusable. */
export type DeclaredCommands = { readonly commands: string[] } | { readonly fault: string };

/** Parse the bytes of a `--commands-json` file. */
export function parseDeclaredCommands(file: string, bytes: Buffer): DeclaredCommands {
  let value: unknown;
  try {
    value = parseStrictJson(file, decodeUtf8Strict(file, bytes));
  } catch (error) {
    return { fault: error instanceof LoadError ? error.problem : String(error) };
  }
  if (!Array.isArray(value))
    return { fault: `expected a JSON array of command strings, got ${value === null ? 'null' : typeof value}` };
  if (value.length === 0) return { fault: 'the array declares no command' };
  const bad = value.findIndex((c) => typeof c !== 'string' || c.trim() === '');
  if (bad >= 0) return { fault: `element ${bad} is not a non-empty string` };
  return { commands: value as string[] };
}
