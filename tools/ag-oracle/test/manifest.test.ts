import test from 'ava';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { globBase, readManifest } from '../src/fixtures/manifest.js';
import { removeTempDirs, tempDir } from './helpers/tmp.js';

test.after.always(removeTempDirs);

function tree(files: Record<string, string | { link: string }>): string {
  const dir = tempDir('manifest');
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    if (typeof body === 'string') writeFileSync(path.join(dir, rel), body);
    else symlinkSync(body.link, path.join(dir, rel));
  }
  return dir;
}

test('files are listed in path order with the digest of their bytes', async (t) => {
  const dir = tree({ 'fx/b.txt': 'b', 'fx/a/z.txt': 'z' });
  const m = await readManifest(dir, 'fx');
  t.false(m.absent);
  t.deepEqual(
    m.entries.map((e) => [e.path, e.type]),
    [
      ['fx/a/z.txt', 'file'],
      ['fx/b.txt', 'file'],
    ],
  );
  t.is(m.entries[1]!.value, '3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d');
});

test('a symlink is recorded by its target and never followed', async (t) => {
  const dir = tree({ 'outside.txt': 'secret', 'fx/link': { link: '../outside.txt' }, 'fx/dirlink': { link: '..' } });
  const m = await readManifest(dir, 'fx');
  t.deepEqual(m.entries, [
    { path: 'fx/dirlink', type: 'symlink', value: '..' },
    { path: 'fx/link', type: 'symlink', value: '../outside.txt' },
  ]);
});

test('a root reached through a symlinked parent is that link, not what it points at', async (t) => {
  const dir = tree({ 'real/fx/a.txt': 'a', tests: { link: 'real' } });
  const m = await readManifest(dir, 'tests/fx');
  t.deepEqual(m.entries, [{ path: 'tests', type: 'symlink', value: 'real' }]);
});

test('a missing root is absent; a file root is its own single entry', async (t) => {
  const dir = tree({ 'golden.json': '{}' });
  t.true((await readManifest(dir, 'nope')).absent);
  const m = await readManifest(dir, 'golden.json');
  t.deepEqual(
    m.entries.map((e) => [e.path, e.type]),
    [['golden.json', 'file']],
  );
});

test('a glob root keeps only the matching files below its static base', async (t) => {
  const dir = tree({ 'tests/a.golden': '1', 'tests/deep/b.golden': '2', 'tests/c.txt': '3' });
  t.deepEqual(globBase('tests/**/*.golden')?.base, 'tests');
  t.is(globBase('tests/fixtures'), null);
  const m = await readManifest(dir, 'tests/**/*.golden');
  t.deepEqual(
    m.entries.map((e) => e.path),
    ['tests/a.golden', 'tests/deep/b.golden'],
  );
});

test('files larger than the read buffer, and exactly its size, are digested whole', async (t) => {
  const { createHash } = await import('node:crypto');
  const sizes = [0, 1, 1024 * 1024 - 1, 1024 * 1024, 1024 * 1024 + 1, 3 * 1024 * 1024 + 7];
  const bodies = sizes.map((n, i) => Buffer.alloc(n, i + 1).toString('latin1'));
  const dir = tree(Object.fromEntries(bodies.map((b, i) => [`fx/f${i}`, b])));
  const m = await readManifest(dir, 'fx');
  t.deepEqual(
    m.entries.map((e) => e.value),
    bodies.map((b) => createHash('sha256').update(Buffer.from(b, 'latin1')).digest('hex')),
  );
});
