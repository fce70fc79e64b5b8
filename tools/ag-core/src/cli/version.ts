/**
 * A package's version, read from its package.json (never a hand-typed string).
 * @module
 */
import { readFileSync } from 'node:fs';

/** Read `version` from the package.json one directory above `moduleUrl`'s folder (src/ or dist/). */
export function packageVersion(moduleUrl: string | URL): string {
  const json = JSON.parse(readFileSync(new URL('../package.json', moduleUrl), 'utf8')) as { version?: unknown };
  return typeof json.version === 'string' ? json.version : '0.0.0';
}
