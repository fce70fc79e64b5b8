// node_modules for a tree that has none (a `git archive` export, a staged copy): the
// checkout's installed third-party packages linked in read-through, and the workspace
// packages (@adversary-gate/*) linked to the tree's own copies, never to the checkout's.
import { cpSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';

const WORKSPACE_SCOPE = '@adversary-gate';

/**
 * Create `tree/node_modules` from `checkout/node_modules`: third-party entries as absolute
 * links into the checkout, `.bin` and `@adversary-gate` as real folders whose links keep
 * their relative targets (so they resolve inside `tree`).
 * @param {string} checkout the repository whose dependencies are installed
 * @param {string} tree the tree to give node_modules to
 */
export function linkNodeModules(checkout, tree) {
  const from = path.join(checkout, 'node_modules');
  const to = path.join(tree, 'node_modules');
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (name === '.bin' || name === WORKSPACE_SCOPE) {
      mkdirSync(path.join(to, name), { recursive: true });
      for (const entry of readdirSync(path.join(from, name))) {
        const link = path.join(from, name, entry);
        if (lstatSync(link).isSymbolicLink()) symlinkSync(readlinkSync(link), path.join(to, name, entry));
      }
    } else if (name !== '.package-lock.json' && !name.startsWith('.')) {
      symlinkSync(path.join(from, name), path.join(to, name));
    }
  }
}

/**
 * Copy one built workspace package (its package.json, dist/ and bin/) from the checkout
 * into `tree` at the same relative place, so `tree` does not see later rebuilds.
 * @param {string} checkout
 * @param {string} tree
 * @param {string} rel e.g. `tools/ag-core`
 */
export function copyBuiltPackage(checkout, tree, rel) {
  for (const part of ['package.json', 'dist', 'bin']) {
    const src = path.join(checkout, rel, part);
    try {
      lstatSync(src);
    } catch {
      continue;
    }
    cpSync(src, path.join(tree, rel, part), { recursive: true });
  }
}
