/**
 * Where a test lives, for the rename pairing: the file its id names, else the files the diff
 * changed whose text (on that side) spells the test's name. A test can only be renamed in a
 * file the patch changed.
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileOfId, type DiffModel } from '@adversary-gate/core';
import { nameOfId, type Locator } from './renames.js';

const MAX_BYTES = 4 * 1024 * 1024;

function readSmall(file: string): string | null {
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > MAX_BYTES) return null;
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Old path → new path of every file the diff renamed. */
export function renamedFiles(diff: DiffModel): Map<string, string> {
  return new Map(
    diff.files.filter((f) => f.status === 'renamed' && f.oldPath !== null).map((f) => [f.oldPath!, f.path]),
  );
}

/** A locator over the two trees and the files the diff changed. */
export function treeLocator(baseline: string, patch: string, diff: DiffModel): Locator {
  const sides = {
    baseline: {
      root: baseline,
      files: diff.files.filter((f) => f.oldPath !== null && !f.binary).map((f) => f.oldPath!),
    },
    patch: { root: patch, files: diff.files.filter((f) => f.status !== 'deleted' && !f.binary).map((f) => f.path) },
  };
  const cache = new Map<string, string | null>();
  const text = (side: 'baseline' | 'patch', rel: string) => {
    if (path.isAbsolute(rel) || rel.split('/').includes('..')) return null;
    const key = `${side}:${rel}`;
    if (!cache.has(key)) cache.set(key, readSmall(path.join(sides[side].root, rel)));
    return cache.get(key)!;
  };
  return (id, side, extra = []) => {
    const file = fileOfId(id);
    if (file !== null) return [file];
    const name = nameOfId(id);
    if (name.length === 0) return [];
    return [...new Set([...sides[side].files, ...extra])].filter((rel) => text(side, rel)?.includes(name) === true);
  };
}
