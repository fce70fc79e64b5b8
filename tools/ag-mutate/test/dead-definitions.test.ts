// Dead code a hunk deletes: whole private definitions no code of the tree names get no revert.
import test from 'ava';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deadModule, deletedDefinitions, deletesDeadCode, namedInTree } from '../src/dead-definitions.js';
import type { Hunk } from '../src/hunks.js';

/** A pure deletion of `removed` before line `at` of the patch's text. */
const deletion = (removed: string[], at: number): Hunk => ({
  oldStart: at,
  oldLines: removed.length,
  newStart: at,
  newLines: 0,
  removed,
});

const PY_AFTER = [
  'class Version:',
  '    def __init__(self, major):',
  '        self.major = major',
  '',
  '    def __lt__(self, other):',
  '        return self.major < other.major',
  '',
].join('\n');

test('Python: a private method deleted whole is a dead definition; a dunder, a public or a decorated one is not', (t) => {
  const key = ['    def _key(self):', '        return (self.major,)', ''];
  t.deepEqual(deletedDefinitions(PY_AFTER, deletion(key, 4), 'python'), ['_key']);
  t.is(deletedDefinitions(PY_AFTER, deletion(['    def __hash__(self):', '        return 1'], 4), 'python'), null);
  t.is(deletedDefinitions(PY_AFTER, deletion(['    def key(self):', '        return 1'], 4), 'python'), null);
  t.is(
    deletedDefinitions(PY_AFTER, deletion(['    @property', '    def _key(self):', '        return 1'], 4), 'python'),
    null,
  );
  // part of a block: the guard of a function whose body stays
  t.is(
    deletedDefinitions(PY_AFTER, deletion(['        if major < 0:', '            raise ValueError()'], 3), 'python'),
    null,
  );
  // a definition and a statement beside it
  t.is(
    deletedDefinitions(PY_AFTER, deletion(['    def _key(self):', '        return 1', '    LIMIT = 3'], 4), 'python'),
    null,
  );
});

test('JavaScript: an unexported function declaration deleted whole is a dead definition; an exported one or a statement is not', (t) => {
  const after = 'export function total(xs) {\n  return xs.length;\n}\n';
  const helper = ['function sum(xs) {', '  let s = 0;', '  for (const x of xs) { s += x; }', '  return s;', '}'];
  t.deepEqual(deletedDefinitions(after, deletion(helper, 4), 'js'), ['sum']);
  t.is(deletedDefinitions(after, deletion(['export function sum(xs) {', '  return 0;', '}'], 4), 'js'), null);
  t.is(deletedDefinitions(after, deletion(['function sum(xs) {', '  return 0;'], 4), 'js'), null, 'unbalanced');
  t.is(deletedDefinitions(after, deletion(["  if (!xs) throw new Error('none');"], 2), 'js'), null);
});

test('a deleted definition some code of the tree still names keeps its revert; one nothing names is dead', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ag-dead-'));
  try {
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src', 'version.py'), PY_AFTER);
    writeFileSync(path.join(dir, 'src', 'other.py'), 'def use(v):\n    return v._cmp()\n');
    const named = namedInTree(dir);
    const hunk = (name: string) => deletion([`    def ${name}(self):`, '        return 1'], 4);
    t.true(deletesDeadCode(PY_AFTER, hunk('_key'), 'python', named));
    t.false(deletesDeadCode(PY_AFTER, hunk('_cmp'), 'python', named), 'other.py still calls it');
    // a code file too large to read might name anything
    writeFileSync(path.join(dir, 'src', 'big.py'), `x = 1\n${'#'.repeat(1024 * 1024)}\n`);
    t.false(deletesDeadCode(PY_AFTER, hunk('_key'), 'python', namedInTree(dir)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a deleted module nothing imports is dead when it is a private Python one; a JavaScript one never is', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ag-dead-'));
  try {
    mkdirSync(path.join(dir, 'pkg'));
    writeFileSync(path.join(dir, 'pkg', 'core.py'), 'from ._text import clean\n');
    writeFileSync(path.join(dir, 'app.js'), "const { pad } = require('./lib/strings');\n");
    const named = namedInTree(dir);
    t.true(deadModule('pkg/_compat.py', named), 'private, named by no code');
    t.false(deadModule('pkg/_text.py', named), 'core.py still imports it');
    t.false(deadModule('pkg/helpers.py', named), 'a public module may be imported from outside the tree');
    t.false(deadModule('pkg/__init__.py', named), 'a package marker');
    t.false(deadModule('lib/legacy.js', named), 'a JavaScript module may be loaded by a computed path');
    t.false(deadModule('db/schema.sql', named), 'no engine reads it');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
