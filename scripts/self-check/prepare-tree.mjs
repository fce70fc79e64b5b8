// Make an exported tree (no node_modules, no dist/) testable: link the checkout's installed
// dependencies into it and build, from the tree's own sources, the packages its tests need.
import { spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { linkNodeModules } from '../lib/node-modules.mjs';

/**
 * Run `npm run build` in one package folder of `tree`, output appended to `log`.
 * @returns {Promise<number>} the exit code (2 when killed)
 */
function build(tree, pkg, log) {
  return new Promise((resolve) => {
    const fd = openSync(log, 'a');
    const child = spawn('npm', ['run', 'build', '--silent'], { cwd: path.join(tree, pkg), stdio: ['ignore', fd, fd] });
    child.on('close', (code) => {
      closeSync(fd);
      resolve(code ?? 2);
    });
  });
}

/**
 * Link node_modules into `tree` and build `packages` one after the other (schemas and
 * ag-core first: everything imports them). A package listed in `reuse` is not built: its
 * dist/ is copied from `reuse.from`, a tree whose copy of that package is byte-identical.
 * @param {string} checkout the repository whose node_modules is installed
 * @param {string} tree the exported tree
 * @param {readonly string[]} packages package folders to build, in dependency order
 * @param {string} log file that receives the build output
 * @param {{ from: string, packages: readonly string[] }} [reuse]
 * @returns {Promise<{ failed: string[], built: string[], ms: number }>}
 */
export async function prepareTree(checkout, tree, packages, log, reuse) {
  const started = Date.now();
  linkNodeModules(checkout, tree);
  const failed = [];
  const built = [];
  for (const p of packages) {
    if (reuse !== undefined && reuse.packages.includes(p) && existsSync(path.join(reuse.from, p, 'dist'))) {
      cpSync(path.join(reuse.from, p, 'dist'), path.join(tree, p, 'dist'), { recursive: true, verbatimSymlinks: true });
      continue;
    }
    built.push(p);
    if ((await build(tree, p, log)) !== 0) failed.push(p);
  }
  return { failed, built, ms: Date.now() - started };
}
