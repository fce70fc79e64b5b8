/**
 * Path containment: the one rule every tool uses to ask "is this path inside that tree?"
 * (a policy, a claims file or a baseline must never come from inside the patch). A path is
 * inside a tree when it is inside lexically, or when it is inside once every symbolic link on
 * the way is resolved: a link that points into the tree, or a tree reached through a link, is
 * caught either way. A path that does not exist yet is resolved through its nearest existing
 * ancestor. @module
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

/** True when `inner` is `outer` or lies below it, comparing the paths as written (after resolving `.` and `..`). */
export function isWithin(outer: string, inner: string): boolean {
  const rel = path.relative(path.resolve(outer), path.resolve(inner));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The real path of `p`, or, when `p` does not exist, the real path of its nearest existing ancestor joined with the rest. */
export function resolvedPath(p: string): string {
  const abs = path.resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    const parent = path.dirname(abs);
    if (parent === abs) return abs;
    return path.join(resolvedPath(parent), path.basename(abs));
  }
}

/** True when `file` lies inside `tree`, lexically or once symbolic links are resolved. */
export function liesInside(file: string, tree: string): boolean {
  return isWithin(tree, file) || isWithin(resolvedPath(tree), resolvedPath(file));
}
