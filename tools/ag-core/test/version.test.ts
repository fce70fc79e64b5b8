import test from 'ava';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageDir, packageVersion } from '../src/index.js';
import { scratch } from './scratch.js';

/** A package folder with a module at each place the tools' code can be loaded from. */
function fakePackage(version: unknown): { root: string; at: (rel: string) => string } {
  const root = mkdtempSync(path.join(scratch, 'pkg-'));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'x', version }));
  const at = (rel: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), '');
    return pathToFileURL(path.join(root, rel)).href;
  };
  return { root, at };
}

test('packageDir: the same folder from a source file, tsc output two levels down and a bundle in dist', (t) => {
  const pkg = fakePackage('1.2.3');
  for (const rel of ['src/cli.ts', 'dist/exec/instrument.js', 'dist/x.bundle.mjs', 'dist/x.chunks/chunk-A.mjs']) {
    t.is(packageDir(pkg.at(rel)), pkg.root, rel);
  }
  t.is(packageVersion(pkg.at('dist/exec/instrument.js')), '1.2.3');
});

test('packageVersion: a package.json without a string version reads as 0.0.0', (t) => {
  const pkg = fakePackage(7);
  t.is(packageVersion(pkg.at('dist/cli.js')), '0.0.0');
});

test('packageDir: a module with no package.json above it is an error naming the module', (t) => {
  // The scratch folder lies under the system's temporary folder, which holds no package.json.
  const lone = path.join(mkdtempSync(path.join(scratch, 'lone-')), 'm.js');
  writeFileSync(lone, '');
  t.throws(() => packageDir(pathToFileURL(lone)), { message: `no package.json above ${lone}` });
});
