/**
 * Where a package lives and its version, found from one of its modules: the same whether the
 * module is a source file under src/, tsc's output under dist/, or a bundle in dist/.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder at or above `moduleUrl`'s folder that holds a package.json. */
export function packageDir(moduleUrl: string | URL): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
  return dir;
}

/** `version` from the package.json of the package `moduleUrl` belongs to. */
export function packageVersion(moduleUrl: string | URL): string {
  const json = JSON.parse(readFileSync(path.join(packageDir(moduleUrl), 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof json.version === 'string' ? json.version : '0.0.0';
}
