/**
 * Reading repository paths from the baseline and patch trees: lstat only, regular files
 * only, capped, never through a symlink at the last component.
 * @module
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { LoadError, readRegularFile } from '@adversary-gate/schemas';
import type { SideBytes } from '../tamper/config-scan.js';

/** Largest configuration file read from a tree. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** True when something (of any type, a dangling link included) exists at `rel` in `tree`. */
export async function existsInTree(tree: string, rel: string): Promise<boolean> {
  // Synchronous: one lstat is cheaper than a round trip through the thread pool.
  try {
    lstatSync(path.join(tree, rel));
    return true;
  } catch {
    return false;
  }
}

/** The bytes at `rel` in `tree`: null when absent, `unreadable` for a link, directory, device or oversize file. */
export async function readTreeFile(tree: string, rel: string): Promise<SideBytes> {
  try {
    return await readRegularFile(path.join(tree, rel), MAX_CONFIG_BYTES);
  } catch (error) {
    if (error instanceof LoadError && error.code === 'E_EVIDENCE_MISSING' && !(await existsInTree(tree, rel)))
      return null;
    return 'unreadable';
  }
}
