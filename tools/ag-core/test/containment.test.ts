import test from 'ava';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isWithin, liesInside, resolvedPath } from '../src/files/containment.js';

test('isWithin compares resolved paths: the tree itself and below it, never a sibling sharing a prefix', (t) => {
  t.true(isWithin('/a/tree', '/a/tree'));
  t.true(isWithin('/a/tree', '/a/tree/x/y'));
  t.true(isWithin('/a/tree/', '/a/tree/x'));
  t.false(isWithin('/a/tree', '/a/tree-2/x'));
  t.false(isWithin('/a/tree', '/a'));
  t.false(isWithin('/a/tree', '/a/tree/../other'));
  t.true(isWithin('/', '/usr/bin'));
  t.true(isWithin('/a/tree', '/a/tree/..x'));
});

test('liesInside catches a link into the tree, a tree reached through a link, and a path that does not exist yet', (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ag-contain-'));
  const tree = path.join(root, 'patch');
  mkdirSync(path.join(tree, 'sub'), { recursive: true });
  symlinkSync(path.join(tree, 'sub'), path.join(root, 'into-tree'));
  symlinkSync(tree, path.join(root, 'tree-link'));
  t.true(liesInside(path.join(root, 'into-tree', 'policy.json'), tree), 'a missing file below a link into the tree');
  t.true(liesInside(path.join(tree, 'policy.json'), path.join(root, 'tree-link')), 'the tree named through a link');
  t.true(liesInside(path.join(root, 'into-tree', 'deep', 'missing', 'x'), tree));
  t.false(liesInside(path.join(root, 'outside.json'), tree));
  t.false(liesInside(path.join(root, 'patch-2', 'x'), tree));
  t.is(resolvedPath(path.join(root, 'into-tree', 'a', 'b')), path.join(resolvedPath(tree), 'sub', 'a', 'b'));
});
